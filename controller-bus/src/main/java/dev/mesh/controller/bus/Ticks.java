package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ticks a controller publishes to {@link Topology#VERBS} every tick period (its {@link dev.mesh.controller.core.FeedPolicy}), so that whichever
 * controller the broker's single active consumer feeds finds out within a period even when no verb arrives
 * (RabbitMQ 3.10 does not tell a consumer it became active). A tick: the default exchange, routing key
 * {@code mesh-controller.verbs}, property {@code type} {@value #TYPE}, header {@code instance} (the sender),
 * transient ({@code delivery_mode} 1), no {@code reply_to}, no {@code message_id}, body a JSON-RPC
 * notification. The consumer acknowledges it and does nothing else ({@link #is}).
 *
 * <p>Published on a channel of its own, reopened at the next tick when it failed; a failed tick is logged at
 * DEBUG. Not publisher-confirmed: a lost tick is replaced by the next.
 */
final class Ticks implements AutoCloseable {

    /** The AMQP {@code type} property of a tick. */
    static final String TYPE = "mesh-controller.tick";

    private static final Logger LOG = LoggerFactory.getLogger(Ticks.class);

    private final Broker broker;
    private final AMQP.BasicProperties properties;
    private final byte[] body;
    private final ScheduledExecutorService scheduler;
    private Channel channel;

    private Ticks(Broker broker, String instance, ScheduledExecutorService scheduler) {
        this.broker = broker;
        this.scheduler = scheduler;
        this.properties = new AMQP.BasicProperties.Builder().type(TYPE).deliveryMode(1)
                .headers(Map.of("instance", instance)).contentType("application/json").build();
        this.body = ("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/mesh-controller/tick\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Starts ticking at once, then every {@code periodMs}; {@code each} runs after every tick on the same
     * thread (the feed's check).
     */
    static Ticks start(Broker broker, String instance, long periodMs, Runnable each) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("mesh-tick").daemon().factory());
        Ticks ticks = new Ticks(broker, instance, scheduler);
        scheduler.scheduleAtFixedRate(() -> {
            ticks.tick();
            each.run();
        }, 0, periodMs, TimeUnit.MILLISECONDS);
        return ticks;
    }

    /** @return whether a delivery is a tick, which is acknowledged and nothing more */
    static boolean is(AMQP.BasicProperties properties) {
        return TYPE.equals(properties.getType());
    }

    private void tick() {
        try {
            if (channel == null || !channel.isOpen()) {
                Broker.abort(channel);
                channel = broker.connection().createChannel();
            }
            channel.basicPublish("", Topology.VERBS, false, properties, body);
        } catch (IOException | RuntimeException e) {
            LOG.debug("broker tick not published reason=\"{}\"", Broker.reason(e));
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Broker.abort(channel);
    }
}
