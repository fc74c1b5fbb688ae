package dev.mesh.controller.store.internal;

import dev.mesh.controller.manifest.Access;
import dev.mesh.controller.manifest.Artifact;
import dev.mesh.controller.manifest.Claim;
import dev.mesh.controller.manifest.Manifest;
import dev.mesh.controller.manifest.Mount;
import dev.mesh.controller.manifest.Resource;
import dev.mesh.controller.manifest.Template;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a parsed {@link Manifest} back as a manifest document that {@link Manifest#parse} reads
 * to an equal manifest (but for locations, which then point into the written document). The
 * inventory keeps manifests in this form, because core's {@code Inventory.push} hands over the
 * parsed manifest, not the bytes that were pushed. Keys are written in the order the manifest
 * format lists them; maps (secrets, environments) keep their document order.
 *
 * <p>Thread-safe.
 */
public final class ManifestDocument {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private ManifestDocument() {
    }

    /**
     * @param manifest a parsed manifest
     * @return its document, as JSON text
     */
    public static String write(Manifest manifest) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("module", manifest.module());
        root.put("version", manifest.version());
        root.put("slug", manifest.slug());
        putList(root, "claims", manifest.claims(), ManifestDocument::claim);
        putList(root, "accesses", manifest.accesses(), ManifestDocument::access);
        if (!manifest.ownSecrets().isEmpty()) {
            root.put("own-secrets", templates(manifest.ownSecrets()));
        }
        putIfPresent(root, "secrets-owner", manifest.secretsOwner());
        if (manifest.prepares()) {
            root.put("prepares", true);
        }
        putList(root, "tools", manifest.tools(), tool -> tool);
        putList(root, "resources", manifest.resources(), ManifestDocument::resource);
        if (!manifest.artifacts().isEmpty()) {
            root.put("build", Map.of("artifacts", manifest.artifacts().stream().map(ManifestDocument::artifact).toList()));
        }
        return MAPPER.writeValueAsString(root);
    }

    private static Map<String, Object> claim(Claim claim) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("name", claim.name());
        object.put("scope", word(claim.scope()));
        return object;
    }

    private static Map<String, Object> access(Access access) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("path", access.path().text());
        object.put("mode", word(access.mode()));
        return object;
    }

    private static Map<String, Object> resource(Resource resource) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("id", resource.id());
        switch (resource) {
            case Resource.User user -> {
                object.put("type", "user");
                object.put("name", user.name());
                putIfPresent(object, "shell", user.shell());
                putIfPresent(object, "home", user.home());
            }
            case Resource.Directory directory -> {
                object.put("type", "directory");
                object.put("mode", directory.mode());
                object.put("place", word(directory.place()));
                object.put("owner", directory.owner());
            }
            case Resource.Process process -> {
                object.put("type", "process");
                object.put("name", process.name());
                object.put("artifact", process.artifact());
                object.put("run", texts(process.run()));
                object.put("user", process.user());
                putMap(object, "env", process.env());
                putList(object, "replaces", process.replaces(), name -> name);
            }
            case Resource.Container container -> {
                object.put("type", "container");
                object.put("name", container.name());
                object.put("image", container.image());
                putIfPresent(object, "user", container.user());
                putMap(object, "env", container.env());
                putList(object, "mounts", container.mounts(), ManifestDocument::mount);
                putIfPresent(object, "network", container.network());
                putList(object, "run", container.run(), Template::text);
            }
        }
        return object;
    }

    private static Map<String, Object> mount(Mount mount) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("source", mount.source());
        object.put("target", mount.target());
        object.put("mode", word(mount.mode()));
        return object;
    }

    private static Map<String, Object> artifact(Artifact artifact) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("name", artifact.name());
        object.put("kind", artifact.kind());
        object.put("language", artifact.language());
        object.put("system", artifact.system());
        object.put("from", artifact.from());
        object.put("binary", artifact.binary());
        return object;
    }

    private static String word(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private static List<String> texts(List<Template> templates) {
        return templates.stream().map(Template::text).toList();
    }

    private static Map<String, String> templates(Map<String, Template> templates) {
        Map<String, String> texts = new LinkedHashMap<>();
        templates.forEach((key, template) -> texts.put(key, template.text()));
        return texts;
    }

    private static void putMap(Map<String, Object> object, String key, Map<String, Template> templates) {
        if (!templates.isEmpty()) {
            object.put(key, templates(templates));
        }
    }

    private static <T> void putList(Map<String, Object> object, String key, List<T> values,
            Function<T, Object> form) {
        if (!values.isEmpty()) {
            List<Object> list = new ArrayList<>(values.size());
            values.forEach(value -> list.add(form.apply(value)));
            object.put(key, list);
        }
    }

    private static void putIfPresent(Map<String, Object> object, String key, String value) {
        if (value != null) {
            object.put(key, value);
        }
    }
}
