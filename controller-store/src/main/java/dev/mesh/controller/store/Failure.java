package dev.mesh.controller.store;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.util.PSQLException;

/**
 * The one place that says, in the store's words, why a database failed: which database, what was
 * being done, the kind of failure (read from the SQLState of the innermost {@link SQLException})
 * and how to fix it. It never quotes jOOQ's, Flyway's or the driver's message, which hold the SQL
 * text and may hold values; the whole exception is kept as the cause. Stateless.
 */
final class Failure {

    /** The kinds of failure a message names, each with what to do about it. */
    enum Kind {
        REFUSED("nothing accepts connections there (connection refused)"),
        UNREACHABLE("the server cannot be reached"),
        LOST("the connection to the server was lost"),
        ENDED("the server ended the session (it was stopped, restarted or terminated the session)"),
        TIMED_OUT("the server did not answer in time"),
        AUTHENTICATION("the server refused the login (authentication failed)"),
        MISSING_DATABASE("the database does not exist on the server"),
        TOO_MANY_CONNECTIONS("the server has no connection left (too many connections)"),
        PRIVILEGE("the login may not do that (insufficient privilege)"),
        SCHEMA_BEHIND("the database lacks a table or column this controller needs (its schema is behind)"),
        CONSTRAINT("the write breaks a rule of the schema"),
        OTHER("the database failed");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** @return the kind, as a message says it */
        String text() {
            return text;
        }
    }

    private Failure() {}

    /**
     * @param database which database failed
     * @param where the data source used, to name the server and database when it is PostgreSQL's
     * @param what what was being done, e.g. {@code assign web to alpha}
     * @param cause what failed: kept whole as the cause
     * @return the store's exception, saying what failed, where, why and how to fix it
     */
    static StoreException of(Database database, DataSource where, String what, Throwable cause) {
        return new StoreException(message(database, address(where), what, cause), cause);
    }

    /** @see #of(Database, DataSource, String, Throwable) */
    static StoreException of(Database database, Endpoint where, String what, Throwable cause) {
        return new StoreException(message(database, where.address(), what, cause), cause);
    }

    /**
     * For what is done to the database as a whole: {@code could not VERB the DB database at ADDRESS:
     * KIND (SQLState …); FIX}, e.g. {@code could not migrate the identity database at …}.
     */
    static StoreException onDatabase(Database database, DataSource where, String verb, Throwable cause) {
        Kind kind = kind(cause);
        return onDatabase(database, where, verb, kind.text() + detail(kind, cause),
                fix(kind, "MESH_STORE_" + database.name(), address(where)), cause);
    }

    /** Like {@link #onDatabase(Database, DataSource, String, Throwable)}, saying why and the fix in the caller's words. */
    static StoreException onDatabase(Database database, DataSource where, String verb, String why, String fix,
            Throwable cause) {
        String address = address(where);
        return new StoreException("could not " + verb + " the " + database.label() + " database"
                + (address.isEmpty() ? "" : " at " + address) + ": " + why + "; " + fix, cause);
    }

    /**
     * @param address where the database is, as {@link Endpoint#address()} says it, or {@code ""}
     * @return {@code could not WHAT in the DB database at ADDRESS: KIND (SQLState …); FIX}
     */
    static String message(Database database, String address, String what, Throwable cause) {
        return message("the " + database.label() + " database", "MESH_STORE_" + database.name(), address, what, cause);
    }

    /**
     * For a database that is not known to be one of the three (a pool opens any endpoint).
     *
     * @return {@code could not WHAT in the database at ADDRESS: KIND (SQLState …); FIX}
     */
    static String message(String address, String what, Throwable cause) {
        return message("the database", "", address, what, cause);
    }

    private static String message(String database, String variables, String address, String what, Throwable cause) {
        Kind kind = kind(cause);
        return "could not " + what + " in " + database + (address.isEmpty() ? "" : " at " + address) + ": "
                + kind.text() + detail(kind, cause) + "; " + fix(kind, variables, address);
    }

    /** @return the kind of failure, from the innermost SQLState and the network exceptions below it */
    static Kind kind(Throwable failure) {
        String state = state(failure);
        if (has(failure, ConnectException.class)) {
            return Kind.REFUSED;
        }
        if (has(failure, SocketTimeoutException.class) || has(failure, SQLTimeoutException.class)
                || has(failure, SQLTransientConnectionException.class) || "57014".equals(state)) {
            return Kind.TIMED_OUT;
        }
        if (has(failure, UnknownHostException.class)) {
            return Kind.UNREACHABLE;
        }
        if (state == null) {
            return Kind.OTHER;
        }
        return switch (state) {
            case "08001" -> Kind.UNREACHABLE;
            // The driver's "the server requested a password but none was given", among others.
            case "08004" -> Kind.AUTHENTICATION;
            case "3D000" -> Kind.MISSING_DATABASE;
            case "53300" -> Kind.TOO_MANY_CONNECTIONS;
            case "42P01", "42703", "42883" -> Kind.SCHEMA_BEHIND;
            case "42501" -> Kind.PRIVILEGE;
            case "57P01", "57P02", "57P03" -> Kind.ENDED;
            default -> state.startsWith("08") ? Kind.LOST : state.startsWith("28") ? Kind.AUTHENTICATION
                    : state.startsWith("23") ? Kind.CONSTRAINT : Kind.OTHER;
        };
    }

    private static String fix(Kind kind, String variables, String address) {
        String server = server(address);
        String port = variables.isEmpty() ? "the configured address" : variables + "_PORT";
        String file = variables.isEmpty() ? "the configured credentials" : variables + "_FILE";
        return switch (kind) {
            case REFUSED, UNREACHABLE -> "check that PostgreSQL runs at " + server + " and " + port + " names it";
            case LOST, ENDED -> "check that PostgreSQL at " + server + " is up, then retry";
            case TIMED_OUT -> "check that PostgreSQL at " + server + " is up and not overloaded, and that the network "
                    + "to it works, then retry";
            case AUTHENTICATION -> "check the user and password in " + file + " and that the server's pg_hba.conf "
                    + "lets that user log in";
            case MISSING_DATABASE -> "create the database, or name the right one in " + file
                    + ", then run `mesh-controller prepare`";
            case TOO_MANY_CONNECTIONS -> "raise the server's max_connections, or stop what else holds connections";
            case PRIVILEGE -> "log in as the database's owner (" + file + "), or grant that user the database";
            case SCHEMA_BEHIND -> "run `mesh-controller prepare`";
            case CONSTRAINT, OTHER -> "the exception's cause has the database's own report";
        };
    }

    /** The SQLState and, for a broken rule, its name: no text of the statement nor of its values. */
    private static String detail(Kind kind, Throwable cause) {
        String state = state(cause);
        if (kind == Kind.CONSTRAINT && innermost(cause) instanceof PSQLException psql
                && psql.getServerErrorMessage() != null && psql.getServerErrorMessage().getConstraint() != null) {
            return " (" + psql.getServerErrorMessage().getConstraint() + ", SQLState " + state + ")";
        }
        return state == null ? "" : " (SQLState " + state + ")";
    }

    private static String server(String address) {
        int at = address.indexOf('@');
        int slash = address.indexOf('/', Math.max(at, "postgresql://".length()));
        return at < 0 || slash < 0 ? "the configured address" : address.substring(at + 1, slash);
    }

    /** The SQLState of the innermost SQLException that has one. */
    private static String state(Throwable failure) {
        String state = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                state = sql.getSQLState();
            }
        }
        return state;
    }

    private static SQLException innermost(Throwable failure) {
        SQLException found = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                found = sql;
            }
        }
        return found;
    }

    private static boolean has(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** @return the data source's {@code postgresql://user@host:port/database}, or {@code ""} when it does not say */
    static String address(DataSource source) {
        try {
            if (source == null || !source.isWrapperFor(PGSimpleDataSource.class)) {
                return "";
            }
            PGSimpleDataSource pg = source.unwrap(PGSimpleDataSource.class);
            String[] hosts = pg.getServerNames();
            int[] ports = pg.getPortNumbers();
            return hosts.length == 0 || ports.length == 0 ? "" : "postgresql://" + pg.getUser() + "@" + hosts[0] + ":"
                    + ports[0] + "/" + pg.getDatabaseName();
        } catch (SQLException e) {
            // A data source that cannot say where it points: the message names the database alone.
            return "";
        }
    }
}
