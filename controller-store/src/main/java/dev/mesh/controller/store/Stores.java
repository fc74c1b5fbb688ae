package dev.mesh.controller.store;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Where the store's three databases are and how to log in to each: {@code MESH_STORE_<NAME>_FILE} (JSON
 * {@code {"user","password","database"}}) and {@code MESH_STORE_<NAME>_PORT} ({@code host:port}, or a primary's
 * and its standbys' separated by commas) for the {@code INVENTORY}, {@code IDENTITY} and {@code LICENCES}
 * databases, read by {@link #read}. {@link Endpoint} masks the passwords.
 *
 * @param inventory the inventory database
 * @param identity the identity database
 * @param licences the licences database
 */
public record Stores(Endpoint inventory, Endpoint identity, Endpoint licences) {

    private static final Logger LOG = LoggerFactory.getLogger(Stores.class);
    private static final Variables.Server SERVER = new Variables.Server("the database server's", 5432,
            "db.mesh.internal");
    private static final Variables.Shape FILE = new Variables.Shape(List.of("user", "password", "database"),
            List.of(), Set.of("password"), "{\"user\": \"…\", \"password\": \"…\", \"database\": \"…\"}");

    public Stores {
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(licences, "licences");
    }

    /**
     * Reads the three databases' variables, each problem added to {@code variables}.
     *
     * @param variables the environment being read
     * @return the databases, or {@code null} when a variable had a problem
     */
    public static Stores read(Variables variables) {
        Endpoint inventory = endpoint(Database.INVENTORY, variables);
        Endpoint identity = endpoint(Database.IDENTITY, variables);
        Endpoint licences = endpoint(Database.LICENCES, variables);
        return inventory == null || identity == null || licences == null ? null
                : new Stores(inventory, identity, licences);
    }

    /**
     * Reads one database's variables, {@code MESH_STORE_<NAME>_FILE} and {@code _PORT}, each problem added to
     * {@code variables}.
     *
     * @param database which
     * @param variables the environment being read
     * @return where it is and how to log in, or {@code null} when a variable had a problem
     */
    public static Endpoint endpoint(Database database, Variables variables) {
        String prefix = "MESH_STORE_" + database.name();
        List<Variables.Address> servers = variables.addresses(prefix + "_PORT", SERVER);
        JsonNode credentials = variables.file(prefix + "_FILE", FILE, json -> List.of());
        if (servers == null || credentials == null) {
            return null;
        }
        return new Endpoint(servers, credentials.get("database").stringValue(),
                credentials.get("user").stringValue(), Secret.of(credentials.get("password").stringValue()));
    }

    /**
     * @param database one of the three
     * @return where it is and how to log in
     */
    public Endpoint endpoint(Database database) {
        return switch (database) {
            case INVENTORY -> inventory;
            case IDENTITY -> identity;
            case LICENCES -> licences;
        };
    }

    /**
     * Checks that each database's schema is one this controller runs on ({@link Migrations#requireUpToDate}),
     * logging a schema a newer version migrated and this one is compatible with.
     *
     * @throws StoreException when a database cannot be reached, or its schema is behind or needs a newer
     *     controller
     */
    public void requireUpToDate() {
        for (Database database : Database.values()) {
            SchemaStatus schema = Migrations.of(database, endpoint(database).dataSource()).requireUpToDate();
            if (schema.ahead()) {
                LOG.info("schema newer than this controller, compatible database={} at={} carried={}",
                        database.label(), schema.current(), schema.latest());
            }
        }
    }
}
