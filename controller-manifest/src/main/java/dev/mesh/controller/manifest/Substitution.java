package dev.mesh.controller.manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Resolves a manifest's templates against {@link Bindings}: the node being composed, seat holders
 * and layout roots. Every reference resolves to a value with its {@link Provenance}, or to a
 * located problem; never to an empty string.
 *
 * <p>Immutable and thread-safe as long as the bindings are.
 */
public final class Substitution {

    private final Manifest manifest;
    private final Bindings bindings;

    private Substitution(Manifest manifest, Bindings bindings) {
        this.manifest = Objects.requireNonNull(manifest, "manifest");
        this.bindings = Objects.requireNonNull(bindings, "bindings");
    }

    /**
     * @param manifest the manifest whose templates are resolved (its directories, secrets and facts)
     * @param bindings what the node being composed sees
     * @return a substitution for that manifest on that node
     */
    public static Substitution of(Manifest manifest, Bindings bindings) {
        return new Substitution(manifest, bindings);
    }

    /**
     * Resolves one template of the manifest.
     *
     * @param template a template of the manifest given to {@link #of}
     * @return the value and its provenance, or the problems of the references that did not resolve
     *     ({@code unresolved-seat}, {@code unresolved-reference})
     */
    public Resolution resolve(Template template) {
        return resolve(template, true);
    }

    private Resolution resolve(Template template, boolean secretsAllowed) {
        StringBuilder value = new StringBuilder();
        List<Provenance> provenance = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (Segment segment : template.segments()) {
            switch (segment) {
                case Segment.Literal literal -> value.append(literal.text());
                case Reference reference -> {
                    Resolution part = reference(template, reference, secretsAllowed);
                    switch (part) {
                        case Resolution.Resolved resolved -> {
                            value.append(resolved.value());
                            provenance.addAll(resolved.provenance());
                        }
                        case Resolution.Unresolved unresolved -> problems.addAll(unresolved.problems());
                    }
                }
            }
        }
        return problems.isEmpty()
                ? new Resolution.Resolved(value.toString(), provenance)
                : new Resolution.Unresolved(problems);
    }

    private Resolution reference(Template template, Reference reference, boolean secretsAllowed) {
        Location at = template.locationOf(reference);
        return switch (reference) {
            case Reference.Dir dir -> manifest.directory(dir.id())
                    .<Resolution>map(d -> resolved(template, dir, bindings.layout().pathOf(manifest.module(), d), null))
                    .orElseGet(() -> unresolved(at, dir.text() + " in module " + manifest.module() + " names no "
                            + "directory resource of that module; declare a directory with id \"" + dir.id() + "\""));
            case Reference.Seat seat -> {
                Optional<SeatHolder> holder = bindings.holder(seat.seat());
                yield holder.<Resolution>map(h -> resolved(template, seat, h.address() + ":" + seat.port(), h.node()))
                        .orElseGet(() -> new Resolution.Unresolved(List.of(Problem.error("unresolved-seat",
                                "no node holds the seat \"" + seat.seat() + "\" that " + seat.text() + " in module "
                                        + manifest.module() + " needs on node " + bindings.node().name()
                                        + "; assign a module that claims \"" + seat.seat() + "\" (to this node, if the "
                                        + "seat has scope node)", at))));
            }
            case Reference.Secret secret -> secret(template, secret, at, secretsAllowed);
            case Reference.NodeFact fact -> resolved(template, fact, switch (fact.fact()) {
                case NAME -> bindings.node().name();
                case ADDRESS -> bindings.node().address();
                case SYSTEM -> bindings.node().system();
            }, null);
            case Reference.ModuleFact fact -> resolved(template, fact, switch (fact.fact()) {
                case NAME -> manifest.module();
                case VERSION -> manifest.version();
                case SLUG -> manifest.slug();
            }, null);
        };
    }

    private Resolution secret(Template template, Reference.Secret secret, Location at, boolean secretsAllowed) {
        Template path = manifest.ownSecrets().get(secret.name());
        if (path == null || !secretsAllowed) {
            return unresolved(at, secret.text() + " in module " + manifest.module() + (path == null
                    ? " names no secret of that module; add \"" + secret.name() + "\" to its own-secrets"
                    : " is inside an own-secrets value, where secrets cannot refer to secrets"));
        }
        return switch (resolve(path, false)) {
            case Resolution.Resolved resolved -> resolved(template, secret, resolved.value(), null);
            case Resolution.Unresolved unresolved -> unresolved;
        };
    }

    private Resolution.Resolved resolved(Template template, Reference reference, String value, String holder) {
        return new Resolution.Resolved(value, List.of(new Provenance(manifest.module(), template.locationOf(reference),
                reference.text(), value, holder)));
    }

    private static Resolution.Unresolved unresolved(Location at, String message) {
        return new Resolution.Unresolved(List.of(Problem.error("unresolved-reference", message, at)));
    }
}
