package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.manifest.GeneratedJson.Arr;
import dev.mesh.controller.manifest.GeneratedJson.Member;
import dev.mesh.controller.manifest.GeneratedJson.Obj;
import dev.mesh.controller.manifest.GeneratedJson.Str;
import dev.mesh.controller.manifest.GeneratedJson.Value;
import dev.mesh.controller.manifest.GeneratedJson.Writer;
import dev.mesh.controller.manifest.GeneratedJson.Written;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The mesh file reader keeps the manifest parser's promise: any input gives a mesh file or
 * located problems, never another exception; problems of inline manifests and of the file's own
 * fields are located where the JSON text writes them.
 */
class MeshFileProperties {

    private static final String FILE = "<mesh>";
    private static final List<String> NAMES = List.of("alpha", "beta", "gamma", "Beta", "", "a b");
    private static final List<String> MODULES = List.of("m-one", "m-two", "unknown", "M");

    @Property
    void parse_arbitraryBytes_givesMeshOrProblems(@ForAll byte[] bytes) {
        outcome(bytes);
    }

    @Property
    void parse_arbitraryString_givesMeshOrProblems(@ForAll String text) {
        outcome(text.getBytes(StandardCharsets.UTF_8));
    }

    @Property(tries = 300)
    void parse_generatedMesh_locatesEveryProblemWhereItIsWritten(@ForAll("meshes") Value mesh,
            @ForAll boolean pretty) {
        Written written = Writer.write(mesh, pretty);
        List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
        for (Problem problem : problems) {
            assertThat(problem.location().file()).as("%s", problem).isEqualTo(FILE);
            assertThat(problem.code()).as("%s", problem).isNotEqualTo("json-syntax");
            if (!problem.code().equals("unreadable-file")) {
                written.assertLocated(problem);
            }
        }
    }

    private static List<Problem> outcome(byte[] bytes) {
        try {
            MeshFile mesh = MeshFile.parse(bytes, FILE, Path.of("does-not-exist"));
            assertThat(mesh).isNotNull();
            return List.of();
        } catch (ManifestException e) {
            assertThat(e.problems()).isNotEmpty().allSatisfy(problem -> {
                assertThat(problem.message()).isNotBlank();
                assertThat(problem.location().line()).isGreaterThanOrEqualTo(0);
            });
            return e.problems();
        }
    }

    @Provide
    Arbitrary<Value> meshes() {
        Arbitrary<Value> node = Combinators.combine(name(NAMES), name(List.of("10.0.0.1", "host.internal", " ", "")),
                name(List.of("debian-12", "Debian"))).as((n, a, s) -> new Obj(List.of(new Member("name", n),
                        new Member("address", a), new Member("system", s))));
        Arbitrary<Value> module = Combinators.combine(ManifestArbitraries.validManifest(),
                ManifestArbitraries.mutations(), Arbitraries.of(MODULES), Arbitraries.of(true, false))
                .as((manifest, mutations, name, mutate) -> {
                    Value named = rename(manifest, name);
                    return mutate ? Mutation.applyAll(named, mutations) : named;
                });
        Arbitrary<Value> assignment = Combinators.combine(name(MODULES), name(NAMES))
                .as((m, n) -> new Obj(List.of(new Member("module", m), new Member("node", n))));
        Arbitrary<Value> layout = name(List.of("/srv/mesh", "relative", "/")).map(root ->
                new Obj(List.of(new Member("mesh", root))));
        return Combinators.combine(node.list().ofMaxSize(4), Arbitraries.oneOf(module, name(List.of("missing.json")))
                        .list().ofMaxSize(3), assignment.list().ofMaxSize(5), layout.injectNull(0.5))
                .as((nodes, modules, assignments, root) -> {
                    List<Member> members = new ArrayList<>(List.of(new Member("nodes", new Arr(nodes)),
                            new Member("modules", new Arr(modules)), new Member("assignments", new Arr(assignments))));
                    if (root != null) {
                        members.add(new Member("layout", root));
                    }
                    return new Obj(members);
                });
    }

    private static Arbitrary<Value> name(List<String> names) {
        return Arbitraries.of(names).map(Str::new);
    }

    /** The manifest with its module name replaced, so that assignments can name it. */
    private static Value rename(Value manifest, String module) {
        if (!(manifest instanceof Obj object)) {
            return manifest;
        }
        return new Obj(object.members().stream()
                .map(m -> m.key().equals("module") ? new Member("module", new Str(module)) : m).toList());
    }
}
