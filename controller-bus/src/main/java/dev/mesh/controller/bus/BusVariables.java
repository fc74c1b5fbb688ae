package dev.mesh.controller.bus;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The broker's and the bus's variables, each problem added to the {@link Variables} being read:
 *
 * <ul>
 *   <li>{@code MESH_BROKER_ADDRESS_FILE} (JSON {@code {"user","password","vhost"}}) and
 *       {@code MESH_BROKER_ADDRESS_PORT}: the broker's AMQP port, or its cluster members' separated by commas
 *       ({@link #broker});
 *   <li>{@code MESH_BROKER_CERTIFICATE}: optional, the PEM file of the CA the broker's certificate must chain
 *       to; without it the broker must be on loopback, plain AMQP ({@link #certificate});
 *   <li>{@code MESH_BROKER_MANAGEMENT_FILE} (JSON {@code {"user","password"}}) and
 *       {@code MESH_BROKER_MANAGEMENT_PORT}: optional, both or neither ({@link #management});
 *   <li>{@code MESH_BUS_NATS_FILE}: JSON {@code {"url", "user"?, "password"?, "token"?}}; a {@code "creds"} file
 *       (NKey) is refused, as the controller cannot sign with one ({@link #nats}).
 * </ul>
 *
 * <p>Each method returns {@code null} (or empty) after adding a problem; no line holds a secret. Stateless.
 */
public final class BusVariables {

    /** The broker's AMQP address. */
    private static final String BROKER_PORT = "MESH_BROKER_ADDRESS_PORT";
    /** The broker's login and vhost. */
    private static final String BROKER_FILE = "MESH_BROKER_ADDRESS_FILE";

    private static final Variables.Server BROKER = new Variables.Server("the broker's AMQP", 5671,
            "broker.mesh.internal");
    private static final Variables.Server MANAGEMENT = new Variables.Server("the broker's management API", 15671,
            "broker.mesh.internal");
    private static final Variables.Shape BROKER_SHAPE = new Variables.Shape(List.of("user", "password", "vhost"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\", \"vhost\": \"…\"}");
    private static final Variables.Shape MANAGEMENT_SHAPE = new Variables.Shape(List.of("user", "password"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\"}");
    private static final Variables.Shape NATS_SHAPE = new Variables.Shape(List.of("url"),
            List.of("user", "password", "token", "creds"), Set.of("password", "token"),
            "{\"url\": \"nats://127.0.0.1:4222\", \"user\": \"…\", \"password\": \"…\"} or {\"url\": \"…\", "
                    + "\"token\": \"…\"}");

    private BusVariables() {
    }

    /**
     * @param variables the environment being read
     * @return whether either of the broker's address variables is set: a mesh, not a development machine
     */
    public static boolean brokerGiven(Variables variables) {
        return variables.isSet(BROKER_FILE) || variables.isSet(BROKER_PORT);
    }

    /**
     * @param variables the environment being read
     * @return the broker's address and login, or {@code null} after a problem
     */
    public static BrokerAddress broker(Variables variables) {
        List<Variables.Address> addresses = variables.addresses(BROKER_PORT, BROKER);
        JsonNode credentials = variables.file(BROKER_FILE, BROKER_SHAPE, json -> List.of());
        if (addresses == null || credentials == null) {
            return null;
        }
        return new BrokerAddress(addresses, text(credentials, "vhost"), text(credentials, "user"),
                Secret.of(text(credentials, "password")));
    }

    /**
     * The CA file when {@code MESH_BROKER_CERTIFICATE} is set: it must hold an X.509 certificate. When it is not
     * set the connection is plain AMQP, which carries the password in the clear: only a broker on loopback is
     * allowed then. A broker address that is wrong is reported on its own.
     *
     * @param variables the environment being read
     * @param broker the broker's address, {@code null} when it had a problem
     * @return the CA file; empty for plain AMQP
     */
    public static Optional<Path> certificate(Variables variables, BrokerAddress broker) {
        String variable = "MESH_BROKER_CERTIFICATE";
        String value = variables.value(variable);
        if (value == null) {
            Optional<Variables.Address> remote = broker == null ? Optional.empty() : broker.addresses().stream()
                    .filter(address -> !BrokerSettings.isLoopback(address.host())).findFirst();
            if (remote.isPresent()) {
                variables.problem(variable + " is not set and " + BROKER_PORT + (broker.addresses().size() == 1
                        ? "=" + remote.get().text() + " is" : " names " + remote.get().text() + ", which is")
                        + " not loopback: plain AMQP "
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
     * Both variables or neither: one alone is a problem, so that a typo never turns the API off silently.
     *
     * @param variables the environment being read
     * @return the management API, or empty when neither is set or after a problem
     */
    public static Optional<BrokerManagement> management(Variables variables) {
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
            credentials = variables.file(file, MANAGEMENT_SHAPE, json -> List.of());
        } else {
            variables.problem(file + " is not set, but " + port + " is; set it to the path of a JSON file "
                    + MANAGEMENT_SHAPE.fields() + " readable by this process, or unset " + port + " to run without "
                    + "the management API");
        }
        if (address == null || credentials == null) {
            return Optional.empty();
        }
        return Optional.of(new BrokerManagement(address.host(), address.port(), text(credentials, "user"),
                Secret.of(text(credentials, "password"))));
    }

    /**
     * @param variables the environment being read
     * @return where NATS is and the login, or {@code null} after a problem
     */
    public static NatsAddress nats(Variables variables) {
        JsonNode json = variables.file("MESH_BUS_NATS_FILE", NATS_SHAPE, BusVariables::natsRules);
        if (json == null) {
            return null;
        }
        // One server, or a cluster's separated by commas (the client tries them in turn), written without spaces.
        String url = String.join(",", Arrays.stream(text(json, "url").split(",")).map(String::strip).toList());
        return new NatsAddress(url, json.has("user") ? text(json, "user") : "",
                Secret.of(json.has("password") ? text(json, "password") : ""),
                Secret.of(json.has("token") ? text(json, "token") : ""));
    }

    /** What is wrong with a NATS file of the right shape; never a value but the URL's scheme. */
    private static List<String> natsRules(JsonNode json) {
        List<String> wrong = new ArrayList<>();
        String url = text(json, "url");
        List<String> servers = List.of(url.split(",", -1));
        for (String server : servers) {
            String problem = natsUrlProblem(server.strip(), servers.size());
            if (problem != null) {
                wrong.add(problem);
                break;
            }
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

    /**
     * @param server one server's URL
     * @param of how many the file names
     * @return what is wrong with it, without its value but for its scheme; {@code null} when nothing
     */
    private static String natsUrlProblem(String server, int of) {
        String which = of == 1 ? "\"url\"" : "a server of \"url\"";
        String shape = of == 1 ? "nats://host:port or tls://host:port"
                : "nats://host:port or tls://host:port (several separated by commas, e.g. "
                        + "nats://nats-1.mesh.internal:4222,nats://nats-2.mesh.internal:4222)";
        try {
            URI uri = new URI(server);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String path = uri.getRawPath();
            if (uri.getRawUserInfo() != null) {
                return which + " holds a user or password: give them as \"user\" and \"password\" (or \"token\")";
            } else if (!Set.of("nats", "tls").contains(scheme) || uri.getHost() == null || uri.getPort() == 0
                    || uri.getPort() > 65_535 || !(path == null || path.isEmpty() || path.equals("/"))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                return which + " is not " + shape;
            }
        } catch (URISyntaxException e) {
            return which + " is not " + shape;
        }
        return null;
    }

    private static String text(JsonNode json, String field) {
        return json.get(field).stringValue();
    }
}
