package dev.mesh.controller.cli;

import dev.mesh.controller.core.settings.ConfigException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mesh-controller prepare}: migrates the three store databases to the schema this controller carries, then
 * declares the broker's topology (docs/design.md sections 8 and 11), on what the launcher, which holds the store
 * and the broker, opens from the environment ({@link Opener}). Idempotent: a second run changes nothing and says
 * so. Each part is tried even when one before it failed, so one run reports the state of every database and of
 * the broker.
 */
@Command(name = "prepare",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "Migrates the store's databases (inventory, identity, licences) to this controller's "
                + "schema, as configured by MESH_STORE_{INVENTORY,IDENTITY,LICENCES}_{FILE,PORT}, then declares "
                + "the broker's queues and exchanges (MESH_BROKER_ADDRESS_{FILE,PORT}, MESH_BROKER_CERTIFICATE). "
                + "Safe to run again: a database already up to date, and a queue or exchange already declared "
                + "with the same arguments, are left alone.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every database is up to date and the broker's topology is declared",
            "1:a database could not be migrated, or the broker's topology could not be declared (the broker "
                    + "does not answer, or a queue exists with other arguments); the lines say why",
            "2:the command line or the environment is wrong"})
public final class PrepareCommand implements Callable<Integer> {

    /** Opens what {@code prepare} works on from the environment: the launcher's, which holds the store and the broker. */
    @FunctionalInterface
    public interface Opener {

        /**
         * Reads the configuration {@code prepare} needs from {@code env} and prints its warnings on {@code err}.
         *
         * @param env the environment
         * @param err where warnings go
         * @return the parts to prepare, not touched yet
         * @throws ConfigException when the environment is wrong
         */
        Parts open(Map<String, String> env, PrintWriter err);
    }

    /**
     * The parts, each done when called.
     *
     * @param databases the store's databases, in order
     * @param broker declares the broker's topology
     */
    public record Parts(List<Part<Migrated>> databases, Part<Declared> broker) {

        /** Copies the list. */
        public Parts {
            databases = List.copyOf(databases);
            Objects.requireNonNull(broker, "broker");
        }
    }

    /**
     * One part of the preparation.
     *
     * @param <T> what it reports when done
     */
    @FunctionalInterface
    public interface Part<T> {

        /**
         * Does it.
         *
         * @return what was done
         * @throws Refused when it could not be done, with the lines that say why
         */
        T run();
    }

    /**
     * A database migrated, or found up to date.
     *
     * @param text what was done, naming the database: one line per migration applied, or that it was up to date
     * @param changed whether a migration was applied
     */
    public record Migrated(String text, boolean changed) {
    }

    /**
     * The broker's topology declared.
     *
     * @param vhost the virtual host
     * @param created what was created: {@code queue NAME} and {@code exchange NAME}
     * @param found what was there already, with the controller's arguments
     */
    public record Declared(String vhost, List<String> created, List<String> found) {

        /** Copies the lists. */
        public Declared {
            Objects.requireNonNull(vhost, "vhost");
            created = List.copyOf(created);
            found = List.copyOf(found);
        }
    }

    /** A part that could not be done: its first line follows the part's name, each other one stands alone. */
    public static final class Refused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final String part;
        private final transient List<String> lines;

        /**
         * @param part what could not be done, e.g. {@code inventory} or {@code broker}
         * @param lines why, at least one line
         */
        public Refused(String part, List<String> lines) {
            super(part + ": " + String.join("; ", lines));
            if (lines.isEmpty()) {
                throw new IllegalArgumentException("a refusal says why");
            }
            this.lines = List.copyOf(lines);
            this.part = part;
        }

        void printTo(PrintWriter err) {
            err.println("mesh-controller: " + part + ": " + lines.getFirst());
            lines.subList(1, lines.size()).forEach(err::println);
        }
    }

    private final Map<String, String> env;
    private final Opener opener;

    @Spec
    private CommandSpec spec;

    /**
     * @param env the environment
     * @param opener what opens the parts from it
     */
    public PrepareCommand(Map<String, String> env, Opener opener) {
        this.env = Objects.requireNonNull(env, "env");
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    /**
     * Runs {@code mesh-controller prepare}, the whole command line, without picocli: a host runs it before each new
     * version's {@code serve}, beside the version that serves, and picocli's classes are too old a class file
     * version for the ahead-of-time cache, so they would be loaded and verified at every start. Any other command
     * line (an option: {@code --help}) is left to picocli.
     *
     * @param args the command line
     * @param env the environment
     * @param opener what opens the parts from it
     * @param out where the report goes
     * @param err where warnings and failures go
     * @return the exit code; empty when {@code args} is not {@code prepare} alone
     */
    public static OptionalInt direct(String[] args, Map<String, String> env, Opener opener, PrintWriter out,
            PrintWriter err) {
        if (args.length != 1 || !args[0].equals("prepare")) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(new PrepareCommand(env, opener).run(out, err));
        } catch (RuntimeException failure) {
            // Its exit code for input it refuses, as picocli's.
            return OptionalInt.of(Failures.of(failure, 2).printTo(err));
        }
    }

    @Override
    public Integer call() {
        return run(spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    private int run(PrintWriter out, PrintWriter err) {
        Parts parts = opener.open(env, err);
        int failed = 0;
        int changed = 0;
        for (Part<Migrated> database : parts.databases()) {
            try {
                Migrated migrated = database.run();
                out.println(migrated.text());
                changed += migrated.changed() ? 1 : 0;
            } catch (Refused e) {
                e.printTo(err);
                failed++;
            }
        }
        BrokerStep broker = declare(parts.broker(), out, err);
        out.println(summary(failed, parts.databases().size(), changed, broker));
        out.flush();
        err.flush();
        return failed > 0 || broker == BrokerStep.FAILED ? 1 : 0;
    }

    /** Declares the broker's topology and prints one line: what was created, or that it was all there. */
    private static BrokerStep declare(Part<Declared> broker, PrintWriter out, PrintWriter err) {
        try {
            Declared declared = broker.run();
            out.println(text(declared));
            return declared.created().isEmpty() ? BrokerStep.FOUND : BrokerStep.DECLARED;
        } catch (Refused e) {
            e.printTo(err);
            return BrokerStep.FAILED;
        }
    }

    /**
     * @param declared the broker's topology, declared
     * @return e.g. {@code broker: topology declared in virtual host mesh (created 3 queues and 3 exchanges)}
     */
    public static String text(Declared declared) {
        String where = "in virtual host " + declared.vhost();
        if (declared.created().isEmpty()) {
            return "broker: topology already declared " + where + " (" + kinds(declared.found()) + ")";
        }
        return "broker: topology declared " + where + " (created " + kinds(declared.created())
                + (declared.found().isEmpty() ? "" : "; " + kinds(declared.found()) + " already there") + ")";
    }

    /** @return e.g. {@code 3 queues and 1 exchange}, from {@code queue NAME} and {@code exchange NAME} entries */
    private static String kinds(List<String> entries) {
        long queues = entries.stream().filter(entry -> entry.startsWith("queue ")).count();
        long exchanges = entries.size() - queues;
        List<String> parts = new ArrayList<>();
        if (queues > 0) {
            parts.add(queues + (queues == 1 ? " queue" : " queues"));
        }
        if (exchanges > 0) {
            parts.add(exchanges + (exchanges == 1 ? " exchange" : " exchanges"));
        }
        return String.join(" and ", parts);
    }

    private static String summary(int failed, int databases, int changed, BrokerStep broker) {
        if (failed > 0 || broker == BrokerStep.FAILED) {
            List<String> parts = new ArrayList<>();
            if (failed > 0) {
                parts.add(failed + " of " + databases + " databases");
            }
            if (broker == BrokerStep.FAILED) {
                parts.add("the broker's topology");
            }
            return String.join(" and ", parts) + " could not be prepared";
        }
        if (changed == 0 && broker == BrokerStep.FOUND) {
            return "nothing to do: every database was up to date and the broker's topology was declared already";
        }
        return "prepared: " + changed + " of " + databases + " databases migrated, the broker's topology "
                + (broker == BrokerStep.DECLARED ? "declared" : "already declared");
    }

    /** What became of the broker's topology. */
    private enum BrokerStep {
        /** Something was created. */
        DECLARED,
        /** All of it was there, with the controller's arguments. */
        FOUND,
        /** It could not be declared: the broker did not answer, or refused a declaration. */
        FAILED
    }
}
