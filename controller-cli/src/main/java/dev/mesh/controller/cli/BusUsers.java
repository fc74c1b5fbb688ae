package dev.mesh.controller.cli;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.mindrot.jbcrypt.BCrypt;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who may do what on the mesh's bus (docs/security.md, "The bus"), as genesis writes it: one NATS user per node,
 * named like it, that may publish only {@code mesh.nodes.<node>.facts} and subscribe to nothing, and the
 * controller's user, {@value #CONTROLLER}, that may subscribe to every node's facts and publish the events. Each
 * user's password is new, random (192 bits from {@link SecureRandom}), and known only to its credentials file;
 * the server's {@linkplain #authorization() authorization block} holds their bcrypt hashes, the form
 * {@code nats-server} 2.9 compares a password with, so the bus's configuration gives away no password.
 */
final class BusUsers {

    /** The controller's user on the bus. */
    static final String CONTROLLER = "mesh-controller";
    /** The bcrypt cost: {@code nats server passwd}'s default. */
    static final int COST = 11;

    /** What NATS takes as one subject token, and the inventory's grammar of a node's name. */
    private static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One user.
     *
     * @param name the user's name: a node's, or {@value #CONTROLLER}
     * @param password the password, in the clear: for the credentials file alone
     * @param hash its bcrypt hash, for the server
     * @param publish the subjects it may publish to
     * @param subscribe the subjects it may subscribe to; none: every subscription is denied
     */
    record User(String name, String password, String hash, List<String> publish, List<String> subscribe) {

        @Override
        public String toString() {
            return "User[" + name + "]"; // never the password
        }
    }

    private final List<User> users;

    private BusUsers(List<User> users) {
        this.users = List.copyOf(users);
    }

    /**
     * New users for the controller and for each node, with new passwords.
     *
     * @param nodes the mesh's nodes
     * @param random where the passwords come from
     * @return the users, the controller's first, then the nodes' in the order given
     * @throws IllegalArgumentException when a node's name is not a NATS subject token of the inventory's grammar,
     *     or is {@value #CONTROLLER}
     */
    static BusUsers generate(Collection<String> nodes, SecureRandom random) {
        Objects.requireNonNull(random, "random");
        List<User> users = new ArrayList<>();
        users.add(user(CONTROLLER, random, List.of("mesh.events.>"), List.of("mesh.nodes.*.facts")));
        for (String node : nodes) {
            if (!NODE.matcher(node).matches()) {
                throw new IllegalArgumentException("the node \"" + node + "\" cannot be a bus user: a node's name is "
                        + "a letter or digit, then up to 62 letters, digits, '-' or '_'");
            }
            if (node.equals(CONTROLLER)) {
                throw new IllegalArgumentException("a node may not be named " + CONTROLLER + ": that is the "
                        + "controller's user on the bus; rename the node");
            }
            users.add(user(node, random, List.of("mesh.nodes." + node + ".facts"), List.of()));
        }
        return new BusUsers(users);
    }

    private static User user(String name, SecureRandom random, List<String> publish, List<String> subscribe) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return new User(name, password, BCrypt.hashpw(password, BCrypt.gensalt(COST, random)), publish, subscribe);
    }

    /** @return every user, the controller's first */
    List<User> users() {
        return users;
    }

    /**
     * The server's half: an {@code authorization} block for {@code nats-server}'s configuration, to
     * {@code include} from it (docs/genesis.md). It holds no password, only their hashes.
     *
     * @return the block, UTF-8
     */
    byte[] authorization() {
        StringBuilder text = new StringBuilder();
        text.append("# Who may do what on the mesh's bus, written by mesh-controller genesis (docs/security.md):\n");
        text.append("# every node publishes its own facts only; the controller reads them and publishes the events.\n");
        text.append("# Passwords are bcrypt hashes; each user's password is in credentials/<user>.json.\n");
        text.append("authorization {\n  users = [\n");
        for (User user : users) {
            text.append("    {user: ").append(quoted(user.name())).append(", password: ").append(quoted(user.hash()))
                    .append(", permissions: {publish: {allow: ").append(list(user.publish())).append("}, subscribe: ")
                    .append(user.subscribe().isEmpty() ? "{deny: [\">\"]}" : "{allow: " + list(user.subscribe()) + "}")
                    .append("}}\n");
        }
        text.append("  ]\n}\n");
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A user's half: its credentials in the form of {@code MESH_BUS_NATS_FILE} (docs/cli.md), for the secret that
     * the controller's or the node's host process reads.
     *
     * @param user one of {@link #users()}
     * @param url the bus's URL, when known
     * @return the JSON file, UTF-8
     */
    static byte[] credentials(User user, Optional<String> url) {
        ObjectNode file = JSON.createObjectNode();
        url.ifPresent(u -> file.put("url", u));
        file.put("user", user.name());
        file.put("password", user.password());
        return (JSON.writerWithDefaultPrettyPrinter().writeValueAsString(file) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static String list(List<String> subjects) {
        return "[" + String.join(", ", subjects.stream().map(BusUsers::quoted).toList()) + "]";
    }

    /** A NATS configuration string: the names, subjects and hashes here hold no quote or backslash. */
    private static String quoted(String value) {
        return "\"" + value + "\"";
    }
}
