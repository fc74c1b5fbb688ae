package dev.mesh.controller.bus;

import dev.mesh.controller.core.FeedPolicy;

/**
 * What the handover is told about the broker's single active consumer of {@link Topology#VERBS} (docs/design.md
 * section 10): whether it feeds this controller. RabbitMQ 3.10 does not tell a consumer that it became the
 * active one, so {@link BrokerVerbs} finds out from what arrives: every controller publishes a tick to the
 * verbs' queue every tick period ({@link FeedPolicy#tick()}), and only the active consumer receives ticks and
 * verbs; what the deliveries mean is the policy's (the handover's rule).
 *
 * <p>Called on a thread of the transport's own (never the consumer's), one call at a time, strictly
 * alternating: {@link #fed()} first, then {@link #starved()}, then {@link #fed()} again, and so on ({@link
 * #stillFed()} only in between, after {@link #fed()}). A listener
 * may block (take the plan lock, say): the verbs keep being served meanwhile, and what happens in between is
 * told after it returns, in order.
 */
public interface Feeding {

    /**
     * The broker feeds this controller now: a tick or a verb arrived on the verbs' queue while it was not
     * believed fed. Within a tick period ({@link FeedPolicy#tick()}) of the broker promoting it, plus a delivery's way.
     */
    void fed();

    /**
     * Still fed: told every tick period ({@link FeedPolicy#tick()}) between {@link #fed()} and
     * {@link #starved()}, in order with them, so that a listener whose {@link #fed()} could not act (the plan lock still held by the
     * previous active controller) tries again. Does nothing unless overridden.
     */
    default void stillFed() {
    }

    /**
     * No longer: nothing arrived for as long as the policy allows ({@link FeedPolicy#look()}) while no
     * delivery was being handled (the connection or channel lost, the consumer cancelled, another consumer promoted), or the
     * transport stopped consuming ({@link BrokerVerbs#stopConsuming()}, {@link BrokerVerbs#close()}).
     */
    void starved();
}
