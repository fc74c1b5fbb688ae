package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a manifest declares and what it refers to, gathered while reading so the rules across
 * fields can be checked at the end, even when some parts had problems of their own.
 */
final class Declared {

    /**
     * A name used somewhere that must be declared elsewhere; {@code key} of the object at
     * {@code pointer} holds it. Its location is made only if it turns out undeclared.
     */
    record Use(String name, String user, Json node, String pointer, String key) {
        Location location(Checks checks) {
            return new Spot(node, pointer, key).location(checks);
        }
    }

    /** Where a value is, kept cheaply: its location is made only when a problem names it. */
    record Spot(Json node, String pointer, String key) {
        Location location(Checks checks) {
            return checks.at(node, key == null ? pointer : Location.child(pointer, key));
        }
    }

    /** Resource id to where it is declared. */
    final Map<String, Spot> resourceIds = new LinkedHashMap<>();
    /** Resource id to its type word (empty when the type was bad). */
    final Map<String, String> resourceTypes = new LinkedHashMap<>();
    final Map<String, Location> users = new LinkedHashMap<>();
    final Map<String, Location> artifacts = new LinkedHashMap<>();
    final Map<String, Location> secrets = new LinkedHashMap<>();
    final List<Use> userUses = new ArrayList<>();
    final List<Use> artifactUses = new ArrayList<>();
    final List<Template> templates = new ArrayList<>();
    int processes;

    /** Resources of one type whose names must be unique, per type. */
    final Map<String, Map<String, Spot>> names = new LinkedHashMap<>();
}
