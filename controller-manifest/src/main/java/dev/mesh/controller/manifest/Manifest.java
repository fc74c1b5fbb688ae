package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.internal.ManifestReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A module's manifest (docs/design.md section 3): what the module is, which seats it claims, and what
 * it needs on the node it is assigned to.
 *
 * <p>Obtain one with {@link #parse(String)}, {@link #parse(byte[], String)} or {@link #read(Path)};
 * they check every rule and throw a {@link ManifestException} carrying all problems of the
 * document. They drop warnings, which do not make a manifest invalid; {@link #check(byte[], String)}
 * keeps them. A {@code Manifest} is immutable and thread-safe.
 *
 * @param module the module name
 * @param version the module version
 * @param slug the short name, unique in the mesh; the module name when not given
 * @param claims the seats the module claims, in document order
 * @param accesses paths outside its directories the module needs granted
 * @param ownSecrets secret name to path template, in document order
 * @param secretsOwner the user that owns the secret files, or {@code null} when there are none
 * @param prepares whether the module's processes need a run-once preparation
 * @param tools the verbs the module offers as tools
 * @param resources users, directories, processes and containers, in document order
 * @param artifacts what the module's build produces ({@code build.artifacts})
 */
public record Manifest(String module, String version, String slug, List<Claim> claims, List<Access> accesses,
        Map<String, Template> ownSecrets, String secretsOwner, boolean prepares, List<String> tools,
        List<Resource> resources, List<Artifact> artifacts) {

    /** Checks and copies the parts. Rules across fields are the parser's; this checks shape only. */
    public Manifest {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(slug, "slug");
        claims = List.copyOf(claims);
        accesses = List.copyOf(accesses);
        ownSecrets = Ordered.copyOf(ownSecrets);
        tools = List.copyOf(tools);
        resources = List.copyOf(resources);
        artifacts = List.copyOf(artifacts);
    }

    /**
     * Parses and checks a manifest from text.
     *
     * @param json the manifest document
     * @return the manifest
     * @throws ManifestException with every problem, located in {@code <string>}
     */
    public static Manifest parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8), "<string>");
    }

    /**
     * Parses and checks a manifest from UTF-8 bytes.
     *
     * @param json the manifest document
     * @param file the name problems are located in
     * @return the manifest
     * @throws ManifestException with every problem of the document
     */
    public static Manifest parse(byte[] json, String file) {
        return ManifestReader.read(json, file).manifest();
    }

    /**
     * A manifest that passed every check, with the warnings its text gave: problems of severity
     * {@link Severity#WARNING}, which do not make it invalid (e.g. {@code $<dir:data>}, a reference
     * written in an old form, which stays literal text).
     *
     * @param manifest the manifest
     * @param warnings its warnings, in document order; empty when there are none
     */
    public record Checked(Manifest manifest, List<Problem> warnings) {

        /** Checks and copies the parts. */
        public Checked {
            Objects.requireNonNull(manifest, "manifest");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Parses and checks a manifest from UTF-8 bytes, keeping its warnings, which {@link
     * #parse(byte[], String)} drops.
     *
     * @param json the manifest document
     * @param file the name problems are located in
     * @return the manifest and its warnings
     * @throws ManifestException when the document has an error, with every problem, warnings included
     */
    public static Checked check(byte[] json, String file) {
        return ManifestReader.read(json, file);
    }

    /**
     * Reads, parses and checks a manifest file, keeping its warnings ({@link #check(byte[], String)}).
     *
     * @param path the manifest file
     * @return the manifest and its warnings
     * @throws ManifestException when the file cannot be read or has an error, with every problem
     */
    public static Checked check(Path path) {
        return ManifestReader.read(path);
    }

    /**
     * Reads, parses and checks a manifest file. A file that cannot be read is a problem of that
     * file (code {@code unreadable-file}), reported the same way as any other.
     *
     * @param path the manifest file
     * @return the manifest
     * @throws ManifestException with every problem of the file
     */
    public static Manifest read(Path path) {
        return ManifestReader.read(path).manifest();
    }

    /** @return the resources of the given type, in document order */
    public <T extends Resource> List<T> resources(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * @param id a resource id
     * @return the directory resource with that id
     */
    public Optional<Resource.Directory> directory(String id) {
        return resources(Resource.Directory.class).stream().filter(d -> d.id().equals(id)).findFirst();
    }

    /**
     * @param name an artifact name
     * @return the artifact with that name
     */
    public Optional<Artifact> artifact(String name) {
        return artifacts.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    /**
     * The seats this module needs held somewhere to run: every seat named by a {@code ${seat:…}}
     * reference in its templates.
     *
     * @return seat names, sorted
     */
    public SortedSet<String> requirements() {
        SortedSet<String> seats = new TreeSet<>();
        templates().forEach(template -> template.references().forEach(reference -> {
            if (reference instanceof Reference.Seat seat) {
                seats.add(seat.seat());
            }
        }));
        return seats;
    }

    /**
     * @return every template of the manifest: access paths, own-secrets values, then each
     *     resource's {@code run} and {@code env} (and a container's mount sources), resources in
     *     document order
     */
    public List<Template> templates() {
        var all = new java.util.ArrayList<Template>();
        accesses.forEach(access -> all.add(access.path()));
        all.addAll(ownSecrets.values());
        for (Resource resource : resources) {
            switch (resource) {
                case Resource.Process p -> {
                    all.addAll(p.run());
                    all.addAll(p.env().values());
                }
                case Resource.Container c -> {
                    all.addAll(c.run());
                    all.addAll(c.env().values());
                    c.mounts().forEach(mount -> all.add(mount.source()));
                }
                case Resource.User u -> { }
                case Resource.Directory d -> { }
            }
        }
        return List.copyOf(all);
    }
}
