package dev.mesh.controller.simhost;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local lab: starts simulated hosts (and optionally builders) until Ctrl-C.
 *
 * <pre>
 * java -cp … dev.mesh.controller.simhost.Lab --nodes n1,n2,n3 --broker 127.0.0.1:5672 --vhost / \
 *     --nats nats://127.0.0.1:4222 [--password P | --user U --password P] [--system debian-12] \
 *     [--prefix it.] [--interval 5s] [--apply 1s] [--builders debian-12,arch --builder-user B --builder-password P] \
 *     [--bus-credentials DIR]
 * </pre>
 *
 * Each host connects as the broker user named like its node (password {@code --password}, by default the
 * node's name), because the controller accepts a host's report only from the node's own principal.
 * {@code --user} makes every host connect as that one user: the broker is then happy, the controller
 * rejects the reports of every node but the one named like the user. Node {@code i} (from 1) reports the
 * address {@code 10.0.0.i}. With {@code --bus-credentials DIR} (genesis's {@code bus/credentials}), each host
 * connects to NATS as the user of {@code DIR/<node>.json}, as a host on a bus with authorization does.
 */
public final class Lab {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static final String USAGE = """
            usage: Lab --nodes N1,N2,… --broker HOST:PORT --vhost VHOST --nats nats://HOST:PORT
                       [--password P | --user U --password P] [--system SYSTEM] [--prefix PREFIX.]
                       [--interval 5s] [--apply 1s] [--builders SYSTEM,… --builder-user U --builder-password P]
                       [--bus-credentials DIR]""";

    private static final List<String> FLAGS = List.of("--nodes", "--broker", "--vhost", "--nats", "--user",
            "--password", "--system", "--prefix", "--interval", "--apply", "--builders", "--builder-user",
            "--builder-password", "--controller", "--bus-credentials");

    private Lab() {
    }

    /**
     * What the lab starts, read from the command line.
     *
     * @param hosts    one per node
     * @param builders one per builder system; empty when none
     */
    record Plan(List<HostSettings> hosts, List<String> builders, BrokerSettings builderBroker) {
        Plan {
            hosts = List.copyOf(hosts);
            builders = List.copyOf(builders);
        }
    }

    /** Starts what the arguments say, then waits for Ctrl-C; a usage error exits 2 with the usage. */
    public static void main(String[] args) throws InterruptedException {
        Plan plan;
        try {
            plan = parse(Arrays.asList(args));
        } catch (IllegalArgumentException e) {
            System.err.println("Lab: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        List<Runnable> running = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeAll(running);
            done.countDown();
        }, "lab-shutdown"));
        PrintStream out = System.out;
        try {
            for (HostSettings host : plan.hosts()) {
                synchronized (running) {
                    running.add(SimulatedHost.open(host)::close);
                }
                out.println("lab host started node=" + host.node() + " user=" + host.broker().user() + " facts="
                        + host.nats().subjectPrefix() + "mesh.nodes." + host.node() + ".facts every " + host.factsInterval());
            }
            for (String system : plan.builders()) {
                synchronized (running) {
                    running.add(SimulatedBuilder.open(system, plan.builderBroker())::close);
                }
                out.println("lab builder started system=" + system + " user=" + plan.builderBroker().user());
            }
        } catch (SimulationException e) {
            System.err.println("Lab: " + e.getMessage());
            closeAll(running);
            System.exit(1);
        }
        out.println("lab running; Ctrl-C stops it");
        done.await();
    }

    private static void closeAll(List<Runnable> running) {
        synchronized (running) {
            running.reversed().forEach(Runnable::run);
            running.clear();
        }
    }

    /**
     * Reads the command line.
     *
     * @throws IllegalArgumentException naming the flag and the value at fault, one problem at a time
     */
    static Plan parse(List<String> args) {
        Map<String, String> flags = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            String flag = args.get(i);
            if (!FLAGS.contains(flag)) {
                throw new IllegalArgumentException("unknown argument \"" + flag + "\"");
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            if (flags.put(flag, args.get(i + 1)) != null) {
                throw new IllegalArgumentException(flag + " is given twice");
            }
        }
        List<String> nodes = list(required(flags, "--nodes"));
        String[] broker = required(flags, "--broker").split(":", -1);
        if (broker.length != 2) {
            throw new IllegalArgumentException("--broker \"" + flags.get("--broker") + "\" is not HOST:PORT");
        }
        int port = number("--broker", broker[1]);
        String vhost = required(flags, "--vhost");
        NatsSettings nats = new NatsSettings(required(flags, "--nats"), flags.getOrDefault("--prefix", ""));
        Duration interval = duration("--interval", flags.getOrDefault("--interval", "5s"));
        Duration apply = duration("--apply", flags.getOrDefault("--apply", "1s"));
        String system = flags.getOrDefault("--system", "debian-12");
        String controller = flags.getOrDefault("--controller", "guest");
        String user = flags.get("--user");
        if (user != null && !flags.containsKey("--password")) {
            throw new IllegalArgumentException("--user " + user + " needs --password");
        }
        List<HostSettings> hosts = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            BrokerSettings as = new BrokerSettings(broker[0], port, vhost, Objects.requireNonNullElse(user, node),
                    flags.getOrDefault("--password", node));
            NatsSettings bus = flags.containsKey("--bus-credentials")
                    ? busUser(nats, Path.of(flags.get("--bus-credentials")), node) : nats;
            hosts.add(HostSettings.of(node, "10.0.0." + (i + 1), system, as, bus, controller).withFactsInterval(interval)
                    .withApplyTime(apply));
        }
        List<String> builders = flags.containsKey("--builders") ? list(flags.get("--builders")) : List.of();
        BrokerSettings builderBroker = null;
        if (!builders.isEmpty()) {
            builderBroker = new BrokerSettings(broker[0], port, vhost, required(flags, "--builder-user"),
                    required(flags, "--builder-password"));
        }
        return new Plan(hosts, builders, builderBroker);
    }

    /** The node's bus user from genesis's credentials file {@code DIR/<node>.json}: its user and password. */
    private static NatsSettings busUser(NatsSettings nats, Path directory, String node) {
        Path file = directory.resolve(node + ".json");
        JsonNode credentials;
        try {
            credentials = JSON.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException("--bus-credentials: cannot read " + file + " (" + e.getOriginalMessage()
                    + "); give genesis's bus/credentials directory, which holds <node>.json for every node");
        }
        String user = credentials.path("user").asString("");
        String password = credentials.path("password").asString("");
        if (user.isEmpty() || password.isEmpty()) {
            throw new IllegalArgumentException("--bus-credentials: " + file + " has no \"user\" and \"password\"; "
                    + "it should be the file genesis wrote for " + node);
        }
        return nats.withUser(user, password);
    }

    private static String required(Map<String, String> flags, String flag) {
        String value = flags.get(flag);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(flag + " is missing");
        }
        return value;
    }

    private static List<String> list(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",", -1)) {
            if (item.isBlank() || items.contains(item.strip())) {
                throw new IllegalArgumentException("\"" + value + "\" is not a list of distinct names separated by ','");
            }
            items.add(item.strip());
        }
        return items;
    }

    private static int number(String flag, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" is not a port number", e);
        }
    }

    /** {@code 200ms}, {@code 5s}, or ISO-8601 ({@code PT5S}). */
    private static Duration duration(String flag, String text) {
        try {
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            }
            if (text.endsWith("s") && !text.startsWith("P")) {
                return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
            }
            return Duration.parse(text);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException(flag + ": \"" + text + "\" is not a duration such as 200ms, 5s or PT5S", e);
        }
    }
}
