package dev.mesh.controller.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The mesh file reader keeps the manifest parser's promise: any input gives a mesh file or
 * located problems, never another exception; problems of inline manifests and of the file's own
 * fields are located where the JSON text writes them.
 *
 * <p>Each property is a QuickTheories theory; a failure reports the smallest counterexample it
 * shrank to and its seed, which {@code -DQT_SEED=SEED} replays.
 */
class MeshFileProperties {

    private static final String FILE = "<mesh>";
    private static final List<String> NAMES = List.of("alpha", "beta", "gamma", "Beta", "", "a b");
    private static final List<String> MODULES = List.of("m-one", "m-two", "unknown", "M");

    @Test
    void parse_arbitraryBytes_givesMeshOrProblems() {
        qt().withExamples(1000).forAll(ManifestGens.anyBytes(300)).checkAssert(bytes -> outcome(bytes));
    }

    @Test
    void parse_arbitraryString_givesMeshOrProblems() {
        qt().withExamples(1000).forAll(strings().allPossible().ofLengthBetween(0, 255))
                .checkAssert(text -> outcome(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void parse_generatedMesh_locatesEveryProblemWhereItIsWritten() {
        qt().withExamples(300).forAll(meshes(), booleans().all()).checkAssert((mesh, pretty) -> {
            Written written = Writer.write(mesh, pretty);
            List<Problem> problems = outcome(written.text().getBytes(StandardCharsets.UTF_8));
            for (Problem problem : problems) {
                assertThat(problem.location().file()).as("%s", problem).isEqualTo(FILE);
                assertThat(problem.code()).as("%s", problem).isNotEqualTo("json-syntax");
                if (!problem.code().equals("unreadable-file")) {
                    written.assertLocated(problem);
                }
            }
        });
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

    /**
     * A mesh file: up to 4 nodes, up to 3 modules (a valid manifest renamed to one of {@link #MODULES},
     * half of them mutated, or a path to a file that does not exist), up to 5 assignments, and half
     * the time a layout.
     */
    private static Gen<Value> meshes() {
        Gen<Value> node = name(NAMES).zip(name(List.of("10.0.0.1", "host.internal", " ", "")),
                name(List.of("debian-12", "Debian")), (n, a, s) -> new Obj(List.of(new Member("name", n),
                        new Member("address", a), new Member("system", s))));
        Gen<Value> module = ManifestGens.validManifest().zip(ManifestGens.mutations(), Generate.pick(MODULES),
                booleans().all(), (manifest, mutations, name, mutate) -> {
                    Value named = rename(manifest, name);
                    return mutate ? Mutation.applyAll(named, mutations) : named;
                });
        Gen<Value> assignment = name(MODULES).zip(name(NAMES),
                (m, n) -> new Obj(List.of(new Member("module", m), new Member("node", n))));
        Gen<Optional<Value>> layout = name(List.of("/srv/mesh", "relative", "/"))
                .<Value>map(root -> new Obj(List.of(new Member("mesh", root)))).toOptionals(50);
        return lists().of(node).ofSizeBetween(0, 4).zip(
                lists().of(Generate.oneOf(module, name(List.of("missing.json")))).ofSizeBetween(0, 3),
                lists().of(assignment).ofSizeBetween(0, 5), layout, (nodes, modules, assignments, root) -> {
                    List<Member> members = new ArrayList<>(List.of(new Member("nodes", new Arr(nodes)),
                            new Member("modules", new Arr(modules)), new Member("assignments", new Arr(assignments))));
                    root.ifPresent(r -> members.add(new Member("layout", r)));
                    return new Obj(members);
                });
    }

    private static Gen<Value> name(List<String> names) {
        return Generate.pick(names).map(Str::new);
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
