package dev.mesh.controller.core.verbs;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Events;
import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.Licences;
import dev.mesh.controller.core.Lifecycle;
import dev.mesh.controller.core.Plan;
import dev.mesh.controller.core.RequestRecords;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.VerbCalls;
import dev.mesh.controller.core.Wire;
import dev.mesh.controller.core.plan.IncrementalPlanner;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.MeshException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The twelve verbs of docs/design.md section 7, as tools with JSON Schemas, handled against core's
 * ports. One instance serves every transport. Read verbs never wait for the plan lock; mutating
 * verbs pass the {@link Lifecycle} gate: they run only while this controller is active and holds
 * the lock.
 *
 * <p>Thread-safe as long as the ports are.
 */
public final class Verbs {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final List<Tool> TOOLS = load();

    private final Ports ports;
    private final Inventory inventory;
    private final Lifecycle lifecycle;
    private final RequestRecords records;
    /** The events of a mutating request, told only once its changes took effect. */
    private final DeferredEvents events;
    private final Changes changes;
    /** Plans for {@code plan} and {@code status}: a verb after a small change recomposes only what it touched. */
    private final IncrementalPlanner planner = new IncrementalPlanner();
    /** What {@code status} answers; renewed by {@link #refresh()} and by every verb that plans. */
    private volatile StatusSnapshot status = StatusSnapshot.NONE;
    /** What {@code status} tells of the transports; read by {@link #refresh()} alone. */
    private volatile Map<String, Object> wire = Map.of();

    /**
     * What the verbs are handled against: every part given, none defaulted.
     *
     * @param inventory the record of the mesh
     * @param licences the modules' licences, which {@code assign} enforces ({@link Licences#NONE} for none)
     * @param lifecycle the gate mutating verbs pass: they run only while this controller is active
     * @param events where changes are told
     * @param requests where mutating requests' outcomes are kept by request id ({@link RequestRecords#NONE}
     *     to keep none)
     * @param layout the directory roots of the mesh
     * @param clock what a licence's expiry, {@code status}'s {@code asOf} and whether a node is silent
     *     are read from
     * @param wire what the transports counted, for {@code status}'s {@code bus} ({@link Wire#NONE} for no
     *     broker and no bus)
     * @param calls where the dispatcher counts the verbs' calls, and {@code status} reads them
     *     ({@link VerbCalls#NONE} to count none)
     */
    public record Ports(Inventory inventory, Licences licences, Lifecycle lifecycle, Events events,
            RequestRecords requests, Layout layout, Clock clock, Wire wire, VerbCalls calls) {

        /** Checks that every part is given. */
        public Ports {
            Objects.requireNonNull(inventory, "inventory");
            Objects.requireNonNull(licences, "licences");
            Objects.requireNonNull(lifecycle, "lifecycle");
            Objects.requireNonNull(events, "events");
            Objects.requireNonNull(requests, "requests");
            Objects.requireNonNull(layout, "layout");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(wire, "wire");
            Objects.requireNonNull(calls, "calls");
        }

        /**
         * The ports of a controller whose verbs' calls are not counted ({@link VerbCalls#NONE}).
         *
         * @param inventory the record of the mesh
         * @param licences the modules' licences
         * @param lifecycle the gate mutating verbs pass
         * @param events where changes are told
         * @param requests where mutating requests' outcomes are kept by request id
         * @param layout the directory roots of the mesh
         * @param clock where time is read from
         * @param wire what the transports counted
         */
        public Ports(Inventory inventory, Licences licences, Lifecycle lifecycle, Events events,
                RequestRecords requests, Layout layout, Clock clock, Wire wire) {
            this(inventory, licences, lifecycle, events, requests, layout, clock, wire, VerbCalls.NONE);
        }

        /**
         * @param calls where the verbs' calls are counted
         * @return these ports with {@code calls}
         */
        public Ports withCalls(VerbCalls calls) {
            return new Ports(inventory, licences, lifecycle, events, requests, layout, clock, wire, calls);
        }

        /**
         * The ports of a controller without transports to count ({@link Wire#NONE}): the development
         * controller, the tests and the benchmarks.
         *
         * @param inventory the record of the mesh
         * @param licences the modules' licences
         * @param lifecycle the gate mutating verbs pass
         * @param events where changes are told
         * @param requests where mutating requests' outcomes are kept by request id
         * @param layout the directory roots of the mesh
         * @param clock where time is read from
         */
        public Ports(Inventory inventory, Licences licences, Lifecycle lifecycle, Events events,
                RequestRecords requests, Layout layout, Clock clock) {
            this(inventory, licences, lifecycle, events, requests, layout, clock, Wire.NONE);
        }
    }

    private Verbs(Ports ports) {
        this.ports = ports;
        this.inventory = ports.inventory();
        this.lifecycle = ports.lifecycle();
        this.records = ports.requests();
        this.events = new DeferredEvents(ports.events());
        this.changes = new Changes(inventory, ports.licences(), events, ports.clock());
    }

    /**
     * @param ports what the verbs are handled against
     * @return the verbs over those ports
     */
    public static Verbs of(Ports ports) {
        return new Verbs(Objects.requireNonNull(ports, "ports"));
    }

    /**
     * @param verb a verb's name
     * @return whether it changes the inventory ({@code assign}, {@code unassign}, {@code push},
     *     {@code build}): such a verb runs only while this controller is active, and a request id
     *     makes it idempotent
     */
    public static boolean mutates(String verb) {
        return Tool.mutates(verb);
    }

    /**
     * @return the name of every verb, in the order of {@link #tools()}: what an identity grant may
     *     name
     */
    public static List<String> names() {
        return TOOLS.stream().map(Tool::name).toList();
    }

    /** @return where the calls of these verbs are counted: the dispatchers over them tell it each call */
    public VerbCalls calls() {
        return ports.calls();
    }

    /** @return every verb as a tool, in a stable order */
    public List<Tool> tools() {
        return TOOLS;
    }

    /**
     * Calls a verb, with no request id: a mutating verb runs each time it is called.
     *
     * @param name the verb
     * @param arguments its arguments, an object (a missing argument object is an empty one)
     * @return the structured result
     * @throws VerbException with a stable code and, for a bad argument, its pointer
     */
    public JsonNode call(String name, JsonNode arguments) {
        try {
            JsonNode args = arguments(name, arguments);
            return Tool.mutates(name) ? lifecycle.whileActive(() -> run(name, args)) : run(name, args);
        } catch (MeshException e) {
            throw VerbException.from(e);
        }
    }

    /**
     * Calls a verb on behalf of a principal. A mutating verb with a request id runs at most once:
     * calling it again with the same id, principal, verb and arguments returns the recorded result
     * (or throws the recorded error) and changes nothing; the same id with anything else is a
     * {@code conflict}. Read verbs are answered afresh every time.
     *
     * @param requestId the request's id, or {@code null} for none
     * @param principal who calls (checked by the transport against {@link Identity})
     * @param name the verb
     * @param arguments its arguments, an object
     * @return the structured result
     * @throws VerbException with a stable code and, for a bad argument, its pointer
     */
    public JsonNode call(String requestId, String principal, String name, JsonNode arguments) {
        if (requestId == null || !Tool.mutates(name)) {
            return call(name, arguments);
        }
        try {
            JsonNode args = arguments(name, arguments);
            String digest = CanonicalJson.digest(MAPPER.treeToValue(args, Object.class));
            return lifecycle.whileActive(() -> once(requestId, principal, name, args, digest));
        } catch (MeshException e) {
            throw VerbException.from(e);
        }
    }

    /**
     * Runs a mutating verb unless its request ran before. A failure to do with the request itself
     * is recorded, so a repeat gets it again; {@code unavailable} is not (the store, the lock or the
     * broker failed, and a repeat once they are back must run), nor is any failure of another
     * category, which the caller maps to {@code unavailable}.
     */
    private JsonNode once(String requestId, String principal, String name, JsonNode args, String digest) {
        Optional<RequestRecords.Recorded> earlier = records.find(requestId);
        if (earlier.isPresent()) {
            return replay(earlier.get(), principal, name, digest);
        }
        try {
            // The changes and their record take effect together (one transaction in the store), and the
            // events are told after: a round the executor starts for them must find the changes there.
            JsonNode result = events.deferred(() -> records.atomically(() -> {
                JsonNode ran = run(name, args);
                records.record(new RequestRecords.Recorded(requestId, principal, name, digest, ran, false));
                return ran;
            }));
            return result;
        } catch (VerbException e) {
            // Recorded on its own: the request's changes, if any, were undone with its transaction.
            if (e.code() != VerbException.Code.UNAVAILABLE) {
                records.record(new RequestRecords.Recorded(requestId, principal, name, digest, MAPPER.valueToTree(
                        Map.of("code", e.code().label(), "message", e.getMessage(), "pointer", e.pointer())), true));
            }
            throw e;
        }
    }

    private static JsonNode replay(RequestRecords.Recorded earlier, String principal, String name, String digest) {
        if (!earlier.principal().equals(principal) || !earlier.verb().equals(name)
                || !earlier.argumentsDigest().equals(digest)) {
            throw new VerbException(VerbException.Code.CONFLICT, "request id " + earlier.requestId() + " was used "
                    + "before for another call (" + earlier.verb() + " by " + earlier.principal() + "); give every "
                    + "request its own id", "");
        }
        if (earlier.error()) {
            JsonNode error = earlier.result();
            throw new VerbException(VerbException.Code.of(error.path("code").asString()),
                    error.path("message").asString(), error.path("pointer").asString());
        }
        return earlier.result();
    }

    private static JsonNode arguments(String name, JsonNode arguments) {
        JsonNode args = arguments == null || arguments.isNull() ? MAPPER.createObjectNode() : arguments;
        if (!args.isObject()) {
            throw new VerbException(VerbException.Code.INVALID, "the arguments of " + name + " must be an object", "");
        }
        Arguments.check(TOOLS, name, args);
        return args;
    }

    /** Runs a verb; the caller holds the plan lock for a mutating one. */
    private JsonNode run(String name, JsonNode args) {
        Object result = switch (name) {
            case "tools" -> Map.of("tools", TOOLS);
            case "status" -> status();
            case "nodes" -> Reads.nodes(state(), after(args), Arguments.integer(args, "limit", Reads.PAGE),
                    ports.clock().instant());
            case "node" -> Reads.node(state(), Arguments.text(args, "name"), ports.clock().instant());
            case "modules" -> Reads.modules(inventory.modules());
            case "seats" -> Reads.seats(state());
            case "builds" -> Reads.builds(inventory, state());
            case "plan" -> Reads.plan(planned(), ports.clock().instant());
            case "assign" -> assign(Arguments.text(args, "module"), Arguments.text(args, "node"));
            case "unassign" -> unassign(Arguments.text(args, "module"), Arguments.text(args, "node"));
            case "push" -> refreshing(changes.push(Arguments.document(args, "manifest")));
            case "build" -> changes.build(Arguments.text(args, "module"), Arguments.optionalText(args, "artifact"));
            default -> throw new VerbException(VerbException.Code.NOT_FOUND, "there is no verb \"" + name
                    + "\"; the verbs are " + String.join(", ", TOOLS.stream().map(Tool::name).toList()), "");
        };
        return result instanceof JsonNode tree ? tree : MAPPER.valueToTree(result);
    }

    /** @return the node name {@code nodes}' cursor {@code after} names, or {@code ""} for none: from the first */
    private static String after(JsonNode args) {
        String cursor = Arguments.optionalText(args, "after");
        return cursor == null ? "" : Cursor.name(cursor, "after");
    }

    private State state() {
        return State.of(inventory, ports.layout(), planner);
    }

    /**
     * Reads the whole inventory and plans it, so that {@code status} tells the counts and the plan
     * as of now, or that the store did not answer; then reads the {@link Wire}'s counts. The
     * controller calls it every few seconds, for what changes without a verb (nodes reporting,
     * declarations acknowledged, messages dead-lettered); every verb that plans renews the inventory's
     * part too, never the wire's. Never throws for a store that fails: {@code status} says so.
     *
     * @return the answer {@code status} gives from now on
     */
    public JsonNode refresh() {
        renew();
        // Not Map.copyOf: the wire's order is the order shown, and a value may be null.
        wire = Collections.unmodifiableMap(new LinkedHashMap<>(ports.wire().counts()));
        return MAPPER.valueToTree(answer());
    }

    /** Renews {@code status}'s snapshot; a store that fails is what the snapshot then says. */
    private void renew() {
        try {
            planned();
        } catch (MeshException e) {
            status = status.unavailable(e.getMessage(), ports.clock().instant());
        }
    }

    /** @return a state whose plan is computed, remembered for {@code status} */
    private State planned() {
        State state = state();
        state.plan();
        status = StatusSnapshot.of(state, ports.clock().instant());
        return state;
    }

    private Map<String, Object> status() {
        if (status == StatusSnapshot.NONE) {
            refresh();
        }
        return answer();
    }

    private Map<String, Object> answer() {
        return status.answer(lifecycle.status(), lifecycle.lastTaking(), ports.calls().tally(), wire);
    }

    private <T> T refreshing(T result) {
        renew();
        return result;
    }

    private Map<String, Object> assign(String module, String node) {
        boolean changed = changes.assign(state(), module, node);
        return changed(changed, "assign", Map.of("module", module, "node", node));
    }

    private Map<String, Object> unassign(String module, String node) {
        boolean changed = changes.unassign(module, node);
        return changed(changed, "unassign", Map.of("module", module, "node", node));
    }

    /** Plans after a change, telling the plan's summary as an event when something changed. */
    private Map<String, Object> changed(boolean changed, String verb, Map<String, Object> what) {
        Plan plan = planned().plan();
        if (changed) {
            Map<String, Object> payload = new LinkedHashMap<>(what);
            payload.put("verb", verb);
            payload.put("summary", plan.summary());
            events.publish("plan", payload);
        }
        return Map.of("changed", changed, "summary", plan.summary());
    }

    /**
     * A verb's output schema as published: its result or, for a failure (a tool result with
     * {@code isError}), the error {@code {code, message, pointer}}, so that a client that checks
     * structured content against the schema accepts both.
     */
    private static JsonNode resultOrError(JsonNode result, JsonNode error) {
        ObjectNode schema = MAPPER.createObjectNode().put("type", "object");
        schema.putArray("anyOf").add(result).add(error);
        return schema;
    }

    private static List<Tool> load() {
        try (InputStream in = Verbs.class.getResourceAsStream("verbs.json")) {
            List<Tool> tools = new ArrayList<>();
            JsonNode error = MAPPER.readTree(Objects.requireNonNull(Verbs.class.getResourceAsStream("verb-error.json"),
                    "verb-error.json is packaged with core"));
            for (JsonNode tool : MAPPER.readTree(Objects.requireNonNull(in, "verbs.json is packaged with core"))) {
                tools.add(new Tool(tool.path("name").asString(), tool.path("description").asString(),
                        tool.path("inputSchema"), resultOrError(tool.path("outputSchema"), error)));
            }
            return List.copyOf(tools);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the verbs packaged with controller-core", e);
        }
    }
}
