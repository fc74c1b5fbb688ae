package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Delivery;
import dev.mesh.controller.mcp.McpException;
import dev.mesh.controller.mcp.Upstream;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A caller of the verbs over the broker (docs/design.md section 8), for {@code mesh-controller mcp} in a
 * mesh: each JSON-RPC message is published to the default exchange with routing key
 * {@code mesh-controller.verbs}, {@code reply_to} {@code amq.rabbitmq.reply-to}, a fresh
 * {@code correlation_id}, {@code user_id} the connection's user and a fresh {@code message_id} (so a
 * mutating verb is accepted, and runs once however often the broker redelivers it); the reply with
 * that correlation id is the answer.
 *
 * <p>Thread-safe: requests from several threads are in flight together, each matched to its reply.
 */
public final class BrokerUpstream implements Upstream {

    /** The queue the verbs are asked on. */
    public static final String VERBS = "mesh-controller.verbs";
    private static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";
    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    /** JSON-RPC's code for a message that is not JSON. */
    private static final int PARSE_ERROR = -32700;

    private final Broker broker;
    private final Channel channel;
    private final Duration timeout;
    private final ConcurrentMap<String, CompletableFuture<byte[]>> waiting = new ConcurrentHashMap<>();

    private BrokerUpstream(Broker broker, Channel channel, Duration timeout) {
        this.broker = broker;
        this.channel = channel;
        this.timeout = timeout;
    }

    /**
     * Connects to the broker and starts reading replies.
     *
     * @param settings where the broker is and who calls
     * @param timeout how long a request waits for its reply
     * @return the upstream
     * @throws BusException when the broker cannot be reached or refuses the user
     */
    public static BrokerUpstream connect(BrokerSettings settings, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        Broker broker = Broker.connect(settings, "mesh-controller-mcp");
        try {
            Channel channel = broker.connection().createChannel();
            BrokerUpstream upstream = new BrokerUpstream(broker, channel, timeout);
            channel.basicConsume(DIRECT_REPLY_TO, true, (tag, delivery) -> upstream.replied(delivery), tag -> { });
            return upstream;
        } catch (IOException | RuntimeException e) {
            broker.close();
            throw new BusException("cannot read replies from the broker at " + settings.where() + ": "
                    + Broker.reason(e) + "; check that the user may use the virtual host", e);
        }
    }

    @Override
    public Optional<JsonNode> exchange(JsonNode message) {
        Objects.requireNonNull(message, "message");
        boolean request = message.has("id") && !message.get("id").isNull();
        String correlation = UUID.randomUUID().toString();
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().replyTo(DIRECT_REPLY_TO)
                .correlationId(correlation).userId(broker.settings().user()).messageId(UUID.randomUUID().toString())
                .contentType("application/json").build();
        CompletableFuture<byte[]> reply = new CompletableFuture<>();
        if (request) {
            waiting.put(correlation, reply);
        }
        try {
            synchronized (channel) {
                channel.basicPublish("", VERBS, properties, MAPPER.writeValueAsBytes(message));
            }
            if (!request) {
                return Optional.empty();
            }
            return Optional.of(MAPPER.readTree(reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS)));
        } catch (IOException | RuntimeException e) {
            if (e instanceof JacksonException json) {
                throw McpException.protocol(PARSE_ERROR, "the answer from " + describe() + " is not JSON: "
                        + json.getOriginalMessage());
            }
            throw McpException.unreachable("cannot ask " + describe() + ": " + Broker.reason(e)
                    + "; check that the broker runs", e);
        } catch (TimeoutException e) {
            throw McpException.unreachable("no controller answered on " + describe() + " within "
                    + timeout.toSeconds() + " s; is a controller serving? (mesh-controller status, or its log)", e);
        } catch (ExecutionException e) {
            throw McpException.unreachable("cannot ask " + describe() + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw McpException.unreachable("interrupted while waiting for " + describe(), e);
        } finally {
            waiting.remove(correlation);
        }
    }

    @Override
    public String describe() {
        return "the queue " + VERBS + " at " + broker.settings().where();
    }

    @Override
    public void close() {
        broker.close();
    }

    private void replied(Delivery delivery) {
        String correlation = delivery.getProperties().getCorrelationId();
        CompletableFuture<byte[]> reply = correlation == null ? null : waiting.get(correlation);
        if (reply != null) {
            reply.complete(delivery.getBody());
        }
    }
}
