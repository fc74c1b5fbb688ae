package dev.mesh.controller.manifest.internal;

import dev.mesh.controller.manifest.Location;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.List;

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

    /** Where a resource id is declared, and the resource's type word (empty when the type was bad). */
    record Id(Spot spot, String type) {
    }

    /** Resource id to its first declaration, in document order. */
    final NameTable<Id> resourceIds = new NameTable<>();
    final NameTable<Location> users = new NameTable<>();
    final NameTable<Location> artifacts = new NameTable<>();
    /**
     * The {@code own-secrets} object, or {@code null}: its keys, malformed ones included, are the
     * declared secret names, so no second map of them is built.
     */
    Json.Obj secrets;
    final List<Use> userUses = new ArrayList<>();
    final List<Use> artifactUses = new ArrayList<>();
    final List<Template> templates = new ArrayList<>(32);
    int processes;

    /** Names of the resources of one type, which must be unique. */
    private final NameTable<Spot> userNames = new NameTable<>();
    private final NameTable<Spot> processNames = new NameTable<>();
    private final NameTable<Spot> containerNames = new NameTable<>();

    /** @return whether own-secrets declares {@code name} */
    boolean isSecret(String name) {
        return secrets != null && secrets.members().containsKey(name);
    }

    /** @return the declared secret names, in document order */
    List<String> secretNames() {
        List<String> names = new ArrayList<>();
        if (secrets != null) {
            for (Json.Member member : secrets.members().values()) {
                names.add(member.key());
            }
        }
        return names;
    }

    /** @return the names of the resources of {@code type} (user, process, container), which must be unique */
    NameTable<Spot> names(String type) {
        return switch (type) {
            case "user" -> userNames;
            case "process" -> processNames;
            case "container" -> containerNames;
            default -> throw new IllegalArgumentException("no unique names for resource type " + type);
        };
    }
}
