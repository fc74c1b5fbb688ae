package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Plan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The comparison of two declarations of one node that makes its {@link NodeChanges}: per step of
 * docs/design.md section 6, what the new declaration adds or changes and the old one no longer has,
 * each change with what it requires on the node.
 *
 * <p>One per comparison; not thread-safe.
 */
final class NodeDiff {

    /** The steps of a node's changes, in order, each with the kind its ids name. */
    private enum Step {
        ACCOUNTS("account"), DIRECTORIES("directory"), SECRETS("secret"), ACCESSES("access"), PREPARE("prepare"),
        PROCESSES("process"), CONTAINERS("container");

        private final String kind;

        Step(String kind) {
            this.kind = kind;
        }

        private static final Step[] ALL = values();
    }

    private static final List<String> CREATE = List.of("create");
    private static final List<String> UPDATE = List.of("update");
    private static final List<String> PREPARE = List.of("prepare");
    private static final List<String> START = List.of("start");
    private static final List<String> RESTART = List.of("restart");
    private static final List<String> OVERLAP = List.of("restart", "overlap");
    private static final List<String> STOP = List.of("stop");
    private static final List<String> REMOVE = List.of("remove");

    /** What a node that had no declaration is compared from. */
    private static final Declaration EMPTY = new Declaration("", "", List.of(), List.of(), List.of(), List.of(),
            List.of(), List.of(), List.of(), List.of());

    private final String node;
    private final Declaration before;
    private final Declaration after;
    private final NodeChanges.Reasons reasons;
    /** The new declaration's processes by name, made when first needed (see {@link #declared}). */
    private Map<String, Declaration.Process> declared;
    /** Per step, by ordinal, its changes; null while it has none. A requirement is the id of a change found here. */
    private final StepChanges[] steps = new StepChanges[Step.ALL.length];
    /** Per step, by ordinal, what its ids begin with: {@code NODE/KIND:}; made with its first change. */
    private final String[] prefixes = new String[Step.ALL.length];
    /** The requirements of the process being compared; one list reused for every process. */
    private final List<String> requires = new ArrayList<>();
    private List<Plan.Orphan> orphans = List.of();

    private NodeDiff(Declaration before, Declaration after, NodeChanges.Reasons reasons) {
        this.node = after.node();
        this.before = before == null ? EMPTY : before;
        this.after = after;
        this.reasons = reasons;
    }

    /** @return the changes of a node whose declarations differ (see {@link NodeChanges#of}) */
    static NodeChanges of(Declaration before, Declaration after, NodeChanges.Reasons reasons) {
        NodeDiff diff = new NodeDiff(before, after, reasons);
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
                    orphans = orphans.isEmpty() ? new ArrayList<>() : orphans;
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
                String overlap = ProcessDelta.overlap(was, process);
                if (!overlap.isEmpty()) {
                    add(Step.PROCESSES, process.name(), UPDATE, overlap, List.of());
                }
                continue;
            }
            requires.clear();
            addIfPlanned(requires, Step.ACCOUNTS, process.user());
            moduleChanges(requires, process.module());
            if (process.prepare() != null && (was == null || !Objects.equals(was.prepare(), process.prepare())
                    || !was.artifact().equals(process.artifact()))) {
                Plan.Change prepare = add(Step.PREPARE, process.name(), PREPARE,
                        "run once before the process: " + reason, List.copyOf(requires));
                requires.add(prepare.id());
            }
            if (was == null) {
                add(Step.PROCESSES, process.name(), START, reason, List.copyOf(requires));
            } else if (process.overlap()) {
                add(Step.PROCESSES, process.name(), OVERLAP, reason + "; the new one starts beside the old one, "
                        + "which stops once the new one runs", List.copyOf(requires));
            } else {
                add(Step.PROCESSES, process.name(), RESTART, reason, List.copyOf(requires));
            }
        }
        for (Declaration.Process process : before.processes()) {
            if (!declared().containsKey(process.name())) {
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
        Plan.Change start = find(Step.PROCESSES, process.name());
        if (start == null || !start.actions().contains("start")) {
            return;
        }
        Optional<String> clash = Coexistence.clash(process, container, after, before);
        List<String> actions = new ArrayList<>(start.actions());
        actions.add(clash.isEmpty() ? "overlap" : "gap");
        steps[Step.PROCESSES.ordinal()].put(process.name(), new Plan.Change(start.id(), node, actions,
                start.reason() + clash.map(why -> "; replaces container " + container + " " + why
                        + ": downtime expected").orElse("; replaces container " + container
                        + ", which keeps running until this is healthy"), start.requires()));
        add(Step.CONTAINERS, container, REMOVE, "replaced by process " + process.name(),
                List.of(start.id() + "#healthy"));
    }

    /** The id of the step's change of that name, as the only requirement; none when there is no such change. */
    private List<String> planned(Step step, String name) {
        Plan.Change change = find(step, name);
        return change == null ? List.of() : List.of(change.id());
    }

    /** Adds the ids of the directory, secret and access changes of a module on this node. */
    private void moduleChanges(List<String> ids, String module) {
        if (steps[Step.DIRECTORIES.ordinal()] != null) {
            for (Declaration.Directory directory : after.directories()) {
                if (same(directory.module(), module)) {
                    addIfPlanned(ids, Step.DIRECTORIES, directory.path());
                }
            }
        }
        if (steps[Step.SECRETS.ordinal()] != null) {
            for (Declaration.Secret secret : after.secrets()) {
                if (same(secret.module(), module)) {
                    addIfPlanned(ids, Step.SECRETS, secret.module() + "/" + secret.name());
                }
            }
        }
        if (steps[Step.ACCESSES.ordinal()] != null) {
            for (Declaration.Access access : after.accesses()) {
                if (same(access.module(), module)) {
                    addIfPlanned(ids, Step.ACCESSES, access.module() + ":" + access.path());
                }
            }
        }
    }

    /** Equal module names; their hashes, kept by the strings, tell most others apart at once. */
    private static boolean same(String a, String b) {
        return a == b || a.hashCode() == b.hashCode() && a.equals(b);
    }

    private void addIfPlanned(List<String> ids, Step step, String name) {
        Plan.Change change = find(step, name);
        if (change != null) {
            ids.add(change.id());
        }
    }

    private Plan.Change find(Step step, String name) {
        StepChanges changes = steps[step.ordinal()];
        return changes == null ? null : changes.get(name);
    }

    private Plan.Change add(Step step, String name, List<String> actions, String reason, List<String> requires) {
        StepChanges changes = steps[step.ordinal()];
        if (changes == null) {
            changes = new StepChanges();
            steps[step.ordinal()] = changes;
            prefixes[step.ordinal()] = NodeChanges.id(node, step.kind, "");
        }
        Plan.Change change = new Plan.Change(prefixes[step.ordinal()] + name, node, actions, reason, requires);
        changes.put(name, change);
        return change;
    }

    /** The changes in step order, then by id; the runs among them; the count of each first action. */
    private NodeChanges result() {
        int count = 0;
        for (StepChanges changes : steps) {
            count += changes == null ? 0 : changes.size();
        }
        Plan.Change[] ordered = new Plan.Change[count];
        NodeChanges.Run[] runs = new NodeChanges.Run[size(Step.PREPARE) + size(Step.PROCESSES)];
        int running = 0;
        int[] counts = new int[NodeChanges.ACTIONS.size()];
        int at = 0;
        for (Step step : Step.ALL) {
            StepChanges changes = steps[step.ordinal()];
            if (changes == null) {
                continue;
            }
            changes.sort();
            ProcessCursor processes = step == Step.PREPARE || step == Step.PROCESSES ? new ProcessCursor() : null;
            for (int i = 0; i < changes.size(); i++) {
                Plan.Change change = changes.change(i);
                Declaration.Process process = processes == null ? null : processes.named(changes.name(i));
                if (process != null) {
                    runs[running++] = new NodeChanges.Run(at, change, process, step == Step.PROCESSES);
                }
                counts[NodeChanges.ACTIONS.indexOf(change.actions().getFirst())]++;
                ordered[at++] = change;
            }
        }
        return new NodeChanges(node, List.of(ordered), orphans,
                List.of(running == runs.length ? runs : Arrays.copyOf(runs, running)), counts);
    }

    private int size(Step step) {
        StepChanges changes = steps[step.ordinal()];
        return changes == null ? 0 : changes.size();
    }

    /** The new declaration's processes by name, the last of a name kept. */
    private Map<String, Declaration.Process> declared() {
        if (declared == null) {
            declared = index(after.processes(), Declaration.Process::name);
        }
        return declared;
    }

    /**
     * Finds the new declaration's process of each name asked, asked in name order. Why: the
     * processes mostly come sorted by name, each name once, so a walk along them finds each
     * without an index; otherwise {@link #declared()} does.
     */
    private final class ProcessCursor {
        private final List<Declaration.Process> processes = after.processes();
        private final boolean sorted = declared == null && sortedByName(processes);
        private int next;

        private Declaration.Process named(String name) {
            if (!sorted) {
                return declared().get(name);
            }
            while (next < processes.size() && processes.get(next).name().compareTo(name) < 0) {
                next++;
            }
            return next < processes.size() && processes.get(next).name().equals(name) ? processes.get(next)
                    : null;
        }
    }

    private static boolean sortedByName(List<Declaration.Process> processes) {
        for (int i = 1; i < processes.size(); i++) {
            if (processes.get(i - 1).name().compareTo(processes.get(i).name()) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static <T> Map<String, T> index(List<T> items, Function<T, String> key) {
        if (items.isEmpty()) {
            return Map.of();
        }
        Map<String, T> byKey = new HashMap<>();
        items.forEach(item -> byKey.put(key.apply(item), item));
        return byKey;
    }
}
