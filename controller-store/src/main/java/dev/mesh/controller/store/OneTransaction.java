package dev.mesh.controller.store;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jooq.tools.jdbc.DefaultConnection;

/**
 * A data source whose connections, inside {@link #run}, are all one: the transaction {@code run}
 * opened on this thread. Every store class built on it (the inventory, the request records, their
 * fenced writes) then reads and writes in that transaction, so what a mutating verb changes and the
 * record of its request commit together or not at all. Outside {@code run} it is the data source it
 * wraps, connection by connection.
 *
 * <p>Inside {@code run} a connection handed out ignores {@code close}, {@code commit}, {@code rollback}
 * and {@code setAutoCommit}: the work's own transactions (jOOQ's, each fenced write's) are then parts of
 * the one, which {@code run} commits when the work returns and rolls back when it throws.
 *
 * <p>Thread-safe: each thread has its own transaction.
 */
public final class OneTransaction implements DataSource {

    private final DataSource pool;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();

    private OneTransaction(DataSource pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /**
     * @param pool the {@code inventory} database's connections
     * @return a data source over them for the inventory, the request records and the plan lock of one
     *     controller, whose {@link PgRequestRecords#atomically} is then one transaction
     */
    public static OneTransaction over(DataSource pool) {
        return new OneTransaction(pool);
    }

    /**
     * Runs {@code work} in one transaction; inside another {@code run} on this thread, in that one.
     *
     * @return what {@code work} returns, once committed
     * @throws StoreException when the transaction cannot begin or commit
     */
    <T> T run(Supplier<T> work) {
        if (current.get() != null) {
            return work.get();
        }
        Connection connection;
        try {
            connection = pool.getConnection();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new StoreException("cannot begin a transaction on the inventory database: " + e.getMessage(), e);
        }
        current.set(connection);
        try {
            T result = work.get();
            connection.commit();
            return result;
        } catch (SQLException e) {
            rollback(connection);
            throw new StoreException("cannot commit on the inventory database: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            rollback(connection);
            throw e;
        } finally {
            current.remove();
            try {
                connection.setAutoCommit(true);
                connection.close();
            } catch (SQLException e) {
                // The pool finds a broken connection when it is next handed out.
            }
        }
    }

    private static void rollback(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // A connection that cannot roll back is gone, and so is its transaction.
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = current.get();
        return connection == null ? pool.getConnection() : shared(connection);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the inventory's connections have one login");
    }

    private static Connection shared(Connection connection) {
        return new SharedConnection(connection);
    }

    /** The transaction's connection as the work sees it: {@code run} alone ends the transaction and the connection. */
    private static final class SharedConnection extends DefaultConnection {

        SharedConnection(Connection connection) {
            super(connection);
        }

        @Override
        public void close() {
            // run closes it.
        }

        @Override
        public void commit() {
            // run commits the one transaction.
        }

        @Override
        public void rollback() {
            // run rolls the one transaction back when the work throws.
        }

        @Override
        public void setAutoCommit(boolean autoCommit) {
            // Off until run ends.
        }

        @Override
        public boolean getAutoCommit() {
            return false;
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || pool.isWrapperFor(iface);
    }
}
