package dev.mesh.controller.store;

import dev.mesh.controller.core.Secret;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where one database of the store is and how to log in: what {@code MESH_STORE_<DB>_FILE} (user,
 * password, database) and {@code MESH_STORE_<DB>_PORT} (host and port) give. The password is a
 * {@link Secret}: the accessor, {@link #equals}, {@link #toString()} and every message built from
 * an endpoint show {@code ***}, never its value.
 *
 * @param host the server's host name or address
 * @param port the server's port, 1 to 65535
 * @param database the database's name
 * @param user the role to log in as
 * @param password the role's password; {@link Secret#NONE} for trust authentication
 */
public record Endpoint(String host, int port, String database, String user, Secret password) {

    /** Seconds to wait for a connection before giving up. */
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException when the port is out of range or a name is empty
     */
    public Endpoint {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
        }
        if (host.isEmpty() || database.isEmpty() || user.isEmpty()) {
            throw new IllegalArgumentException("host, database and user must not be empty");
        }
    }

    /** @return the same server and login, on another database */
    public Endpoint withDatabase(String otherDatabase) {
        return new Endpoint(host, port, otherDatabase, user, password);
    }

    /** @return the same server, database and user, logging in with another password */
    public Endpoint withPassword(Secret otherPassword) {
        return new Endpoint(host, port, database, user, otherPassword);
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
        source.setServerNames(new String[] {host});
        source.setPortNumbers(new int[] {port});
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

    /** @return where and who, e.g. {@code postgresql://store@127.0.0.1:5432/inventory}; never the password */
    public String address() {
        return "postgresql://" + user + "@" + host + ":" + port + "/" + database;
    }

    @Override
    public String toString() {
        return "Endpoint[" + address() + ", password=***]";
    }
}
