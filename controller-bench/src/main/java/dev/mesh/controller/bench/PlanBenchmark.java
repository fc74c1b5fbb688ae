package dev.mesh.controller.bench;

import dev.mesh.controller.core.Composer;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.Planner;
import dev.mesh.controller.core.Planning;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.json.JsonMapper;

/**
 * Composition and planning of synthetic meshes ({@link SyntheticMesh}): a full plan from nothing,
 * a re-plan after one assignment moved (against the first plan's declarations), and the floor —
 * Jackson writing the same declarations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class PlanBenchmark {

    @Param({"1000", "10000"})
    int nodes;

    private Mesh mesh;
    private Mesh changed;
    private Composition composition;
    private Map<String, Declaration> applied;
    private final JsonMapper mapper = JsonMapper.builder().build();

    /** Builds the meshes and the first plan's declarations once. */
    @Setup(Level.Trial)
    public void setUp() {
        mesh = SyntheticMesh.of(nodes);
        changed = SyntheticMesh.withOneAssignmentChanged(mesh);
        composition = Composer.compose(mesh);
        if (!composition.problems().isEmpty()) {
            throw new IllegalStateException("the synthetic mesh must compose: " + composition.problems().getFirst());
        }
        applied = composition.declarations().stream()
                .collect(Collectors.toMap(Declaration::node, Function.identity()));
    }

    /** @return a plan of every node from nothing */
    @Benchmark
    public Planning fullPlan() {
        return Planner.plan(mesh, Map.of(), Set.of());
    }

    /** @return a plan after one assignment moved, against what the nodes run */
    @Benchmark
    public Planning replanOneAssignment() {
        return Planner.plan(changed, applied, Set.of());
    }

    /** @return the floor: Jackson writing the declarations of the mesh */
    @Benchmark
    public byte[] writeDeclarations() {
        return mapper.writeValueAsBytes(composition.declarations());
    }
}
