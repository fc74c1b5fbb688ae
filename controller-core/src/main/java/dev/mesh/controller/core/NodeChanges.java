package dev.mesh.controller.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
        diff.keyed(3, Declaration::secrets, s -> s.module() + "/" + s.name(), "secret",
                s -> diff.placing(s.path(), s.owner()));
        diff.keyed(4, Declaration::accesses, a -> a.module() + ":" + a.path(), "access",
                a -> diff.placing(a.path(), "root"));
        diff.processes();
        diff.containers();
        return new NodeChanges(diff.ordered(), diff.orphans);
    }

    /** The id of a step: {@code NODE/KIND:NAME}. */
    static String id(String node, String kind, String name) {
        return node + "/" + kind + ":" + name;
    }

    /** A change and the step it belongs to (1 accounts, …, 7 containers). */
    private record Step(int order, Plan.Change change) {
    }

    /** The comparison of two declarations of one node. */
    private static final class Diff {

        private final String node;
        private final Declaration before;
        private final Declaration after;
        /** Id → the change and its step; an id names its kind, hence its step, so ids do not repeat across steps. */
        private final Map<String, Step> changes = new LinkedHashMap<>(64);
        private final List<Plan.Orphan> orphans = new ArrayList<>();

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
                    add(1, "account", account.name(), List.of("create"), "new account", List.of());
                } else if (!was.equals(account)) {
                    add(1, "account", account.name(), List.of("update"), "shell or home changed", List.of());
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
                    add(2, "directory", directory.path(), List.of("create"), "new directory of module "
                            + directory.module(), requires);
                } else if (!was.equals(directory)) {
                    add(2, "directory", directory.path(), List.of("update"), "mode or owner changed: " + was.mode()
                            + " " + was.owner() + " → " + directory.mode() + " " + directory.owner(), requires);
                }
            }
            for (Declaration.Directory directory : before.directories()) {
                if (!now.containsKey(directory.path())) {
                    orphans.add(new Plan.Orphan(node, directory.module(), directory.path()));
                }
            }
        }

        private <T> void keyed(int step, Function<Declaration, List<T>> part, Function<T, String> key, String kind,
                Function<T, List<String>> requires) {
            Map<String, T> old = index(part.apply(before), key);
            for (T item : part.apply(after)) {
                T was = old.get(key.apply(item));
                if (was == null || !was.equals(item)) {
                    add(step, kind, key.apply(item), List.of(was == null ? "create" : "update"),
                            (was == null ? "new " : "changed ") + kind, requires.apply(item));
                }
            }
        }

        /** What must exist before a file at {@code path} owned by {@code owner}: its account and directories. */
        private List<String> placing(String path, String owner) {
            List<String> ids = new ArrayList<>(accountChange(owner));
            for (Declaration.Directory directory : after.directories()) {
                if (path.startsWith(directory.path()) && path.startsWith("/", directory.path().length())) {
                    addIfPlanned(ids, id(node, "directory", directory.path()));
                }
            }
            return ids;
        }

        private void processes() {
            Map<String, Declaration.Process> old = index(before.processes(), Declaration.Process::name);
            Map<String, Declaration.Process> now = index(after.processes(), Declaration.Process::name);
            for (Declaration.Process process : after.processes()) {
                Declaration.Process was = old.get(process.name());
                String reason = was == null ? "new process of module " + process.module()
                        : ProcessDelta.reason(was, process);
                if (reason.isEmpty()) {
                    continue;
                }
                List<String> requires = new ArrayList<>(accountChange(process.user()));
                requires.addAll(moduleChanges(process.module()));
                if (process.prepare() != null && (was == null || !Objects.equals(was.prepare(), process.prepare())
                        || !was.artifact().equals(process.artifact()))) {
                    add(5, "prepare", process.name(), List.of("prepare"), "run once before the process: " + reason,
                            requires);
                    requires.add(id(node, "prepare", process.name()));
                }
                add(6, "process", process.name(), List.of(was == null ? "start" : "restart"), reason, requires);
            }
            for (Declaration.Process process : before.processes()) {
                if (!now.containsKey(process.name())) {
                    add(6, "process", process.name(), List.of("stop"), "no longer declared on this node", List.of());
                }
            }
        }

        private void containers() {
            Map<String, Declaration.Container> now = index(after.containers(), Declaration.Container::name);
            for (Declaration.Container container : before.containers()) {
                if (!now.containsKey(container.name())) {
                    add(7, "container", container.name(), List.of("remove"), "no longer declared", List.of());
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
            Step step = changes.get(processId);
            if (step == null || !step.change().actions().contains("start")) {
                return;
            }
            Plan.Change start = step.change();
            Optional<String> clash = Coexistence.clash(process, container, after, before);
            List<String> actions = new ArrayList<>(start.actions());
            actions.add(clash.isEmpty() ? "overlap" : "gap");
            changes.put(processId, new Step(6, new Plan.Change(start.id(), node, actions, start.reason()
                    + clash.map(why -> "; replaces container " + container + " " + why + ": downtime expected")
                            .orElse("; replaces container " + container + ", which keeps running until this is healthy"),
                    start.requires())));
            add(7, "container", container, List.of("remove"), "replaced by process " + process.name(),
                    List.of(processId + "#healthy"));
        }

        private List<String> accountChange(String account) {
            String accountId = id(node, "account", account);
            return changes.containsKey(accountId) ? List.of(accountId) : List.of();
        }

        /** The directory, secret and access changes of a module on this node. */
        private List<String> moduleChanges(String module) {
            List<String> ids = new ArrayList<>();
            for (Declaration.Directory directory : after.directories()) {
                if (directory.module().equals(module)) {
                    addIfPlanned(ids, id(node, "directory", directory.path()));
                }
            }
            for (Declaration.Secret secret : after.secrets()) {
                if (secret.module().equals(module)) {
                    addIfPlanned(ids, id(node, "secret", secret.module() + "/" + secret.name()));
                }
            }
            for (Declaration.Access access : after.accesses()) {
                if (access.module().equals(module)) {
                    addIfPlanned(ids, id(node, "access", access.module() + ":" + access.path()));
                }
            }
            return ids;
        }

        private void addIfPlanned(List<String> ids, String changeId) {
            if (changes.containsKey(changeId)) {
                ids.add(changeId);
            }
        }

        private void add(int step, String kind, String name, List<String> actions, String reason,
                List<String> requires) {
            String changeId = id(node, kind, name);
            changes.put(changeId, new Step(step, new Plan.Change(changeId, node, actions, reason, requires)));
        }

        /**
         * The changes in step order, then by id. They were added step by step, mostly in id order,
         * so each step's few changes are sorted on their own (a sort of an ordered run is one pass).
         */
        private List<Plan.Change> ordered() {
            List<List<Plan.Change>> byStep = new ArrayList<>(8);
            for (int step = 0; step < 8; step++) {
                byStep.add(new ArrayList<>());
            }
            changes.values().forEach(step -> byStep.get(step.order()).add(step.change()));
            List<Plan.Change> ordered = new ArrayList<>(changes.size());
            for (List<Plan.Change> step : byStep) {
                step.sort(Comparator.comparing(Plan.Change::id));
                ordered.addAll(step);
            }
            return ordered;
        }

        private static <T> Map<String, T> index(List<T> items, Function<T, String> key) {
            if (items.isEmpty()) {
                return Map.of();
            }
            Map<String, T> byKey = new HashMap<>();
            items.forEach(item -> byKey.put(key.apply(item), item));
            return byKey;
        }

        private static Declaration empty(String node) {
            return new Declaration(node, "", List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                    List.of(), List.of());
        }
    }
}
