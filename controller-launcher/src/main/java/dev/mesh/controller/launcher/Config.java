package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.ConfigException;
import dev.mesh.controller.core.Secret;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * What the commands read from the environment (docs/design.md section 11), and the one place that reads
 * it. Each command asks for what it needs — {@link #forServe}, {@link #forPrepare},
 * {@link #forIdentity} — and gets every problem of that at once, one line each naming the variable,
 * the file and the fix, before it connects to anything:
 *
 * <ul>
 *   <li>{@code MESH_STORE_<NAME>_FILE} (JSON {@code {"user","password","database"}}) and
 *       {@code MESH_STORE_<NAME>_PORT} ({@code host:port}) for the {@code INVENTORY},
 *       {@code IDENTITY} and {@code LICENCES} databases;
 *   <li>{@code MESH_BROKER_ADDRESS_FILE} (JSON {@code {"user","password","vhost"}}) and
 *       {@code MESH_BROKER_ADDRESS_PORT}: the broker's AMQP port;
 *   <li>{@code MESH_BROKER_CERTIFICATE}: optional, the PEM file of the CA the broker's certificate
 *       must chain to; without it the broker must be on loopback (plain AMQP);
 *   <li>{@code MESH_BROKER_MANAGEMENT_FILE} (JSON {@code {"user","password"}}) and
 *       {@code MESH_BROKER_MANAGEMENT_PORT}: optional, both or neither;
 *   <li>{@code MESH_BUS_NATS_FILE}: JSON {@code {"url", "user"?, "password"?, "token"?}}; a
 *       {@code "creds"} file (NKey) is refused, as the controller cannot sign with one;
 *   <li>{@code MESH_GENESIS_FILE}: optional, the inventory {@code genesis} wrote, which the first active
 *       {@code serve} imports into an empty store;
 *   <li>{@code MESH_READY_FILE}: optional, set by the host: the file {@code serve} writes once it consumes
 *       the controller's queues (standing by or active), so that a host restarting it with overlap knows
 *       when to stop the old one (docs/upgrade.md).
 * </ul>
 *
 * <p>No secret appears in a message or in a {@code toString()}. A credentials file that group or
 * others may read is no problem but a warning, once per file, naming it and {@code chmod 600 FILE}.
 * Stateless and thread-safe.
 */
final class Config {

    private static final Variables.Server DATABASE = new Variables.Server("the database server's", 5432,
            "db.mesh.internal");
    private static final Variables.Server BROKER = new Variables.Server("the broker's AMQP", 5671,
            "broker.mesh.internal");
    private static final Variables.Server MANAGEMENT = new Variables.Server("the broker's management API", 15671,
            "broker.mesh.internal");
    private static final Variables.Shape STORE_FILE = new Variables.Shape(List.of("user", "password", "database"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\", \"database\": \"…\"}");
    private static final Variables.Shape BROKER_FILE = new Variables.Shape(List.of("user", "password", "vhost"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\", \"vhost\": \"…\"}");
    private static final Variables.Shape MANAGEMENT_FILE = new Variables.Shape(List.of("user", "password"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\"}");
    private static final Variables.Shape NATS_FILE = new Variables.Shape(List.of("url"),
            List.of("user", "password", "token", "creds"), Set.of("password", "token"),
            "{\"url\": \"nats://127.0.0.1:4222\", \"user\": \"…\", \"password\": \"…\"} or {\"url\": \"…\", "
                    + "\"token\": \"…\"}");

    private Config() {
    }

    /**
     * What {@code serve} (the mesh's controller) needs: all of it.
     *
     * @param stores the three databases
     * @param broker the broker's AMQP address and login
     * @param certificate the CA the broker's certificate must chain to; empty for plain AMQP on loopback
     * @param management the broker's management API, when it is configured
     * @param nats the bus
     * @param genesis the inventory {@code genesis} wrote, for the first active controller to import into an
     *     empty store; empty when {@code MESH_GENESIS_FILE} is not set. The file may not exist: nothing to import
     * @param ready where {@code serve} says it is ready, when a host asks ({@code MESH_READY_FILE})
     * @param handover the handover's timings: {@code MESH_HANDOVER_*} and {@code --handover}, over the defaults
     * @param warnings one line per credentials file readable by others, for standard error
     */
    record Serve(Stores stores, BrokerAddress broker, Optional<Path> certificate,
            Optional<BrokerManagement> management, NatsAddress nats, Optional<Path> genesis, Optional<Path> ready,
            HandoverSettings handover, List<String> warnings) {

        Serve {
            Objects.requireNonNull(handover, "handover");
            Objects.requireNonNull(ready, "ready");
            Objects.requireNonNull(stores, "stores");
            Objects.requireNonNull(broker, "broker");
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(management, "management");
            Objects.requireNonNull(nats, "nats");
            Objects.requireNonNull(genesis, "genesis");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * What {@code prepare} needs: the databases it migrates and the broker it declares the topology on.
     *
     * @param stores the three databases
     * @param broker the broker's AMQP address and login
     * @param certificate the CA the broker's certificate must chain to; empty for plain AMQP on loopback
     * @param warnings one line per credentials file readable by others, for standard error
     */
    record Prepare(Stores stores, BrokerAddress broker, Optional<Path> certificate, List<String> warnings) {

        Prepare {
            Objects.requireNonNull(stores, "stores");
            Objects.requireNonNull(broker, "broker");
            Objects.requireNonNull(certificate, "certificate");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * What {@code mcp} needs to forward over the broker: its address, as the controller's manifest gives it.
     *
     * @param broker the broker's AMQP address and login (the caller's principal is that user)
     * @param certificate the CA the broker's certificate must chain to; empty for plain AMQP on loopback
     * @param warnings one line per credentials file readable by others, for standard error
     */
    record Mcp(BrokerAddress broker, Optional<Path> certificate, List<String> warnings) {

        Mcp {
            Objects.requireNonNull(broker, "broker");
            Objects.requireNonNull(certificate, "certificate");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * What {@code grant}, {@code revoke} and {@code principals} need: the identity database.
     *
     * @param identity where it is and how to log in
     * @param warnings one line per credentials file readable by others, for standard error
     */
    record IdentityStore(Endpoint identity, List<String> warnings) {

        IdentityStore {
            Objects.requireNonNull(identity, "identity");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Reads and checks {@code serve}'s whole environment.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @return the settings
     * @throws ConfigException with one line per problem, when any setting is missing or malformed
     */
    static Serve forServe(Map<String, String> env) {
        return forServe(env, Map.of());
    }

    /**
     * Reads and checks {@code serve}'s whole environment, and its {@code --handover} options.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @param handover the {@code --handover NAME=VALUE} options given, each over its {@code MESH_HANDOVER_*}
     * @return the settings
     * @throws ConfigException with one line per problem, when any setting is missing or malformed, or the
     *     handover's timings do not hold together
     */
    static Serve forServe(Map<String, String> env, Map<String, String> handover) {
        Variables variables = new Variables(env);
        Stores stores = stores(variables);
        BrokerAddress broker = broker(variables);
        Optional<Path> certificate = certificate(variables, broker);
        Optional<BrokerManagement> management = management(variables);
        NatsAddress nats = nats(variables);
        Optional<Path> genesis = genesis(variables);
        Optional<Path> ready = ready(variables);
        HandoverSettings timings = handover(variables, env, handover);
        return variables.check(() -> new Serve(stores, broker, certificate, management, nats, genesis, ready,
                timings, variables.warnings()));
    }

    /**
     * Reads and checks what {@code prepare} needs: the store and the broker's address.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @return the settings
     * @throws ConfigException with one line per problem, when any of those is missing or malformed
     */
    static Prepare forPrepare(Map<String, String> env) {
        Variables variables = new Variables(env);
        Stores stores = stores(variables);
        BrokerAddress broker = broker(variables);
        Optional<Path> certificate = certificate(variables, broker);
        return variables.check(() -> new Prepare(stores, broker, certificate, variables.warnings()));
    }

    /**
     * Reads and checks what {@code mcp} needs to forward over the broker, when the broker's address is
     * given at all: {@code MESH_BROKER_ADDRESS_FILE} or {@code MESH_BROKER_ADDRESS_PORT} set means a mesh,
     * and then both must be right, and {@code MESH_BROKER_CERTIFICATE} too, as for {@code serve}.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @return the settings, or empty when neither broker address variable is set (dev mode: HTTP)
     * @throws ConfigException with one line per problem, when one is set but a setting is missing or malformed
     */
    static Optional<Mcp> forMcp(Map<String, String> env) {
        Variables variables = new Variables(env);
        if (!variables.isSet("MESH_BROKER_ADDRESS_FILE") && !variables.isSet("MESH_BROKER_ADDRESS_PORT")) {
            return Optional.empty();
        }
        BrokerAddress broker = broker(variables);
        Optional<Path> certificate = certificate(variables, broker);
        return Optional.of(variables.check(() -> new Mcp(broker, certificate, variables.warnings())));
    }

    /**
     * Reads and checks {@code MESH_STORE_IDENTITY_FILE} and {@code MESH_STORE_IDENTITY_PORT}.
     *
     * @param env the environment, e.g. {@link System#getenv()}
     * @return the settings
     * @throws ConfigException with one line per problem, when either is missing or malformed
     */
    static IdentityStore forIdentity(Map<String, String> env) {
        Variables variables = new Variables(env);
        Endpoint identity = endpoint(Database.IDENTITY, variables);
        return variables.check(() -> new IdentityStore(identity, variables.warnings()));
    }

    private static Stores stores(Variables variables) {
        Endpoint inventory = endpoint(Database.INVENTORY, variables);
        Endpoint identity = endpoint(Database.IDENTITY, variables);
        Endpoint licences = endpoint(Database.LICENCES, variables);
        return inventory == null || identity == null || licences == null ? null
                : new Stores(inventory, identity, licences);
    }

    private static Endpoint endpoint(Database database, Variables variables) {
        String prefix = "MESH_STORE_" + database.name();
        Variables.Address address = variables.address(prefix + "_PORT", DATABASE);
        JsonNode credentials = variables.file(prefix + "_FILE", STORE_FILE, json -> List.of());
        if (address == null || credentials == null) {
            return null;
        }
        return new Endpoint(address.host(), address.port(), text(credentials, "database"), text(credentials, "user"),
                Secret.of(text(credentials, "password")));
    }

    private static BrokerAddress broker(Variables variables) {
        Variables.Address address = variables.address("MESH_BROKER_ADDRESS_PORT", BROKER);
        JsonNode credentials = variables.file("MESH_BROKER_ADDRESS_FILE", BROKER_FILE, json -> List.of());
        if (address == null || credentials == null) {
            return null;
        }
        return new BrokerAddress(address.host(), address.port(), text(credentials, "vhost"), text(credentials, "user"),
                Secret.of(text(credentials, "password")));
    }

    /** Both variables or neither: one alone is a problem, so that a typo never turns the API off silently. */
    private static Optional<BrokerManagement> management(Variables variables) {
        String port = "MESH_BROKER_MANAGEMENT_PORT";
        String file = "MESH_BROKER_MANAGEMENT_FILE";
        if (!variables.isSet(port) && !variables.isSet(file)) {
            return Optional.empty();
        }
        Variables.Address address = null;
        JsonNode credentials = null;
        if (variables.isSet(port)) {
            address = variables.address(port, MANAGEMENT);
        } else {
            variables.problem(port + " is not set, but " + file + " is; set it to the broker's management API "
                    + "host:port, e.g. 127.0.0.1:" + MANAGEMENT.port() + ", or unset " + file + " to run without "
                    + "the management API");
        }
        if (variables.isSet(file)) {
            credentials = variables.file(file, MANAGEMENT_FILE, json -> List.of());
        } else {
            variables.problem(file + " is not set, but " + port + " is; set it to the path of a JSON file "
                    + MANAGEMENT_FILE.fields() + " readable by this process, or unset " + port + " to run without "
                    + "the management API");
        }
        if (address == null || credentials == null) {
            return Optional.empty();
        }
        return Optional.of(new BrokerManagement(address.host(), address.port(), text(credentials, "user"),
                Secret.of(text(credentials, "password"))));
    }

    /**
     * The CA file when {@code MESH_BROKER_CERTIFICATE} is set: it must hold an X.509 certificate.
     * When it is not set the connection is plain AMQP, which carries the password in the clear: only
     * a broker on loopback is allowed then. A broker address that is wrong is reported on its own.
     */
    private static Optional<Path> certificate(Variables variables, BrokerAddress broker) {
        String variable = "MESH_BROKER_CERTIFICATE";
        String value = variables.value(variable);
        if (value == null) {
            if (broker != null && !loopback(broker.host())) {
                variables.problem(variable + " is not set and MESH_BROKER_ADDRESS_PORT="
                        + new Variables.Address(broker.host(), broker.port()).text() + " is not loopback: plain AMQP "
                        + "is allowed only on loopback (127.0.0.0/8, ::1, localhost); set " + variable + " to the PEM "
                        + "file of the CA the broker's certificate chains to");
            }
            return Optional.empty();
        }
        Path file = Path.of(value);
        if (Files.isDirectory(file)) {
            variables.problem(variable + "=" + value + ": cannot read the file (it is a directory); give the PEM file "
                    + "of the CA the broker's certificate chains to");
            return Optional.of(file);
        }
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                variables.problem(variable + "=" + value + ": the file holds no certificate; give the PEM file of the "
                        + "CA the broker's certificate chains to (-----BEGIN CERTIFICATE----- …)");
            }
        } catch (IOException | SecurityException e) {
            variables.problem(variable + "=" + value + ": cannot read the file (" + Variables.why(file, e) + "); check "
                    + "the path and that this process may read it");
        } catch (CertificateException e) {
            variables.problem(variable + "=" + value + ": not an X.509 certificate in PEM (or DER); give the PEM file "
                    + "of the CA the broker's certificate chains to (-----BEGIN CERTIFICATE----- …)");
        }
        return Optional.of(file);
    }

    /**
     * {@code localhost}, or an IPv4 or IPv6 literal of loopback. A host name is never resolved:
     * nothing is looked up before the settings are checked, and a name that resolves to loopback
     * today may not tomorrow.
     */
    static boolean loopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!host.contains(":") && !host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            return false;
        }
        try {
            // A literal address: getByName parses it without a lookup.
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The prefix of the handover's variables: {@code MESH_HANDOVER_LEASE} for the setting {@code lease}. */
    static final String HANDOVER_PREFIX = "MESH_HANDOVER_";

    /** @return the variable of a handover setting: {@code lease-renewal} → {@code MESH_HANDOVER_LEASE_RENEWAL} */
    static String handoverVariable(String name) {
        return HANDOVER_PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * The handover's timings, optional each ({@link HandoverSettings#NAMES}): {@code MESH_HANDOVER_<NAME>} in
     * the environment, {@code --handover name=value} over it, the defaults under both. A variable or an option
     * of no such name is a problem (a typo would otherwise run the default silently), and so is a pair that
     * breaks a rule between them ({@link HandoverSettings#problems}), named as it was set.
     */
    private static HandoverSettings handover(Variables variables, Map<String, String> env,
            Map<String, String> options) {
        HandoverSettings settings = HandoverSettings.DEFAULTS;
        for (String variable : new TreeSet<>(env.keySet())) {
            if (variable.startsWith(HANDOVER_PREFIX) && HandoverSettings.NAMES.stream()
                    .noneMatch(name -> handoverVariable(name).equals(variable))) {
                variables.problem(variable + ": no handover setting has this name; they are "
                        + HandoverSettings.NAMES.stream().map(Config::handoverVariable).toList());
            }
        }
        options.keySet().stream().filter(name -> !HandoverSettings.NAMES.contains(name)).sorted()
                .forEach(name -> variables.problem("--handover " + name + ": no handover setting has this name; "
                        + "they are " + String.join(", ", HandoverSettings.NAMES)));
        boolean malformed = false;
        for (String name : HandoverSettings.NAMES) {
            String given = options.containsKey(name) ? options.get(name) : variables.value(handoverVariable(name));
            if (given == null) {
                continue;
            }
            try {
                settings = settings.with(name, given.strip());
            } catch (IllegalArgumentException e) {
                malformed = true;
                variables.problem(where(name, options) + "=" + given + ": " + e.getMessage());
            }
        }
        if (!malformed) {
            settings.problems(name -> where(name, options)).forEach(variables::problem);
        }
        return settings;
    }

    private static String where(String name, Map<String, String> options) {
        return options.containsKey(name) ? "--handover " + name : handoverVariable(name);
    }

    /**
     * {@code MESH_GENESIS_FILE}, optional: the inventory {@code genesis} wrote. A file that does not exist is no
     * problem (nothing to import: the host removed it, or this is not the first start); a directory is. The
     * file's content is read by {@code serve} itself, which reports its problems located in it.
     */
    private static Optional<Path> genesis(Variables variables) {
        String variable = "MESH_GENESIS_FILE";
        String value = variables.value(variable);
        if (value == null) {
            return Optional.empty();
        }
        Path file = Path.of(value);
        if (Files.isDirectory(file)) {
            variables.problem(variable + "=" + value + ": it is a directory; give the path of the inventory.json that "
                    + "mesh-controller genesis wrote, or unset " + variable);
        }
        return Optional.of(file);
    }

    /**
     * {@code MESH_READY_FILE}, optional, set by a host: where {@code serve} says it is ready. Its directory
     * must exist; the file itself is written by {@code serve}, replacing one that is there.
     */
    private static Optional<Path> ready(Variables variables) {
        String variable = "MESH_READY_FILE";
        String value = variables.value(variable);
        if (value == null) {
            return Optional.empty();
        }
        Path file = Path.of(value).toAbsolutePath();
        if (Files.isDirectory(file)) {
            variables.problem(variable + "=" + value + ": it is a directory; give the path of a file for serve to "
                    + "write once it is ready, or unset " + variable);
        } else if (file.getParent() == null || !Files.isDirectory(file.getParent())) {
            variables.problem(variable + "=" + value + ": its directory does not exist; create it, or unset "
                    + variable);
        }
        return Optional.of(file);
    }

    private static NatsAddress nats(Variables variables) {
        JsonNode json = variables.file("MESH_BUS_NATS_FILE", NATS_FILE, Config::natsRules);
        if (json == null) {
            return null;
        }
        return new NatsAddress(text(json, "url"), json.has("user") ? text(json, "user") : "",
                Secret.of(json.has("password") ? text(json, "password") : ""),
                Secret.of(json.has("token") ? text(json, "token") : ""));
    }

    /** What is wrong with a NATS file of the right shape; never a value but the URL's scheme. */
    private static List<String> natsRules(JsonNode json) {
        List<String> wrong = new ArrayList<>();
        String url = text(json, "url");
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getRawUserInfo() != null) {
                wrong.add("\"url\" holds a user or password: give them as \"user\" and \"password\" (or \"token\")");
            } else if (!Set.of("nats", "tls").contains(scheme) || uri.getHost() == null || uri.getPort() == 0
                    || uri.getPort() > 65_535 || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                wrong.add("\"url\" is not nats://host:port or tls://host:port");
            }
        } catch (URISyntaxException e) {
            wrong.add("\"url\" is not nats://host:port or tls://host:port");
        }
        if (json.has("user") && !json.has("password")) {
            wrong.add("\"user\" needs \"password\"");
        }
        if (json.has("password") && !json.has("user")) {
            wrong.add("\"password\" needs \"user\"");
        }
        if (json.has("token") && (json.has("user") || json.has("password"))) {
            wrong.add("\"token\" excludes \"user\" and \"password\": give one way to log in");
        }
        if (json.has("creds")) {
            wrong.add("\"creds\" (an NKey credentials file) is not supported: this controller cannot sign NATS's NKey "
                    + "challenge; log in with \"user\" and \"password\", or \"token\"");
        }
        return wrong;
    }

    private static String text(JsonNode json, String field) {
        return json.get(field).stringValue();
    }
}
