package dev.mesh.controller.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.pool.HikariPool;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A pool of open connections to one database of the store (HikariCP), for the verbs, which reach
 * the store on every call: a new PostgreSQL connection costs a TCP handshake, a server process and
 * a login, several times the cost of the query it would serve. The plan lock does not use it: its
 * session is a connection of its own ({@link PgPlanLock}).
 *
 * <p>Connections keep the endpoint's TCP keepalive and timeouts; idle ones are checked every
 * 30 seconds and replaced every 30 minutes. Thread-safe.
 */
public final class ConnectionPool implements AutoCloseable {

    /**
     * How long a caller waits for a connection. A verb's queries take milliseconds, so a pool with no
     * free connection for this long is a store that is down, not a busy one: the verb is told
     * {@code unavailable} within a second rather than after a wait its client would take for a hang
     * (docs/benchmarks.md, "Trust boundaries", has the figures before and after).
     */
    private static final Duration WAIT_FOR_CONNECTION = Duration.ofMillis(750);
    /** How long checking that an idle connection still works may take: below the wait for one. */
    private static final Duration VALIDATION = Duration.ofMillis(500);
    private static final Duration KEEPALIVE = Duration.ofSeconds(30);
    /**
     * No verb's query reads for this long: a server that does not answer within it fails the verb
     * instead of holding it. Only the pool's connections have it; migrations and the lock session
     * may wait longer on purpose.
     */
    static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

    private final Endpoint endpoint;
    private final HikariDataSource pool;

    private ConnectionPool(Endpoint endpoint, HikariDataSource pool) {
        this.endpoint = endpoint;
        this.pool = pool;
    }

    /**
     * Opens {@code size} connections to the endpoint's database, failing at once when it cannot.
     *
     * @param endpoint the database
     * @param size how many connections to keep open, 1 to 100
     * @return the pool, open
     * @throws IllegalArgumentException when the size is out of range
     * @throws StoreException when the database cannot be reached
     */
    public static ConnectionPool open(Endpoint endpoint, int size) {
        Objects.requireNonNull(endpoint, "endpoint");
        if (size < 1 || size > 100) {
            throw new IllegalArgumentException("a connection pool's size must be between 1 and 100, not " + size);
        }
        HikariConfig config = new HikariConfig();
        PGSimpleDataSource source = endpoint.driverDataSource();
        source.setSocketTimeout(Math.toIntExact(SOCKET_TIMEOUT.toSeconds()));
        config.setDataSource(source);
        config.setPoolName("mesh-" + endpoint.database());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(WAIT_FOR_CONNECTION.toMillis());
        config.setValidationTimeout(VALIDATION.toMillis());
        config.setKeepaliveTime(KEEPALIVE.toMillis());
        try {
            return new ConnectionPool(endpoint, new HikariDataSource(config));
        } catch (HikariPool.PoolInitializationException e) {
            throw new StoreException(Failure.message(endpoint.address(), "open " + size + " connections", e), e);
        }
    }

    /** @return the pool as a data source: a connection closed by its user goes back to the pool */
    public DataSource dataSource() {
        return pool;
    }

    /** Closes every connection; the data source gives no more. */
    @Override
    public void close() {
        pool.close();
    }

    /** @return the database and the pool's live counts, e.g. {@code total=4 active=1 idle=3 waiting=0}; never the password */
    @Override
    public String toString() {
        HikariPoolMXBean state = pool.getHikariPoolMXBean();
        String counts = state == null ? "closed" : "total=" + state.getTotalConnections() + " active="
                + state.getActiveConnections() + " idle=" + state.getIdleConnections() + " waiting="
                + state.getThreadsAwaitingConnection();
        return "ConnectionPool[" + endpoint.address() + ", " + counts + "]";
    }
}
