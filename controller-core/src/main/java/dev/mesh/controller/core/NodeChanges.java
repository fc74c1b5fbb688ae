package dev.mesh.controller.core;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The changes of one node, from its last acknowledged declaration (possibly none) to its new one,
 * in the order of DESIGN.md section 6, each requiring what must be in place before it on the same
 * node — always changes of an earlier step, so every change comes after what it requires.
 * Requirements across nodes and on builds are added by {@link Requirements}.
 *
 * @param changes the changes, in step order
 * @param orphans directories the node had and no longer declares
 * @param runs the changes that start, restart or prepare a declared process, with that process, in
 *     the order of {@code changes}: what {@link Requirements} links to builds and seat holders
 */
record NodeChanges(List<Plan.Change> changes, List<Plan.Orphan> orphans, List<Run> runs) {

    /** Nothing to change. */
    static final NodeChanges NONE = new NodeChanges(List.of(), List.of(), List.of());

    NodeChanges {
        changes = List.copyOf(changes);
        orphans = List.copyOf(orphans);
        runs = List.copyOf(runs);
    }

    /**
     * A change that runs a declared process.
     *
     * @param at the change's place in {@code changes}
     * @param change the change
     * @param process the process as the new declaration declares it
     * @param starts whether the change starts or restarts it; else it prepares it
     */
    record Run(int at, Plan.Change change, Declaration.Process process, boolean starts) {
    }

    /**
     * The reasons of new directories and processes, made once per module and shared by the nodes of
     * a plan (or by the plans of an {@link IncrementalPlanner}). Why: in the 10,000-node benchmark
     * mesh they are the reasons of two changes in three, and a plan keeps every one of them.
     *
     * <p>Not thread-safe.
     */
    static final class Reasons {
        private final Map<String, String> newDirectory = new HashMap<>();
        private final Map<String, String> newProcess = new HashMap<>();

        private String newDirectory(String module) {
            return newDirectory.computeIfAbsent(module, m -> "new directory of module " + m);
        }

        private String newProcess(String module) {
            return newProcess.computeIfAbsent(module, m -> "new process of module " + m);
        }
    }

    /** {@link #of(Declaration, Declaration, Reasons)} with reasons of its own. */
    static NodeChanges of(Declaration before, Declaration after) {
        return of(before, after, new Reasons());
    }

    /**
     * The changes of a node, sorted by step, then id. Equal declarations have none: every step
     * below compares the two sides and finds nothing, so the comparison is skipped.
     *
     * @param reasons where the reasons shared between nodes are kept
     */
    static NodeChanges of(Declaration before, Declaration after, Reasons reasons) {
        if (after.equals(before)) {
            return NONE;
        }
        Diff diff = new Diff(before, after, reasons);
        diff.accounts();
        diff.directories();
        diff.keyed(Step.SECRETS, Declaration::secrets, s -> s.module() + "/" + s.name(),
                s -> diff.placing(s.path(), s.owner()));
        diff.keyed(Step.ACCESSES, Declaration::accesses, a -> a.module() + ":" + a.path(),
                a -> diff.placing(a.path(), "root"));
        diff.processes();
        diff.containers();
        return diff.result();
    }

    /** The id of a step: {@code NODE/KIND:NAME}. */
    static String id(String node, String kind, String name) {
        return node + "/" + kind + ":" + name;
    }

    /** The steps of a node's changes, in order, each with the kind its ids name. */
    private enum Step {
        ACCOUNTS("account"), DIRECTORIES("directory"), SECRETS("secret"), ACCESSES("access"), PREPARE("prepare"),
        PROCESSES("process"), CONTAINERS("container");

        private final String kind;

        Step(String kind) {
            this.kind = kind;
        }
    }

    private static final List<String> CREATE = List.of("create");
    private static final List<String> UPDATE = List.of("update");
    private static final List<String> PREPARE = List.of("prepare");
    private static final List<String> START = List.of("start");
    private static final List<String> RESTART = List.of("restart");
    private static final List<String> STOP = List.of("stop");
    private static final List<String> REMOVE = List.of("remove");

    /** The comparison of two declarations of one node. */
    private static final class Diff {

        private final String node;
        private final Declaration before;
        private final Declaration after;
        private final Reasons reasons;
        /** The new declaration's processes by name. */
        private final Map<String, Declaration.Process> declared;
        /**
         * Per step, its changes by the name their id ends with: within a step every id has the same
         * {@code NODE/KIND:} before the name, so they sort as their ids do, and a change added again
         * under its id replaces the first. A requirement is the id of the change found here.
         */
        private final Map<Step, TreeMap<String, Plan.Change>> steps = new EnumMap<>(Step.class);
        private final List<Plan.Orphan> orphans = new ArrayList<>();

        private Diff(Declaration before, Declaration after, Reasons reasons) {
            this.node = after.node();
            this.before = before == null ? empty(after.node()) : before;
            this.after = after;
            this.reasons = reasons;
            this.declared = index(after.processes(), Declaration.Process::name);
            for (Step step : Step.values()) {
                steps.put(step, new TreeMap<>());
            }
        }

        private void accounts() {
            Map<String, Declaration.Account> old = index(before.accounts(), Declaration.Account::name);
            for (Declaration.Account account : after.accounts()) {
                Declaration.Account was = old.get(account.name());
                if (was == null) {
                    add(Step.ACCOUNTS, account.name(), CREATE, "new account", List.of());
                } else if (!was.equals(account)) {
                    add(Step.ACCOUNTS, account.name(), UPDATE, "shell or home changed", List.of());
                }
            }
        }

        private void directories() {
            Map<String, Declaration.Directory> old = index(before.directories(), Declaration.Directory::path);
            for (Declaration.Directory directory : after.directories()) {
                Declaration.Directory was = old.get(directory.path());
                List<String> requires = planned(Step.ACCOUNTS, directory.owner());
                if (was == null) {
                    add(Step.DIRECTORIES, directory.path(), CREATE, reasons.newDirectory(directory.module()), requires);
                } else if (!was.equals(directory)) {
                    add(Step.DIRECTORIES, directory.path(), UPDATE, "mode or owner changed: " + was.mode() + " "
                            + was.owner() + " → " + directory.mode() + " " + directory.owner(), requires);
                }
            }
            if (!before.directories().isEmpty()) {
                Map<String, Declaration.Directory> now = index(after.directories(), Declaration.Directory::path);
                for (Declaration.Directory directory : before.directories()) {
                    if (!now.containsKey(directory.path())) {
                        orphans.add(new Plan.Orphan(node, directory.module(), directory.path()));
                    }
                }
            }
        }

        private <T> void keyed(Step step, Function<Declaration, List<T>> part, Function<T, String> key,
                Function<T, List<String>> requires) {
            Map<String, T> old = index(part.apply(before), key);
            for (T item : part.apply(after)) {
                String name = key.apply(item);
                T was = old.get(name);
                if (was == null || !was.equals(item)) {
                    add(step, name, was == null ? CREATE : UPDATE, (was == null ? "new " : "changed ") + step.kind,
                            requires.apply(item));
                }
            }
        }

        /** What must exist before a file at {@code path} owned by {@code owner}: its account and directories. */
        private List<String> placing(String path, String owner) {
            List<String> ids = new ArrayList<>(planned(Step.ACCOUNTS, owner));
            for (Declaration.Directory directory : after.directories()) {
                if (path.startsWith(directory.path()) && path.startsWith("/", directory.path().length())) {
                    addIfPlanned(ids, Step.DIRECTORIES, directory.path());
                }
            }
            return ids;
        }

        private void processes() {
            Map<String, Declaration.Process> old = index(before.processes(), Declaration.Process::name);
            for (Declaration.Process process : after.processes()) {
                Declaration.Process was = old.get(process.name());
                String reason = was == null ? reasons.newProcess(process.module()) : ProcessDelta.reason(was, process);
                if (reason.isEmpty()) {
                    continue;
                }
                List<String> requires = new ArrayList<>(planned(Step.ACCOUNTS, process.user()));
                moduleChanges(requires, process.module());
                if (process.prepare() != null && (was == null || !Objects.equals(was.prepare(), process.prepare())
                        || !was.artifact().equals(process.artifact()))) {
                    Plan.Change prepare = add(Step.PREPARE, process.name(), PREPARE,
                            "run once before the process: " + reason, requires);
                    requires.add(prepare.id());
                }
                add(Step.PROCESSES, process.name(), was == null ? START : RESTART, reason, requires);
            }
            for (Declaration.Process process : before.processes()) {
                if (!declared.containsKey(process.name())) {
                    add(Step.PROCESSES, process.name(), STOP, "no longer declared on this node", List.of());
                }
            }
        }

        private void containers() {
            if (!before.containers().isEmpty()) {
                Map<String, Declaration.Container> now = index(after.containers(), Declaration.Container::name);
                for (Declaration.Container container : before.containers()) {
                    if (!now.containsKey(container.name())) {
                        add(Step.CONTAINERS, container.name(), REMOVE, "no longer declared", List.of());
                    }
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
            Plan.Change start = steps.get(Step.PROCESSES).get(process.name());
            if (start == null || !start.actions().contains("start")) {
                return;
            }
            Optional<String> clash = Coexistence.clash(process, container, after, before);
            List<String> actions = new ArrayList<>(start.actions());
            actions.add(clash.isEmpty() ? "overlap" : "gap");
            steps.get(Step.PROCESSES).put(process.name(), new Plan.Change(start.id(), node, actions,
                    start.reason() + clash.map(why -> "; replaces container " + container + " " + why
                            + ": downtime expected").orElse("; replaces container " + container
                            + ", which keeps running until this is healthy"), start.requires()));
            add(Step.CONTAINERS, container, REMOVE, "replaced by process " + process.name(),
                    List.of(start.id() + "#healthy"));
        }

        /** The id of the step's change of that name, as the only requirement; none when there is no such change. */
        private List<String> planned(Step step, String name) {
            Plan.Change change = steps.get(step).get(name);
            return change == null ? List.of() : List.of(change.id());
        }

        /** Adds the ids of the directory, secret and access changes of a module on this node. */
        private void moduleChanges(List<String> ids, String module) {
            for (Declaration.Directory directory : after.directories()) {
                if (directory.module().equals(module)) {
                    addIfPlanned(ids, Step.DIRECTORIES, directory.path());
                }
            }
            for (Declaration.Secret secret : after.secrets()) {
                if (secret.module().equals(module)) {
                    addIfPlanned(ids, Step.SECRETS, secret.module() + "/" + secret.name());
                }
            }
            for (Declaration.Access access : after.accesses()) {
                if (access.module().equals(module)) {
                    addIfPlanned(ids, Step.ACCESSES, access.module() + ":" + access.path());
                }
            }
        }

        private void addIfPlanned(List<String> ids, Step step, String name) {
            Plan.Change change = steps.get(step).get(name);
            if (change != null) {
                ids.add(change.id());
            }
        }

        private Plan.Change add(Step step, String name, List<String> actions, String reason, List<String> requires) {
            Plan.Change change = new Plan.Change(id(node, step.kind, name), node, actions, reason, requires);
            steps.get(step).put(name, change);
            return change;
        }

        /** The changes in step order, then by id; the runs among them. */
        private NodeChanges result() {
            int count = 0;
            for (Map<String, Plan.Change> changes : steps.values()) {
                count += changes.size();
            }
            List<Plan.Change> ordered = new ArrayList<>(count);
            List<Run> runs = new ArrayList<>();
            steps.forEach((step, changes) -> changes.forEach((name, change) -> {
                Declaration.Process process = step == Step.PREPARE || step == Step.PROCESSES ? declared.get(name) : null;
                if (process != null) {
                    runs.add(new Run(ordered.size(), change, process, step == Step.PROCESSES));
                }
                ordered.add(change);
            }));
            return new NodeChanges(ordered, orphans, runs);
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
