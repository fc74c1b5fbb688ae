package dev.mesh.controller.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The changes of one node, from its last acknowledged declaration (possibly none) to its new one,
 * in the order of DESIGN.md section 6, each requiring what must be in place before it on the same
 * node. Requirements across nodes and on builds are added by {@link Planner}.
 *
 * @param changes the changes, in step order
 * @param orphans directories the node had and no longer declares
 */
record NodeChanges(List<Plan.Change> changes, List<Plan.Orphan> orphans) {

    /** Nothing to change. */
    static final NodeChanges NONE = new NodeChanges(List.of(), List.of());

    NodeChanges {
        changes = List.copyOf(changes);
        orphans = List.copyOf(orphans);
    }

    /**
     * The changes of a node, sorted by step, then id. Equal declarations have none: every step
     * below compares the two sides and finds nothing, so the comparison is skipped.
     */
    static NodeChanges of(Declaration before, Declaration after) {
        if (after.equals(before)) {
            return NONE;
        }
        Diff diff = new Diff(before, after);
        diff.accounts();
        diff.directories();
        diff.keyed("3-secret", Declaration::secrets, s -> s.module() + "/" + s.name(), "secret",
                s -> diff.placing(s.path(), s.owner()));
        diff.keyed("4-access", Declaration::accesses, a -> a.module() + ":" + a.path(), "access",
                a -> diff.placing(a.path(), "root"));
        diff.processes();
        diff.containers();
        return new NodeChanges(List.copyOf(diff.changes.values()), diff.orphans);
    }

    /** The id of a step: {@code NODE/KIND:NAME}. */
    static String id(String node, String kind, String name) {
        return node + "/" + kind + ":" + name;
    }

    /** The comparison of two declarations of one node; ids sort in the order of the steps (see {@link #id}). */
    private static final class Diff {

        private final String node;
        private final Declaration before;
        private final Declaration after;
        private final Map<String, Plan.Change> changes = new TreeMap<>();
        private final List<Plan.Orphan> orphans = new ArrayList<>();
        private final java.util.Set<String> ids = new java.util.HashSet<>();

        private Diff(Declaration before, Declaration after) {
            this.node = after.node();
            this.before = before == null ? empty(after.node()) : before;
            this.after = after;
        }

        private void accounts() {
            Map<String, Declaration.Account> old = index(before.accounts(), Declaration.Account::name);
            for (Declaration.Account account : after.accounts()) {
                Declaration.Account was = old.get(account.name());
                if (was == null) {
                    add("1-account", "account", account.name(), List.of("create"), "new account", List.of());
                } else if (!was.equals(account)) {
                    add("1-account", "account", account.name(), List.of("update"), "shell or home changed", List.of());
                }
            }
        }

        private void directories() {
            Map<String, Declaration.Directory> old = index(before.directories(), Declaration.Directory::path);
            Map<String, Declaration.Directory> now = index(after.directories(), Declaration.Directory::path);
            for (Declaration.Directory directory : after.directories()) {
                Declaration.Directory was = old.get(directory.path());
                List<String> requires = accountChange(directory.owner());
                if (was == null) {
                    add("2-directory", "directory", directory.path(), List.of("create"), "new directory of module "
                            + directory.module(), requires);
                } else if (!was.equals(directory)) {
                    add("2-directory", "directory", directory.path(), List.of("update"), "mode or owner changed: "
                            + was.mode() + " " + was.owner() + " → " + directory.mode() + " " + directory.owner(), requires);
                }
            }
            before.directories().stream().filter(d -> !now.containsKey(d.path()))
                    .forEach(d -> orphans.add(new Plan.Orphan(node, d.module(), d.path())));
        }

        private <T> void keyed(String order, Function<Declaration, List<T>> part, Function<T, String> key, String kind,
                Function<T, List<String>> requires) {
            Map<String, T> old = index(part.apply(before), key);
            for (T item : part.apply(after)) {
                T was = old.get(key.apply(item));
                if (was == null || !was.equals(item)) {
                    add(order, kind, key.apply(item), List.of(was == null ? "create" : "update"),
                            (was == null ? "new " : "changed ") + kind, requires.apply(item));
                }
            }
        }

        /** What must exist before a file at {@code path} owned by {@code owner}: its account and directories. */
        private List<String> placing(String path, String owner) {
            List<String> ids = new ArrayList<>(accountChange(owner));
            after.directories().stream().filter(d -> path.startsWith(d.path() + "/"))
                    .map(d -> id(node, "directory", d.path())).filter(this::planned).forEach(ids::add);
            return ids;
        }

        private void processes() {
            Map<String, Declaration.Process> old = index(before.processes(), Declaration.Process::name);
            Map<String, Declaration.Process> now = index(after.processes(), Declaration.Process::name);
            for (Declaration.Process process : after.processes()) {
                Declaration.Process was = old.get(process.name());
                String reason = was == null ? "new process of module " + process.module() : ProcessDelta.reason(was, process);
                if (reason.isEmpty()) {
                    continue;
                }
                List<String> requires = new ArrayList<>(accountChange(process.user()));
                requires.addAll(moduleChanges(process.module()));
                if (process.prepare() != null && (was == null || !Objects.equals(was.prepare(), process.prepare())
                        || !was.artifact().equals(process.artifact()))) {
                    add("5-prepare", "prepare", process.name(), List.of("prepare"), "run once before the process: "
                            + reason, requires);
                    requires.add(id(node, "prepare", process.name()));
                }
                add("6-process", "process", process.name(), List.of(was == null ? "start" : "restart"), reason, requires);
            }
            before.processes().stream().filter(p -> !now.containsKey(p.name())).forEach(p ->
                    add("6-process", "process", p.name(), List.of("stop"), "no longer declared on this node", List.of()));
        }

        private void containers() {
            Map<String, Declaration.Container> now = index(after.containers(), Declaration.Container::name);
            for (Declaration.Container container : before.containers()) {
                if (!now.containsKey(container.name())) {
                    add("7-container", "container", container.name(), List.of("remove"), "no longer declared",
                            List.of());
                }
            }
            for (Declaration.Process process : after.processes()) {
                for (String replaced : process.replaces()) {
                    replace(process, replaced);
                }
            }
        }

        /** A process that replaces a container is started first; the container goes once it is healthy. */
        private void replace(Declaration.Process process, String container) {
            String processId = id(node, "process", process.name());
            Plan.Change start = changes.get(key("6-process", processId));
            if (start == null || !start.actions().contains("start")) {
                return;
            }
            boolean sideBySide = !container.equals(process.name());
            List<String> actions = new ArrayList<>(start.actions());
            actions.add(sideBySide ? "overlap" : "gap");
            changes.put(key("6-process", processId), new Plan.Change(start.id(), node, actions, start.reason()
                    + (sideBySide ? "; replaces container " + container + ", which keeps running until this is healthy"
                            : "; replaces container " + container + " of the same name: downtime expected"),
                    start.requires()));
            add("7-container", "container", container, List.of("remove"), "replaced by process " + process.name(),
                    List.of(processId + "#healthy"));
        }

        private List<String> accountChange(String account) {
            String accountId = id(node, "account", account);
            return changes.containsKey(key("1-account", accountId)) ? List.of(accountId) : List.of();
        }

        /** The directory, secret and access changes of a module on this node. */
        private List<String> moduleChanges(String module) {
            List<String> ids = new ArrayList<>();
            after.directories().stream().filter(d -> d.module().equals(module))
                    .map(d -> id(node, "directory", d.path())).filter(this::planned).forEach(ids::add);
            after.secrets().stream().filter(s -> s.module().equals(module))
                    .map(s -> id(node, "secret", s.module() + "/" + s.name())).filter(this::planned).forEach(ids::add);
            after.accesses().stream().filter(a -> a.module().equals(module))
                    .map(a -> id(node, "access", a.module() + ":" + a.path())).filter(this::planned).forEach(ids::add);
            return ids;
        }

        private boolean planned(String changeId) {
            return ids.contains(changeId);
        }

        private void add(String order, String kind, String name, List<String> actions, String reason,
                List<String> requires) {
            String changeId = id(node, kind, name);
            changes.put(key(order, changeId), new Plan.Change(changeId, node, actions, reason, requires));
            ids.add(changeId);
        }

        /** Sorting key: step order first, then the id. */
        private static String key(String order, String changeId) {
            return order + " " + changeId;
        }

        private static <T> Map<String, T> index(List<T> items, Function<T, String> key) {
            Map<String, T> byKey = new TreeMap<>();
            items.forEach(item -> byKey.put(key.apply(item), item));
            return byKey;
        }

        private static Declaration empty(String node) {
            return new Declaration(node, "", List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                    List.of());
        }
    }
}
