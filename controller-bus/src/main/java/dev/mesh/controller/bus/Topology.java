package dev.mesh.controller.bus;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's RabbitMQ topology, docs/design.md section 8, declared idempotently: every exchange and
 * queue durable, with the same arguments every time. Each declaration runs on a channel of its own, so
 * one the broker refuses (it closes the channel) does not keep the others from being checked; every
 * refusal is then told at once, one line each, naming the queue or exchange, the argument and the fix.
 *
 * <p>Stateless; thread-safe.
 */
public final class Topology {

    /** The verbs' requests: a quorum queue with a single active consumer. */
    public static final String VERBS = "mesh-controller.verbs";
    /** Hosts' and builders' reports: a quorum queue with a single active consumer. */
    public static final String REPORTS = "mesh-controller.reports";
    /** Where poison messages end: a fanout exchange and the quorum queue bound to it, both of this name. */
    public static final String DEAD = "mesh-controller.dead";
    /** Declarations to hosts: a direct exchange, routing key the node's name. */
    public static final String DECLARATIONS = "mesh.declarations";
    /** Build requests to builders: a direct exchange, routing key the artifact's {@code system}. */
    public static final String BUILDS = "mesh.builds";
    /** A host's queue is this followed by the node's name. */
    public static final String HOST_QUEUE_PREFIX = "mesh-host.";
    /**
     * A builder's queue is this followed by the artifact {@code system} it builds for, bound to {@link #BUILDS} with
     * that system: declared by the controller, so that a builder needs no permission to configure.
     */
    public static final String BUILDER_QUEUE_PREFIX = "mesh-builder.";
    /** How many times a message is delivered again before it is dead-lettered. */
    public static final int DELIVERY_LIMIT = 5;

    private static final int PRECONDITION_FAILED = 406;
    private static final int NOT_FOUND = 404;
    private static final Pattern INEQUIVALENT = Pattern.compile("inequivalent arg '([^']+)'");
    private static final Logger LOG = LoggerFactory.getLogger(Topology.class);

    private Topology() {
    }

    /** @return the arguments of {@link #VERBS} and {@link #REPORTS} */
    static Map<String, Object> controllerQueueArguments() {
        return Map.of("x-queue-type", "quorum", "x-single-active-consumer", true, "x-delivery-limit", DELIVERY_LIMIT,
                "x-dead-letter-exchange", DEAD);
    }

    private static Map<String, Object> quorum() {
        return Map.of("x-queue-type", "quorum");
    }

    /**
     * What {@link #declare} found and did.
     *
     * @param vhost the virtual host
     * @param created the queues and exchanges that did not exist and were declared, e.g.
     *     {@code queue mesh-controller.verbs}, in the order declared
     * @param found those that existed already, with the controller's arguments
     */
    public record Declared(String vhost, List<String> created, List<String> found) {

        /** Copies the lists. */
        public Declared {
            Objects.requireNonNull(vhost, "vhost");
            created = List.copyOf(created);
            found = List.copyOf(found);
        }

        /** @return how many queues and exchanges the topology has */
        public int size() {
            return created.size() + found.size();
        }
    }

    /**
     * Declares the controller's exchanges and queues, or finds them as declared before. Each is looked
     * for first (a passive declaration), so that what was there already is told apart from what is new.
     *
     * @param broker the connection to declare on
     * @return which queues and exchanges were created and which were found
     * @throws BusException when a queue or an exchange exists with other arguments (one line for each,
     *     with the fix), or the broker cannot be used
     */
    public static Declared declare(Broker broker) {
        Objects.requireNonNull(broker, "broker");
        Connection connection = broker.connection();
        List<String> refused = new ArrayList<>();
        List<String> created = new ArrayList<>();
        List<String> found = new ArrayList<>();
        declared(connection, "exchange", DEAD, c -> c.exchangeDeclarePassive(DEAD),
                c -> c.exchangeDeclare(DEAD, BuiltinExchangeType.FANOUT, true), created, found).ifPresent(refused::add);
        declared(connection, "queue", DEAD, c -> c.queueDeclarePassive(DEAD),
                c -> c.queueDeclare(DEAD, true, false, false, quorum()), created, found).ifPresent(refused::add);
        step(connection, "binding", DEAD, c -> c.queueBind(DEAD, DEAD, "")).ifPresent(refused::add);
        for (String queue : List.of(VERBS, REPORTS)) {
            declared(connection, "queue", queue, c -> c.queueDeclarePassive(queue),
                    c -> c.queueDeclare(queue, true, false, false, controllerQueueArguments()), created, found)
                    .ifPresent(refused::add);
        }
        for (String exchange : List.of(DECLARATIONS, BUILDS)) {
            declared(connection, "exchange", exchange, c -> c.exchangeDeclarePassive(exchange),
                    c -> c.exchangeDeclare(exchange, BuiltinExchangeType.DIRECT, true), created, found)
                    .ifPresent(refused::add);
        }
        if (!refused.isEmpty()) {
            throw new BusException("the broker's topology in virtual host " + broker.settings().vhost() + " differs "
                    + "from the controller's (" + refused.size() + (refused.size() == 1 ? " problem" : " problems")
                    + "):\n  " + String.join("\n  ", refused));
        }
        LOG.info("broker topology declared vhost={} queues={},{},{} created={}", broker.settings().vhost(), VERBS,
                REPORTS, DEAD, created.size());
        return new Declared(broker.settings().vhost(), created, found);
    }

    /**
     * How many messages wait in {@link #DEAD}, as the broker counts them (a passive declaration: no
     * management API, one round trip). Messages a consumer holds unacknowledged are not counted; the
     * controller consumes nothing from it.
     *
     * @param broker the connection to ask on
     * @return the number of ready messages in the dead-letter queue
     * @throws BusException when the queue does not exist or the broker cannot be asked
     */
    public static long deadLetters(Broker broker) {
        Objects.requireNonNull(broker, "broker");
        Channel channel = null;
        try {
            channel = broker.connection().createChannel();
            return channel.queueDeclarePassive(DEAD).getMessageCount();
        } catch (IOException | ShutdownSignalException e) {
            throw new BusException("cannot count the messages in queue " + DEAD + " in virtual host "
                    + broker.settings().vhost() + ": " + Broker.reason(e) + "; check that RabbitMQ runs and that the "
                    + "topology is declared (mesh-controller prepare)", e);
        } finally {
            Broker.abort(channel);
        }
    }

    /**
     * Declares one queue or exchange after looking for it, and adds {@code kind name} to {@code created}
     * or {@code found}.
     *
     * @return the broker's refusal, as {@link #step} gives it
     */
    private static Optional<String> declared(Connection connection, String kind, String name, Declaration passive,
            Declaration declaration, List<String> created, List<String> found) {
        boolean existed = exists(connection, kind, name, passive);
        Optional<String> refused = step(connection, kind, name, declaration);
        if (refused.isEmpty()) {
            (existed ? found : created).add(kind + " " + name);
        }
        return refused;
    }

    /** @return whether the passive declaration found it; the broker closes the channel when it did not */
    private static boolean exists(Connection connection, String kind, String name, Declaration passive) {
        Channel channel = null;
        try {
            channel = connection.createChannel();
            passive.on(channel);
            return true;
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException signal
                    && signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == NOT_FOUND) {
                return false;
            }
            throw new BusException("cannot look for " + kind + " " + name + " on the broker: " + Broker.reason(e)
                    + "; check that RabbitMQ runs and that the controller's user may use the virtual host", e);
        } catch (ShutdownSignalException e) {
            throw new BusException("cannot look for " + kind + " " + name + " on the broker: " + Broker.reason(e)
                    + "; the connection is closed: check that RabbitMQ runs, then declare again", e);
        } finally {
            Broker.abort(channel);
        }
    }

    /**
     * Declares a host's queue, {@code mesh-host.<node>}, bound to {@link #DECLARATIONS} with the node's
     * name, so that a declaration sent while the host is down waits for it.
     *
     * @param broker the connection to declare on
     * @param node the node's name
     * @return the queue's name
     * @throws IllegalArgumentException when {@code node} is blank
     * @throws BusException when the queue exists with other arguments, or the broker cannot be used
     */
    public static String declareHost(Broker broker, String node) {
        Objects.requireNonNull(node, "node");
        if (node.isBlank()) {
            throw new IllegalArgumentException("a host's queue needs a node name, not a blank one");
        }
        return declareBound(broker, DECLARATIONS, HOST_QUEUE_PREFIX + node, node, "the queue of node " + node);
    }

    /**
     * Declares a builder's queue, {@code mesh-builder.<system>}, bound to {@link #BUILDS} with the system, so that a
     * build order waits for a builder of that system rather than being returned.
     *
     * @param broker the connection to declare on
     * @param system the artifact system, e.g. {@code debian-12}
     * @return the queue's name
     * @throws IllegalArgumentException when {@code system} is blank
     * @throws BusException when the queue exists with other arguments, or the broker cannot be used
     */
    public static String declareBuilder(Broker broker, String system) {
        Objects.requireNonNull(system, "system");
        if (system.isBlank()) {
            throw new IllegalArgumentException("a builder's queue needs a system, not a blank one");
        }
        return declareBound(broker, BUILDS, BUILDER_QUEUE_PREFIX + system, system, "the build queue of system "
                + system);
    }

    /** Declares a direct exchange, a quorum queue and the binding between them with {@code key}. */
    private static String declareBound(Broker broker, String exchange, String queue, String key, String what) {
        Objects.requireNonNull(broker, "broker");
        Connection connection = broker.connection();
        List<String> refused = new ArrayList<>();
        step(connection, "exchange", exchange, c -> c.exchangeDeclare(exchange, BuiltinExchangeType.DIRECT,
                true)).ifPresent(refused::add);
        step(connection, "queue", queue, c -> c.queueDeclare(queue, true, false, false, quorum())).ifPresent(refused::add);
        if (refused.isEmpty()) {
            step(connection, "binding", queue, c -> c.queueBind(queue, exchange, key)).ifPresent(refused::add);
        }
        if (!refused.isEmpty()) {
            throw new BusException("cannot declare " + what + " in virtual host " + broker.settings().vhost()
                    + ":\n  " + String.join("\n  ", refused));
        }
        return queue;
    }

    /** One declaration on a channel of its own. */
    private interface Declaration {
        void on(Channel channel) throws IOException;
    }

    /** @return the broker's refusal of one declaration, as one line with the fix; empty when it was accepted */
    private static Optional<String> step(Connection connection, String kind, String name, Declaration declaration) {
        Channel channel = null;
        try {
            channel = connection.createChannel();
            declaration.on(channel);
            return Optional.empty();
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException signal
                    && signal.getReason() instanceof AMQP.Channel.Close close
                    && close.getReplyCode() == PRECONDITION_FAILED) {
                return Optional.of(refusal(kind, name, close.getReplyText()));
            }
            throw new BusException("cannot declare " + kind + " " + name + " on the broker: " + Broker.reason(e)
                    + "; check that RabbitMQ runs and that the controller's user may configure the virtual host", e);
        } catch (ShutdownSignalException e) {
            // The connection is closed (the client's AlreadyClosedException), e.g. while it recovers.
            throw new BusException("cannot declare " + kind + " " + name + " on the broker: " + Broker.reason(e)
                    + "; the connection is closed: check that RabbitMQ runs, then declare again", e);
        } finally {
            // A refused declaration closed the channel already; abort does nothing to a closed one.
            Broker.abort(channel);
        }
    }

    /** @return what the broker refused and the fix, from its reply text, e.g. "inequivalent arg 'x-delivery-limit' …" */
    static String refusal(String kind, String name, String replyText) {
        Matcher matcher = INEQUIVALENT.matcher(replyText);
        String argument = matcher.find() ? "its " + matcher.group(1) : "one of them";
        return kind + " " + name + " exists with other arguments: " + argument + " differs from the controller's "
                + "(the broker says: " + replyText + "); delete the " + kind + ", or migrate it, then start again";
    }
}
