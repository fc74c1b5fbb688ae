package dev.mesh.controller.cli;

import dev.mesh.controller.mcp.McpClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client commands of the read verbs: {@code status}, {@code tools}, {@code nodes},
 * {@code node NAME}, {@code modules}, {@code seats}, {@code builds}. Lists print as tables, one
 * thing as {@code key: value} lines.
 */
final class ReadCommands {

    private ReadCommands() {
    }

    @Command(name = "status", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "The running controller's role, fencing epoch and since when, the controller it took "
                    + "over from, counts of the inventory and the current plan's summary; how it last took the plan "
                    + "lock (gap, lock wait), the verbs' calls and failures, and in a mesh the bus's counts.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Status extends ClientCommand {

        Status(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "status";
        }

        /**
         * Every field the controller answers, in its order: {@code plan} as its summary, {@code bus} as
         * its counts, an empty value (no previous holder, no active controller known) as {@code none},
         * other values as they are.
         */
        @Override
        void print(JsonNode result, PrintWriter out) {
            result.properties().forEach(field -> out.println(field.getKey() + ": " + text(field.getKey(),
                    field.getValue())));
        }

        private static String text(String name, JsonNode value) {
            if (name.equals("plan")) {
                return VerbText.summary(value);
            }
            if (name.equals("bus") && value.isObject()) {
                return bus(value);
            }
            if (name.equals("verbs") && value.isObject()) {
                return value.path("calls").asLong() + " calls, " + value.path("failed").asLong() + " failed";
            }
            if (name.equals("handover") && value.isObject()) {
                return handover(value);
            }
            String text = value.isValueNode() ? value.asString("") : value.toString();
            return text.isEmpty() ? "none" : text;
        }

        /** How the lock was last taken: {@code planned from ctl-a at T, gap 37 ms, lock wait 2 ms}. */
        private static String handover(JsonNode handover) {
            String from = handover.path("from").asString("");
            JsonNode gap = handover.path("gapMs");
            return handover.path("how").asString() + (from.isEmpty() ? "" : " from " + from) + " at "
                    + handover.path("at").asString() + ", gap " + (gap.isNumber() ? gap.asLong() + " ms" : "none")
                    + ", lock wait " + handover.path("lockWaitMs").asLong() + " ms";
        }

        /**
         * The bus's parts, {@code ; } between them: a count as {@code 1 dead}, a text as {@code broker ok},
         * a group as {@code facts 10 received, 10 written, 0 dropped, server nats://127.0.0.1:4222} — counts by
         * reason summed, a text or a yes/no after its name.
         */
        private static String bus(JsonNode bus) {
            List<String> parts = new ArrayList<>();
            bus.properties().forEach(part -> {
                JsonNode value = part.getValue();
                if (value.isObject()) {
                    List<String> counts = new ArrayList<>();
                    value.properties().forEach(count -> counts.add(count.getValue().isString()
                            || count.getValue().isBoolean() ? count.getKey() + " " + count.getValue().asString()
                            : total(count.getValue()) + " " + count.getKey()));
                    parts.add(part.getKey() + " " + String.join(", ", counts));
                } else if (value.isNumber()) {
                    parts.add(value.asLong() + " " + part.getKey());
                } else {
                    parts.add(part.getKey() + " " + (value.isNull() ? "unknown" : value.asString(value.toString())));
                }
            });
            return String.join("; ", parts);
        }

        private static long total(JsonNode count) {
            if (count.isObject()) {
                return count.valueStream().mapToLong(Status::total).sum();
            }
            return count.asLong();
        }
    }

    @Command(name = "tools", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "The running controller's verbs, with their arguments ([optional]).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Tools extends ClientCommand {

        Tools(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "tools";
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            Table table = Table.of("VERB", "ARGUMENTS", "DESCRIPTION");
            for (JsonNode tool : result.path("tools")) {
                JsonNode schema = tool.path("inputSchema");
                StringBuilder arguments = new StringBuilder();
                schema.path("properties").propertyNames().forEach(name -> {
                    boolean required = schema.path("required").valueStream().anyMatch(r -> r.asString("").equals(name));
                    arguments.append(arguments.isEmpty() ? "" : " ").append(required ? name : "[" + name + "]");
                });
                table.row(text(tool, "name"), arguments.isEmpty() ? "-" : arguments.toString(),
                        text(tool, "description"));
            }
            table.print(out, "The controller has no verbs.");
        }
    }

    @Command(name = "nodes", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Every node with its address, system and the seats it holds, in name order: the verb's "
                    + "pages followed one after the other, or one page with --limit.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Nodes extends ClientCommand {

        @Option(names = "--limit", paramLabel = "N", description = "Print one page of at most N nodes (1 to "
                + "1000) and, when more follow, the command that prints the next on standard error.")
        private Integer limit;

        @Option(names = "--after", paramLabel = "CURSOR", description = "Start after this cursor: the one a page "
                + "before gave (its more: line, or its next with --json).")
        private String after;

        Nodes(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "nodes";
        }

        @Override
        ObjectNode arguments() {
            ObjectNode arguments = super.arguments();
            if (limit != null) {
                arguments.put("limit", limit);
            }
            if (after != null) {
                arguments.put("after", after);
            }
            return arguments;
        }

        /**
         * One page with {@code --limit}; else every page from the first (or from {@code --after}), following
         * {@code next}, answered as one: the verb's answer of them all, without {@code next}.
         */
        @Override
        JsonNode call(McpClient client, ObjectNode arguments) {
            JsonNode page = super.call(client, arguments);
            if (limit != null) {
                return page;
            }
            ObjectNode all = JsonOutput.MAPPER.createObjectNode();
            ArrayNode nodes = all.putArray("nodes");
            page.path("nodes").forEach(nodes::add);
            while (page.path("next").isString()) {
                String next = page.path("next").asString();
                if (next.equals(arguments.path("after").asString(null))) {
                    throw new CommandException("the controller answered the cursor " + next + " with itself as "
                            + "the next; the nodes after it cannot be listed: report this as a bug of the controller");
                }
                page = super.call(client, arguments.put("after", next));
                page.path("nodes").forEach(nodes::add);
            }
            return all;
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            Table table = Table.of("NODE", "ADDRESS", "SYSTEM", "SEATS");
            result.path("nodes").forEach(node -> table.row(text(node, "name"), text(node, "address"),
                    text(node, "system"), list(node.path("seats"))));
            table.print(out, after == null ? "No nodes: a node reports itself when its host starts."
                    : "No nodes after that cursor.");
        }

        @Override
        void note(JsonNode result, PrintWriter err) {
            if (result.path("next").isString()) {
                err.println("more: mesh-controller nodes --limit " + limit + " --after " + result.path("next")
                        .asString());
            }
        }
    }

    @Command(name = "node", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "One node: its address and system, its modules and seats, the revision it acknowledged, "
                    + "and its new declaration or the problems that stop it.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1 + "; not-found for an unknown node",
                ClientCommand.EXIT_2, ClientCommand.EXIT_3})
    static final class Node extends ClientCommand {

        @Parameters(paramLabel = "NAME", description = "The node.")
        private String name;

        Node(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "node";
        }

        @Override
        ObjectNode arguments() {
            return super.arguments().put("name", name);
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            JsonNode node = result.path("node");
            out.println("node: " + text(node, "name"));
            out.println("address: " + text(node, "address"));
            out.println("system: " + text(node, "system"));
            out.println("modules: " + list(result.path("modules")));
            out.println("seats: " + list(result.path("seats")));
            String acknowledged = text(result, "acknowledged");
            out.println("acknowledged: " + (acknowledged.isEmpty() ? "none" : acknowledged));
            JsonNode declaration = result.path("declaration");
            JsonNode problems = result.path("problems");
            out.println("declaration: " + (declaration.isObject() ? text(declaration, "revision")
                    + (text(declaration, "revision").equals(acknowledged) ? " (acknowledged)" : " (not acknowledged yet)")
                    : "none (" + VerbText.count(problems.size(), "problem") + ")"));
            problems.forEach(problem -> out.println("  " + VerbText.problem(problem)));
        }
    }

    @Command(name = "modules", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "The latest pushed version of every module, with the seats it claims and requires.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Modules extends ClientCommand {

        Modules(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "modules";
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            Table table = Table.of("MODULE", "VERSION", "CLAIMS", "REQUIRES");
            for (JsonNode module : result.path("modules")) {
                StringBuilder claims = new StringBuilder();
                module.path("claims").forEach(claim -> claims.append(claims.isEmpty() ? "" : ", ")
                        .append(text(claim, "name")).append(" (").append(text(claim, "scope")).append(')'));
                table.row(text(module, "module"), text(module, "version"), claims.isEmpty() ? "-" : claims.toString(),
                        list(module.path("requires")));
            }
            table.print(out, "No modules: push a manifest with mesh-controller push FILE.");
        }
    }

    @Command(name = "seats", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Every claimed seat with the node and module holding it, then the seat conflicts.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Seats extends ClientCommand {

        Seats(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "seats";
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            Table table = Table.of("SEAT", "SCOPE", "NODE", "MODULE");
            result.path("seats").forEach(seat -> seat.path("holders").forEach(holder -> table.row(text(seat, "seat"),
                    text(holder, "scope"), text(holder, "node"), text(holder, "module"))));
            table.print(out, "No seats: no assigned module claims one.");
            JsonNode conflicts = result.path("conflicts");
            if (!conflicts.isEmpty()) {
                out.println();
                out.println("conflicts:");
                conflicts.forEach(problem -> out.println("  " + VerbText.problem(problem)));
            }
        }
    }

    @Command(name = "builds", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Builds needed by the current plan, requested, and done: one line per build with its "
                    + "states, and for a needed one the system and the nodes it is for.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the controller answered", ClientCommand.EXIT_1, ClientCommand.EXIT_2,
                ClientCommand.EXIT_3})
    static final class Builds extends ClientCommand {

        Builds(Map<String, String> env) {
            super(env);
        }

        @Override
        String verb() {
            return "builds";
        }

        @Override
        void print(JsonNode result, PrintWriter out) {
            Map<String, String[]> rows = new LinkedHashMap<>();
            result.path("needed").forEach(build -> rows.put(text(build, "id"), new String[] {text(build, "id"),
                "needed", text(build, "system"), list(build.path("nodes"))}));
            for (String state : new String[] {"requested", "built"}) {
                for (JsonNode id : result.path(state)) {
                    String[] row = rows.computeIfAbsent(id.asString(""), k -> new String[] {k, "", "-", "-"});
                    row[1] = row[1].isEmpty() ? state : row[1] + ", " + state;
                }
            }
            Table table = Table.of("BUILD", "STATE", "SYSTEM", "NODES");
            rows.values().forEach(row -> table.row(row[0], row[1], row[2], row[3]));
            table.print(out, "No builds: none is needed, requested or done.");
        }
    }
}
