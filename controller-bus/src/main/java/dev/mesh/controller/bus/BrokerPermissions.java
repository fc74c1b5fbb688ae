package dev.mesh.controller.bus;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the broker's permissions in the mesh's virtual host what the principals' roles say ({@link Access}), through
 * the management API: each {@link #reconcile} reads the permissions there, sets those of every principal whose
 * differ (a node added, a grant changed, a drift such as {@code set_permissions … '.*' '.*' '.*'}), and clears those
 * of a user who is no longer a principal but still holds permissions of the controller's shape. Users the
 * controller did not give permissions to — its own, the management user, an operator's — are left alone, and so is
 * a principal with no broker user yet (logged once, until it has one: the operator or genesis creates users, the
 * controller sets what they may do).
 *
 * <p>Each change is logged at INFO ({@code broker permissions set user=… vhost=… configure=… write=… read=…}); no
 * secret is in them.
 *
 * <p>Thread-safe; one reconciliation at a time.
 */
public final class BrokerPermissions {

    /** What one reconciliation changed. */
    public record Changes(List<String> set, List<String> cleared, List<String> noUser) {

        /** @return whether it changed nothing and found every principal a user */
        public boolean none() {
            return set.isEmpty() && cleared.isEmpty() && noUser.isEmpty();
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(BrokerPermissions.class);

    private final ManagementApi api;
    private final String vhost;
    private final Set<String> untouched;
    private final Set<String> toldNoUser = new HashSet<>();
    private final AtomicLong changes = new AtomicLong();

    /**
     * @param api the management API
     * @param vhost the mesh's virtual host
     * @param untouched the users whose permissions are never changed: the controller's own broker user, and the
     *     management API's
     */
    public BrokerPermissions(ManagementApi api, String vhost, Collection<String> untouched) {
        this.api = Objects.requireNonNull(api, "api");
        this.vhost = Objects.requireNonNull(vhost, "vhost");
        this.untouched = Set.copyOf(untouched);
    }

    /**
     * What each principal may do: every enabled principal calls verbs and reports; one named like a node of the
     * inventory is that node's host; one granted {@code build} is a builder.
     *
     * @param grants each enabled principal's granted verbs, by name
     * @param nodes the inventory's node names
     * @return the access of each principal, by name
     */
    public static Map<String, Access> desired(Map<String, ? extends Collection<String>> grants, Set<String> nodes) {
        Map<String, Access> desired = new TreeMap<>();
        grants.forEach((principal, verbs) -> desired.put(principal,
                Access.of(principal, nodes.contains(principal), verbs.contains("build"))));
        return desired;
    }

    /**
     * Makes the broker's permissions {@code desired}'s for those principals, and clears the controller-shaped ones
     * of every other user but the untouched.
     *
     * @param desired each principal's access, by name ({@link #desired})
     * @return what changed
     * @throws BusException when the management API cannot be reached or refuses a call; what was changed before
     *     stays changed, and the next reconciliation goes on from there
     */
    public synchronized Changes reconcile(Map<String, Access> desired) {
        Map<String, Access> actual = api.permissions(vhost);
        Set<String> users = api.users();
        List<String> set = new ArrayList<>();
        List<String> cleared = new ArrayList<>();
        List<String> noUser = new ArrayList<>();
        for (Map.Entry<String, Access> entry : new TreeMap<>(desired).entrySet()) {
            String principal = entry.getKey();
            Access access = entry.getValue();
            if (untouched.contains(principal)) {
                continue;
            }
            if (!users.contains(principal)) {
                noUser.add(principal);
                if (toldNoUser.add(principal)) {
                    LOG.warn("broker permissions not set user={} vhost={} reason=\"no such broker user\"; create it "
                            + "(rabbitmqctl add_user {} …, or genesis), and its permissions follow", principal, vhost,
                            principal);
                }
                continue;
            }
            toldNoUser.remove(principal);
            if (!access.equals(actual.get(principal))) {
                api.set(vhost, principal, access);
                set.add(principal);
                changes.incrementAndGet();
                LOG.info("broker permissions set user={} vhost={} configure={} write={} read={} was={}", principal,
                        vhost, access.configure(), access.write(), access.read(), shown(actual.get(principal)));
            }
        }
        for (Map.Entry<String, Access> entry : new TreeMap<>(actual).entrySet()) {
            String user = entry.getKey();
            if (!desired.containsKey(user) && !untouched.contains(user) && entry.getValue().setByController()) {
                api.clear(vhost, user);
                cleared.add(user);
                changes.incrementAndGet();
                LOG.info("broker permissions cleared user={} vhost={} reason=\"no longer a principal\"", user, vhost);
            }
        }
        return new Changes(List.copyOf(set), List.copyOf(cleared), List.copyOf(noUser));
    }

    /** @return how many permissions this instance set or cleared, ever */
    public long changes() {
        return changes.get();
    }

    private static String shown(Access access) {
        return access == null ? "none" : "(" + access.configure() + " " + access.write() + " " + access.read() + ")";
    }
}
