package dev.mesh.controller.handover;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The protocol of docs/design.md section 10, offline: two or three controllers, each the real
 * {@link Handover} on the real {@link ControllerLifecycle} and a shared in-memory plan lock, driven through
 * random sequences of start, SIGTERM, crash, freeze, thaw, lock loss, message arrival, plan work
 * and time passing against the {@link World}'s broker, lock sessions and fenced store. After every
 * step: at most one controller plans, and no write with a stale epoch is accepted. At the end the
 * faults stop, and every message is answered within {@link World#BOUND} ticks.
 *
 * <p>A command on one controller carries a pick: it acts on the pick-th (modulo their number) living
 * controller it applies to, chosen when it runs, and does nothing when none does; a command on the
 * world does nothing when it does not apply (a start with every controller running). So removing a
 * command never makes a sequence invalid, and a shrunk counterexample reads as the list of actions.
 */
class HandoverProperties {

    /**
     * How many lives: more than the 400 a generator that redraws an inapplicable action needs, since here about
     * a third of the commands do nothing; with 1,000 the lives where a late write is refused by the epoch are
     * about as many as before.
     */
    private static final int EXAMPLES = 1_000;
    private static final int MAX_COMMANDS = 80;
    /**
     * QuickTheories shrinks a list by its length, so from its end, and each value drawn towards its simplest: for a
     * command in the middle to be dropped, each is drawn in a slot whose presence shrinks to absent. One slot in
     * this many is generated empty.
     */
    private static final int SLOT_ABSENT_ONE_IN = 100;
    /** The picks of the commands on one controller: at most three controllers live at once. */
    private static final Gen<Integer> PICKS = integers().between(0, 2);

    @Test
    void oneplanner_noStaleWrite_andEveryMessageAnsweredOnceTheFaultsStop() {
        qt().withExamples(EXAMPLES).forAll(lives()).checkAssert(HandoverProperties::live);
    }

    /** Two or three controllers started, then up to {@link #MAX_COMMANDS} commands, weighted. */
    private static Gen<Life> lives() {
        Gen<Command> command = Generate.frequency(List.of(
                onWorld(3, "message arrives", world -> true, World::publish),
                onWorld(4, "time passes", world -> true, World::tick),
                onWorld(1, "start", world -> world.alive().size() < world.size, World::start),
                onController(8, "work", c -> !c.frozen && (c.inflight != null || !c.seat.held.isEmpty()), World::work),
                onController(1, "freeze", c -> !c.frozen, World::freeze),
                onController(2, "thaw", c -> c.frozen, World::thaw),
                onController(1, "crash", c -> true, World::crash),
                onController(1, "SIGTERM", c -> !c.frozen, World::terminate),
                onController(1, "lose lock", c -> c.lock.tenure().isPresent(), World::loseLock)));
        Gen<Optional<Command>> slot = integers().between(0, SLOT_ABSENT_ONE_IN - 1)
                .zip(command, (presence, drawn) -> presence == 0 ? Optional.<Command>empty() : Optional.of(drawn));
        Gen<List<Command>> commands = lists().of(slot).ofSizeBetween(0, MAX_COMMANDS)
                .map(slots -> slots.stream().flatMap(Optional::stream).toList());
        return integers().between(2, 3).zip(commands, Life::new);
    }

    /**
     * Runs the life, checking the invariants after every step and, at the end, that every message is answered
     * once the faults stop; a failure names the step and the steps so far, as they ran.
     */
    private static void live(Life life) {
        World world = new World(life.size());
        List<String> steps = new ArrayList<>();
        String at = "once " + life.size() + " controllers started";
        try {
            world.atMostOnePlanner();
            world.noStaleWrite();
            for (Command command : life.commands()) {
                at = "at step " + (steps.size() + 1) + ", " + command;
                steps.add(command.applyTo(world));
                world.atMostOnePlanner();
                world.noStaleWrite();
            }
            at = "once the faults stopped";
            world.quiesce();
        } catch (AssertionError | RuntimeException broken) {
            throw new AssertionError("broken " + at + ", with " + life.size() + " controllers started then " + steps
                    + ": " + broken.getMessage(), broken);
        }
    }

    /** {@code act} on the world when {@code when} allows. It draws a pick too: every command draws alike. */
    private static Pair<Integer, Gen<Command>> onWorld(int weight, String what, Predicate<World> when,
            Consumer<World> act) {
        return Pair.of(weight, PICKS.map(pick -> new OnWorld(what, when, act)));
    }

    /** {@code act} on one living controller that {@code when} allows, chosen by a pick. */
    private static Pair<Integer, Gen<Command>> onController(int weight, String what,
            Predicate<World.Controller> when, BiConsumer<World, World.Controller> act) {
        return Pair.of(weight, PICKS.map(pick -> new OnController(what, when, act, pick)));
    }

    /** {@code size} controllers started, then the commands, one by one. */
    private record Life(int size, List<Command> commands) {

        @Override
        public String toString() {
            return size + " controllers started, then " + commands;
        }
    }

    /** One step of a life. */
    private sealed interface Command {

        /** Applies this command to the world: what it did, naming the controller it acted on. */
        String applyTo(World world);
    }

    /** An action on the world, when {@code when} allows it; nothing otherwise. */
    private record OnWorld(String what, Predicate<World> when, Consumer<World> act) implements Command {

        @Override
        public String applyTo(World world) {
            if (!when.test(world)) {
                return what + " (not now)";
            }
            act.accept(world);
            return what;
        }

        @Override
        public String toString() {
            return what;
        }
    }

    /**
     * An action on the {@code pick}-th (modulo their number) living controller that {@code when} allows, in the
     * order they started; nothing when none does.
     */
    private record OnController(String what, Predicate<World.Controller> when, BiConsumer<World, World.Controller> act,
            int pick) implements Command {

        @Override
        public String applyTo(World world) {
            List<World.Controller> eligible = world.alive().stream().filter(when).toList();
            if (eligible.isEmpty()) {
                return this + " (none may)";
            }
            World.Controller controller = eligible.get(pick % eligible.size());
            act.accept(world, controller);
            return what + " " + controller.name;
        }

        @Override
        public String toString() {
            return what + " #" + pick;
        }
    }
}
