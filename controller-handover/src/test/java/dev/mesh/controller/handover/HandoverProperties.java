package dev.mesh.controller.handover;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * The protocol of DESIGN.md section 10, offline: two or three controllers, each the real
 * {@link Handover} on the real {@code Lifecycle} and a shared in-memory plan lock, driven through
 * random interleavings of start, SIGTERM, crash, freeze, thaw, lock loss, message arrival, plan work
 * and time passing against the {@link World}'s broker, lock sessions and fenced store. After every
 * step: at most one controller plans, and no write with a stale epoch is accepted. At the end the
 * faults stop, and every message is answered within {@link World#BOUND} ticks.
 */
class HandoverProperties {

    @Property(tries = 400)
    void oneplanner_noStaleWrite_andEveryMessageAnsweredOnceTheFaultsStop(@ForAll("lives") ActionChain<World> chain) {
        World world = chain
                .withInvariant("at most one controller plans", World::atMostOnePlanner)
                .withInvariant("no write with a stale epoch is accepted", World::noStaleWrite)
                .run();
        Statistics.label("late writes refused by the epoch").collect(world.lateWritesRefused > 0);

        world.quiesce();
    }

    @Provide
    Arbitrary<ActionChain<World>> lives() {
        return Arbitraries.integers().between(2, 3).flatMap(size -> ActionChain.startWith(() -> new World(size))
                .withAction(3, Action.just("message arrives", world -> {
                    world.publish();
                    return world;
                }))
                .withAction(4, Action.just("time passes", world -> {
                    world.tick();
                    return world;
                }))
                .withAction(new Action.Independent<World>() {
                    @Override
                    public boolean precondition(World world) {
                        return world.alive().size() < world.size;
                    }

                    @Override
                    public Arbitrary<Transformer<World>> transformer() {
                        return Arbitraries.just(Transformer.mutate("start", World::start));
                    }
                })
                .withAction(8, on("work", c -> !c.frozen && (c.inflight != null || !c.seat.held.isEmpty()), World::work))
                .withAction(on("freeze", c -> !c.frozen, World::freeze))
                .withAction(2, on("thaw", c -> c.frozen, World::thaw))
                .withAction(on("crash", c -> true, World::crash))
                .withAction(on("SIGTERM", c -> !c.frozen, World::terminate))
                .withAction(on("lose lock", c -> c.lock.tenure().isPresent(), World::loseLock))
                .withMaxTransformations(80));
    }

    /** An action on one living controller that {@code when} allows, chosen by name (shrinking replays it). */
    private static Action.Dependent<World> on(String what, Predicate<World.Controller> when,
            BiConsumer<World, World.Controller> act) {
        return new Action.Dependent<>() {
            @Override
            public boolean precondition(World world) {
                return !eligible(world).isEmpty();
            }

            @Override
            public Arbitrary<Transformer<World>> transformer(World world) {
                return Arbitraries.of(eligible(world)).map(name -> Transformer.mutate(what + " " + name,
                        w -> w.named(name).filter(c -> c.alive && when.test(c)).ifPresent(c -> act.accept(w, c))));
            }

            private List<String> eligible(World world) {
                return world.alive().stream().filter(when).map(c -> c.name).toList();
            }
        };
    }
}
