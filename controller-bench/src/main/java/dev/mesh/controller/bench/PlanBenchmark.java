package dev.mesh.controller.bench;

import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import dev.mesh.controller.core.plan.Planner;
import dev.mesh.controller.core.plan.Planning;
import java.util.Map;
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
 * Composition and planning of synthetic meshes ({@link SyntheticMesh}): a full plan from nothing;
 * re-plans by an {@link IncrementalPlanner} that has planned the previous mesh, after one
 * assignment moved (of a module that claims no seat) or after a mesh seat's holder moved, against
 * the declarations the nodes run; and the floor — Jackson writing the same declarations.
 *
 * <p>A re-plan alternates between the two meshes, so every measured call is a re-plan after one
 * move (there, then back), paying for all of it: finding the changed assignments, re-seating,
 * finding and recomposing the affected nodes, the changes, the requirements, the mesh digest and
 * the plan document. Each re-plan benchmark keeps its planner in its own state, so the other
 * benchmarks' forks do not hold (and collect around) what a planner remembers.
 *
 * <p>The re-plans are told what changed ({@link IncrementalPlanner.Delta}: the assignment taken out
 * and the one put in), as a caller that keeps the mesh in memory knows it; {@code
 * replanOneAssignmentCompared} is the same move with the planner left to find it by comparing the
 * assignment lists. The acknowledged declarations are one unmodifiable map, passed on every call.
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
    private Composition composition;
    private Map<String, Declaration> applied;
    private final JsonMapper mapper = JsonMapper.builder().build();

    /** Builds the mesh and the declarations the nodes run. */
    @Setup(Level.Trial)
    public void setUp() {
        mesh = SyntheticMesh.of(nodes);
        composition = Composer.compose(mesh);
        if (!composition.problems().isEmpty()) {
            throw new IllegalStateException("the synthetic mesh must compose: " + composition.problems().getFirst());
        }
        applied = Map.copyOf(composition.declarations().stream()
                .collect(Collectors.toMap(Declaration::node, Function.identity())));
    }

    /** A planner that has planned the mesh, and the mesh with one change it re-plans back and forth. */
    public abstract static class Replan {
        private final IncrementalPlanner planner = new IncrementalPlanner();
        private Mesh mesh;
        private Mesh changed;
        private IncrementalPlanner.Delta there;
        private Map<String, Declaration> applied;
        private boolean back;

        void setUp(PlanBenchmark plan, Mesh withChange) {
            mesh = plan.mesh;
            changed = withChange;
            there = SyntheticMesh.delta(mesh, changed);
            applied = plan.applied;
            planner.plan(mesh, applied, Map.of());
        }

        Planning next() {
            back = !back;
            return planner.plan(back ? changed : mesh, applied, Map.of(), back ? there : there.inverse());
        }

        Planning nextCompared() {
            back = !back;
            return planner.plan(back ? changed : mesh, applied, Map.of());
        }
    }

    /** Re-plans after one assignment (of a module that claims no seat) moved. */
    @State(Scope.Benchmark)
    public static class AssignmentMoved extends Replan {
        /** @param plan the mesh */
        @Setup(Level.Trial)
        public void setUp(PlanBenchmark plan) {
            setUp(plan, SyntheticMesh.withOneAssignmentChanged(plan.mesh));
        }
    }

    /** Re-plans after a mesh seat's holder moved. */
    @State(Scope.Benchmark)
    public static class HolderMoved extends Replan {
        /** @param plan the mesh */
        @Setup(Level.Trial)
        public void setUp(PlanBenchmark plan) {
            setUp(plan, SyntheticMesh.withSeatHolderMoved(plan.mesh));
        }
    }

    /** @return a plan of every node from nothing */
    @Benchmark
    public Planning fullPlan() {
        return Planner.plan(mesh, Map.of(), Map.of());
    }

    /**
     * @param replan the planner and the mesh with one assignment moved
     * @return a re-plan after one assignment moved (or moved back), against what the nodes run
     */
    @Benchmark
    public Planning replanOneAssignment(AssignmentMoved replan) {
        return replan.next();
    }

    /**
     * @param replan the planner and the mesh with one assignment moved
     * @return the same re-plan, the planner finding the moved assignment by comparing the lists
     */
    @Benchmark
    public Planning replanOneAssignmentCompared(AssignmentMoved replan) {
        return replan.nextCompared();
    }

    /**
     * @param replan the planner and the mesh with a mesh seat's holder moved
     * @return a re-plan after a mesh seat's holder moved (or moved back), against what the nodes run
     */
    @Benchmark
    public Planning replanSeatHolderMoved(HolderMoved replan) {
        return replan.next();
    }

    /** @return the floor: Jackson writing the declarations of the mesh */
    @Benchmark
    public byte[] writeDeclarations() {
        return mapper.writeValueAsBytes(composition.declarations());
    }
}
