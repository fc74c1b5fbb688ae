package dev.mesh.controller.bus;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a broker user may do in the mesh's virtual host: RabbitMQ's three permissions, each a regular expression
 * over the names of queues and exchanges — {@code configure} (declare, delete), {@code write} (publish to an
 * exchange, bind to a queue) and {@code read} (consume a queue, bind from an exchange). The controller gives each
 * principal exactly what its roles need (docs/security.md):
 * <ul>
 *   <li>every principal publishes its verb requests and reports to the default exchange ({@code amq.default}),
 *       with its own {@code user_id}, and gets its replies on {@code amq.rabbitmq.reply-to}, which needs no
 *       permission;</li>
 *   <li>a host also reads its own queue {@code mesh-host.<node>};</li>
 *   <li>a builder (a principal granted {@code build}) also reads the build queues {@code mesh-builder.<system>}
 *       that the controller declares.</li>
 * </ul>
 * Nobody but the controller configures anything, and nobody but the controller writes to {@code mesh.declarations}
 * or {@code mesh.builds}.
 *
 * @param configure the names it may declare and delete
 * @param write the names it may publish to or bind to
 * @param read the names it may consume or bind from
 */
public record Access(String configure, String write, String read) {

    /** Matches no name. */
    static final String NOTHING = "^$";
    /** The default exchange, as permissions name it. */
    static final String DEFAULT_EXCHANGE = "^amq\\.default$";

    /** @throws NullPointerException when a part is {@code null} */
    public Access {
        Objects.requireNonNull(configure, "configure");
        Objects.requireNonNull(write, "write");
        Objects.requireNonNull(read, "read");
    }

    /**
     * @param principal the principal's name, which is its broker user's (and, for a host, its node's)
     * @param host whether it is a node's host (a node of that name is in the inventory)
     * @param builder whether it builds (is granted {@code build})
     * @return what those roles may do, and nothing more
     */
    public static Access of(String principal, boolean host, boolean builder) {
        Objects.requireNonNull(principal, "principal");
        List<String> reads = new ArrayList<>();
        if (host) {
            reads.add(literal(Topology.HOST_QUEUE_PREFIX + principal));
        }
        if (builder) {
            reads.add(literal(Topology.BUILDER_QUEUE_PREFIX) + ".+");
        }
        String read = reads.isEmpty() ? NOTHING : "^(" + String.join("|", reads) + ")$";
        return new Access(NOTHING, DEFAULT_EXCHANGE, read);
    }

    /**
     * @return whether this is shaped as {@link #of} makes them: configure nothing, write the default exchange alone.
     *     A user with such permissions who is no longer a principal had them from the controller, and loses them.
     */
    boolean setByController() {
        return configure.equals(NOTHING) && write.equals(DEFAULT_EXCHANGE);
    }

    /** @return {@code text} as a regular expression matching exactly it: every character but a letter or digit escaped */
    static String literal(String text) {
        StringBuilder pattern = new StringBuilder(text.length() * 2);
        text.codePoints().forEach(c -> {
            if (c < 128 && !Character.isLetterOrDigit(c)) {
                pattern.append('\\');
            }
            pattern.appendCodePoint(c);
        });
        return pattern.toString();
    }
}
