package dev.mesh.controller.launcher;

import dev.mesh.controller.bus.BrokerAddress;
import dev.mesh.controller.bus.BrokerManagement;
import dev.mesh.controller.bus.BusVariables;
import dev.mesh.controller.bus.NatsAddress;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.core.settings.Variables;
import dev.mesh.controller.handover.HandoverSettings;
import dev.mesh.controller.handover.HandoverVariables;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.Endpoint;
import dev.mesh.controller.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;


/**
 * What the commands read from the environment (docs/design.md section 11), put together from what each part
 * reads: the store's databases ({@link Stores}), the broker and the bus ({@link BusVariables}), the handover's
 * timings ({@link HandoverVariables}), and here {@code serve}'s own {@code MESH_GENESIS_FILE} and
 * {@code MESH_READY_FILE}. Each command asks for what it needs — {@link #forServe}, {@link #forPrepare},
 * {@link #forMcp}, {@link #forIdentity} — and gets every problem of that at once, one line each naming the
 * variable, the file and the fix, before it connects to anything (docs/cli.md lists the variables).
 *
 * <p>No secret appears in a message or in a {@code toString()}. A credentials file that group or
 * others may read is no problem but a warning, once per file, naming it and {@code chmod 600 FILE}.
 * Stateless and thread-safe.
 */
final class Config {

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
        Stores stores = Stores.read(variables);
        BrokerAddress broker = BusVariables.broker(variables);
        Optional<Path> certificate = BusVariables.certificate(variables, broker);
        Optional<BrokerManagement> management = BusVariables.management(variables);
        NatsAddress nats = BusVariables.nats(variables);
        Optional<Path> genesis = genesis(variables);
        Optional<Path> ready = ready(variables);
        HandoverSettings timings = HandoverVariables.read(variables, env, handover);
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
        Stores stores = Stores.read(variables);
        BrokerAddress broker = BusVariables.broker(variables);
        Optional<Path> certificate = BusVariables.certificate(variables, broker);
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
        if (!BusVariables.brokerGiven(variables)) {
            return Optional.empty();
        }
        BrokerAddress broker = BusVariables.broker(variables);
        Optional<Path> certificate = BusVariables.certificate(variables, broker);
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
        Endpoint identity = Stores.endpoint(Database.IDENTITY, variables);
        return variables.check(() -> new IdentityStore(identity, variables.warnings()));
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
}
