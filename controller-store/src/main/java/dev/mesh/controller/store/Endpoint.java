package dev.mesh.controller.store;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where one database of the store is and how to log in: what {@code MESH_STORE_<DB>_FILE} (user,
 * password, database) and {@code MESH_STORE_<DB>_PORT} (host and port) give. The password is a
 * {@link Secret}: the accessor, {@link #equals}, {@link #toString()} and every message built from
 * an endpoint show {@code ***}, never its value.
 *
 * <p>The server may be a primary with standbys: its members' addresses, in the order to try them. A
 * connection goes to the first that answers as the primary (the driver's {@code targetServerType=primary}),
 * so that after a failover the next connection finds the promoted standby (docs/store.md, "A primary
 * with a standby").
 *
 * @param servers the server's addresses (host and port 1 to 65535), one or the primary and its standbys
 * @param database the database's name
 * @param user the role to log in as
 * @param password the role's password; {@link Secret#NONE} for trust authentication
 */
public record Endpoint(List<Address> servers, String database, String user, Secret password) {

    /** Seconds to wait for a connection before giving up. */
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when there is no server, a port is out of range or a name is empty
     */
    public Endpoint {
        servers = List.copyOf(servers);
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("a database needs at least one server's address");
        }
        for (Address server : servers) {
            if (server.port() < 1 || server.port() > 65535) {
                throw new IllegalArgumentException("port " + server.port() + " is not between 1 and 65535");
            }
        }
        if (servers.stream().anyMatch(server -> server.host().isEmpty()) || database.isEmpty() || user.isEmpty()) {
            throw new IllegalArgumentException("host, database and user must not be empty");
        }
    }

    /**
     * A database on one server.
     *
     * @throws IllegalArgumentException when the port is out of range or a name is empty
     */
    public Endpoint(String host, int port, String database, String user, Secret password) {
        this(List.of(new Address(Objects.requireNonNull(host, "host"), port)), database, user, password);
    }

    /** @return the first server's host: the only one, or the one tried first */
    public String host() {
        return servers.getFirst().host();
    }

    /** @return the first server's port: the only one, or the one tried first */
    public int port() {
        return servers.getFirst().port();
    }

    /** @return the same server and login, on another database */
    public Endpoint withDatabase(String otherDatabase) {
        return new Endpoint(servers, otherDatabase, user, password);
    }

    /** @return the same server, database and user, logging in with another password */
    public Endpoint withPassword(Secret otherPassword) {
        return new Endpoint(servers, database, user, otherPassword);
    }

    /**
     * A data source that opens a new connection each time, with TCP keepalive on and a connect
     * timeout, so that a dead server or a cut network is noticed rather than waited on forever.
     * Pooling, where it serves, is {@link ConnectionPool}'s.
     *
     * @return a new data source; thread-safe
     */
    public DataSource dataSource() {
        return driverDataSource();
    }

    /** The driver's data source behind {@link #dataSource()}, for callers that set more of its options. */
    PGSimpleDataSource driverDataSource() {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setServerNames(servers.stream().map(Address::host).toArray(String[]::new));
        source.setPortNumbers(servers.stream().mapToInt(Address::port).toArray());
        // Writes go to the primary: a standby (read-only) is passed over, the one server included, so
        // that a controller pointed at a standby is told at connection rather than at its first write.
        source.setTargetServerType("primary");
        // The driver remembers each server's role for this long (10 s by default): after a failover, the promoted
        // standby must be tried as a primary at the next connection, not ten seconds later.
        source.setHostRecheckSeconds(1);
        source.setDatabaseName(database);
        source.setUser(user);
        if (!password.isEmpty()) {
            source.setPassword(password.reveal());
        }
        source.setTcpKeepAlive(true);
        source.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        source.setLoginTimeout(CONNECT_TIMEOUT_SECONDS);
        source.setApplicationName("mesh-controller");
        return source;
    }

    /**
     * @return where and who, e.g. {@code postgresql://store@127.0.0.1:5432/inventory}, the servers separated by
     *     commas; never the password
     */
    public String address() {
        return "postgresql://" + user + "@" + String.join(",", servers.stream().map(Address::text).toList()) + "/"
                + database;
    }

    @Override
    public String toString() {
        return "Endpoint[" + address() + ", password=***]";
    }
}
