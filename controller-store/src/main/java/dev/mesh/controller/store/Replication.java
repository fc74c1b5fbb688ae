package dev.mesh.controller.store;

import dev.mesh.controller.core.settings.Variables.Address;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * What the store's primary says of its standbys, as one session sees it: whether a commit waits for a
 * standby to have it. The plan lock reads it on each session it opens (docs/store.md, "A primary with a
 * standby"): with asynchronous replication the last epoch taken can be lost in a failover and taken again,
 * so a store that has standbys but does not wait for one is said at start, and the leadership's writes
 * never commit more weakly than {@code synchronous_commit = on}.
 *
 * @param standbyNames the primary's {@code synchronous_standby_names}; empty when no commit waits for a standby
 * @param commit this session's {@code synchronous_commit}: {@code on}, {@code remote_apply}, {@code remote_write},
 *     {@code local} or {@code off}
 * @param standbys how many standbys stream from the primary now ({@code pg_stat_replication})
 * @param server the primary the session is on, {@code host:port} as the server sees it ({@code inet_server_addr},
 *     {@code inet_server_port}); {@code ""} on a Unix socket
 */
record Replication(String standbyNames, String commit, long standbys, String server) {

    /** The settings of {@code synchronous_commit} under which a commit does not wait for any standby. */
    private static final Set<String> LOCAL = Set.of("local", "off");

    /** @return what the server says, on {@code db}'s session */
    static Replication read(DSLContext db) {
        var row = db.resultQuery("SELECT current_setting('synchronous_standby_names'), "
                + "current_setting('synchronous_commit'), (SELECT count(*) FROM pg_catalog.pg_stat_replication), "
                + "host(inet_server_addr()), inet_server_port()").fetchSingle();
        String host = row.get(3, String.class);
        return new Replication(row.get(0, String.class).strip(), row.get(1, String.class),
                row.get(2, Long.class), host == null ? "" : new Address(host, row.get(4, Integer.class)).text());
    }

    /** @return whether a commit at this session's setting waits until a standby has it */
    boolean synchronous() {
        return !standbyNames.isEmpty() && !commitsLocally();
    }

    /** @return whether this session's commits skip the wait even when the primary names standbys */
    boolean commitsLocally() {
        return LOCAL.contains(commit);
    }

    /**
     * @param endpoint the database, whose servers say whether a failover is expected
     * @return whether a failover could lose what a commit acknowledged: the endpoint names standbys, or the
     *     primary streams to some, and commits do not wait for them
     */
    boolean unsafeFor(Endpoint endpoint) {
        return (endpoint.servers().size() > 1 || standbys > 0) && !synchronous();
    }

    /** @return what {@code status} shows: {@code primary}, {@code synchronous}, {@code standbys} */
    Map<String, Object> shown() {
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("primary", server);
        shown.put("synchronous", synchronous());
        shown.put("standbys", standbys);
        return shown;
    }

    /** @return the settings, for a log line, e.g. {@code synchronous_standby_names="" synchronous_commit=on standbys=1} */
    String settings() {
        return "synchronous_standby_names=\"" + standbyNames + "\" synchronous_commit=" + commit + " standbys="
                + standbys;
    }
}
