package dev.mesh.controller.cli;

import dev.mesh.controller.core.Grants;
import dev.mesh.controller.core.settings.ConfigException;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.Suggestions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The commands that manage principals on the identity database (docs/design.md section 11):
 * {@code grant PRINCIPAL VERB…}, {@code revoke PRINCIPAL [VERB…]} and {@code principals}, on the
 * {@link Grants} the launcher opens from {@code MESH_STORE_IDENTITY_FILE} and {@code MESH_STORE_IDENTITY_PORT}
 * ({@link Opener}). Idempotent: each prints one line per change, or says that nothing had to change.
 *
 * <p>Before it connects, each checks its command line (principal, verb names); the opener then checks the
 * environment and, before anything is read or written, that the identity database's schema is the one this
 * controller carries ({@code prepare} first, as {@code serve} asks).
 */
public final class IdentityCommands {

    private static final String EXIT_0 = "0:done (also when nothing had to change)";
    private static final String EXIT_1 = "1:the identity database could not be reached, or its schema is not this "
            + "controller's (the line says why and what to run)";
    private static final String EXIT_2 = "2:the command line (an unknown verb) or the environment is wrong";

    private IdentityCommands() {
    }

    /** Opens the identity store's grants: what the launcher, which holds the store, hands the commands. */
    @FunctionalInterface
    public interface Opener {

        /**
         * Reads the store's configuration from {@code env}, prints its warnings on {@code err}, and checks that
         * the schema is this controller's.
         *
         * @param env the environment
         * @param err where warnings go
         * @return the grants, ready to read and write
         * @throws ConfigException when the environment is wrong
         * @throws dev.mesh.controller.manifest.MeshException when the store cannot be reached or its schema is
         *     not this controller's (the message says what to run)
         */
        Grants open(Map<String, String> env, PrintWriter err);
    }

    /** What the three commands share: the checks, in order, and the grants they work on. */
    abstract static class OnIdentity implements Callable<Integer> {

        private final Map<String, String> env;
        private final Opener opener;

        @Spec
        CommandSpec spec;

        OnIdentity(Map<String, String> env, Opener opener) {
            this.env = Objects.requireNonNull(env, "env");
            this.opener = Objects.requireNonNull(opener, "opener");
        }

        @Override
        public final Integer call() {
            checkArguments();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Grants grants = opener.open(env, err);
            err.flush();
            run(grants, out);
            out.flush();
            return 0;
        }

        /** @throws ParameterException when the command line is wrong */
        abstract void checkArguments();

        /** Does the work on a migrated identity database, printing one line per change. */
        abstract void run(Grants identity, PrintWriter out);

        /** A principal is a broker user name: not empty, no space or control character, at most 255 characters. */
        final void checkPrincipal(String principal) {
            if (principal.isEmpty() || principal.length() > 255 || principal.codePoints()
                    .anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
                throw new ParameterException(spec.commandLine(), "PRINCIPAL \"" + principal + "\" is not a principal: "
                        + "give the user name a caller connects to the broker with (1 to 255 characters, no space), "
                        + "such as n1");
            }
        }

        /** Every unknown verb, one line each, with the closest verb and the list. */
        final void checkVerbs(List<String> verbs) {
            List<String> known = Verbs.names();
            List<String> lines = new ArrayList<>();
            for (String verb : verbs.stream().distinct().toList()) {
                if (!known.contains(verb)) {
                    lines.add("\"" + verb + "\" is not a verb" + Suggestions.hint(verb, known).map(hint -> " (" + hint
                            + ")").orElse("") + "; the verbs are: " + String.join(", ", known));
                }
            }
            if (!lines.isEmpty()) {
                throw new ParameterException(spec.commandLine(), String.join("\n", lines));
            }
        }
    }

    @Command(name = "grant", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Grants verbs to a principal on the identity database (MESH_STORE_IDENTITY_{FILE,PORT}), "
                    + "adding the principal when it is new; one line per verb: granted, or already granted.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {EXIT_0, EXIT_1, EXIT_2})
    public static final class Grant extends OnIdentity {

        @Parameters(index = "0", paramLabel = "PRINCIPAL", description = "Who: the user a caller connects to the "
                + "broker as (a node's host: the node's name).")
        private String principal;

        @Parameters(index = "1..*", arity = "1..*", paramLabel = "VERB", description = "The verbs it may call.")
        private List<String> verbs;

        /**
         * @param env the environment the opener reads
         * @param opener opens the identity store
         */
        public Grant(Map<String, String> env, Opener opener) {
            super(env, opener);
        }

        @Override
        void checkArguments() {
            checkPrincipal(principal);
            checkVerbs(verbs);
        }

        @Override
        void run(Grants identity, PrintWriter out) {
            if (identity.enroll(principal)) {
                out.println("added principal " + principal);
            }
            List<String> wanted = verbs.stream().distinct().toList();
            List<String> granted = identity.grant(principal, wanted.toArray(String[]::new));
            wanted.forEach(verb -> out.println((granted.contains(verb) ? "granted " : "already granted ") + principal
                    + " " + verb));
            if (find(identity, principal).filter(Grants.Principal::disabled).isPresent()) {
                out.println(principal + " is disabled: it may call no verb, whatever its grants");
            }
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Takes verbs from a principal on the identity database (MESH_STORE_IDENTITY_{FILE,PORT}); "
                    + "without a verb, every verb it has. One line per verb: revoked, or not granted. The principal "
                    + "stays known, with no grant.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {EXIT_0, EXIT_1, EXIT_2})
    public static final class Revoke extends OnIdentity {

        @Parameters(index = "0", paramLabel = "PRINCIPAL", description = "Who.")
        private String principal;

        @Parameters(index = "1..*", arity = "0..*", paramLabel = "VERB", description = "The verbs to take; none: "
                + "every verb.")
        private List<String> verbs = new ArrayList<>();

        /**
         * @param env the environment the opener reads
         * @param opener opens the identity store
         */
        public Revoke(Map<String, String> env, Opener opener) {
            super(env, opener);
        }

        @Override
        void checkArguments() {
            checkPrincipal(principal);
            checkVerbs(verbs);
        }

        @Override
        void run(Grants identity, PrintWriter out) {
            List<Grants.Principal> principals = identity.principals();
            if (principals.stream().noneMatch(known -> known.name().equals(principal))) {
                out.println("unknown principal " + principal + "; nothing to revoke" + Suggestions.hint(principal,
                        principals.stream().map(Grants.Principal::name).toList()).map(hint -> " (" + hint + ")")
                        .orElse(""));
                return;
            }
            if (verbs.isEmpty()) {
                List<String> revoked = identity.revokeAll(principal);
                revoked.forEach(verb -> out.println("revoked " + principal + " " + verb));
                if (revoked.isEmpty()) {
                    out.println("no grant to revoke from " + principal);
                }
                return;
            }
            for (String verb : verbs.stream().distinct().toList()) {
                out.println((identity.revoke(principal, verb) ? "revoked " : "not granted ") + principal + " " + verb);
            }
        }
    }

    @Command(name = "principals", mixinStandardHelpOptions = true, versionProvider = JarVersion.class,
            description = "Lists the principals of the identity database (MESH_STORE_IDENTITY_{FILE,PORT}), sorted, "
                    + "each with its state and its verbs, sorted.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:listed", EXIT_1, "2:the command line or the environment is wrong"})
    public static final class Principals extends OnIdentity {

        /**
         * @param env the environment the opener reads
         * @param opener opens the identity store
         */
        public Principals(Map<String, String> env, Opener opener) {
            super(env, opener);
        }

        @Override
        void checkArguments() {
            // Nothing on the command line.
        }

        @Override
        void run(Grants identity, PrintWriter out) {
            List<Grants.Principal> principals = identity.principals();
            if (principals.isEmpty()) {
                out.println("No principals: grant a verb with mesh-controller grant PRINCIPAL VERB…");
                return;
            }
            int name = Math.max("PRINCIPAL".length(), principals.stream().mapToInt(p -> p.name().length()).max()
                    .orElse(0));
            int state = "disabled".length();
            out.println(row(name, state, "PRINCIPAL", "STATE", "VERBS"));
            principals.forEach(p -> out.println(row(name, state, p.name(), p.disabled() ? "disabled" : "enabled",
                    p.verbs().isEmpty() ? "-" : String.join(", ", p.verbs()))));
        }

        private static String row(int name, int state, String principal, String enabled, String verbs) {
            return String.format("%-" + name + "s  %-" + state + "s  %s", principal, enabled, verbs);
        }
    }

    private static Optional<Grants.Principal> find(Grants identity, String principal) {
        return identity.principals().stream().filter(known -> known.name().equals(principal)).findFirst();
    }
}
