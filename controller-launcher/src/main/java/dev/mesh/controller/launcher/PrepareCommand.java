package dev.mesh.controller.launcher;

import dev.mesh.controller.bus.Broker;
import dev.mesh.controller.bus.BusException;
import dev.mesh.controller.bus.Topology;
import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.MigrationReport;
import dev.mesh.controller.store.Migrations;
import dev.mesh.controller.store.StoreException;
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
 * {@code mesh-controller prepare}: migrates the three store databases to the schema this
 * controller carries, then declares the broker's topology (docs/design.md sections 8 and 11;
 * {@link Topology#declare}). Idempotent: a second run changes nothing and says so. Each part is
 * tried even when one before it failed, so one run reports the state of every database and of the
 * broker.
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
final class PrepareCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @Spec
    private CommandSpec spec;

    PrepareCommand(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    /**
     * Runs {@code mesh-controller prepare}, the whole command line, without picocli: a host runs it before
     * each new version's {@code serve}, beside the version that serves, and picocli's classes are too old a
     * class file version for the ahead-of-time cache, so they would be loaded and verified at every start.
     * Any other command line (an option: {@code --help}) is left to picocli.
     *
     * @param args the command line
     * @param env the environment
     * @param out where the report goes
     * @param err where warnings and failures go
     * @return the exit code; empty when {@code args} is not {@code prepare} alone
     */
    static OptionalInt direct(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        if (args.length != 1 || !args[0].equals("prepare")) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(new PrepareCommand(env).run(out, err));
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
        Config.Prepare config = Config.forPrepare(env);
        config.warnings().forEach(warning -> err.println("mesh-controller: warning: " + warning));
        int failed = 0;
        int changed = 0;
        for (Database database : Database.values()) {
            try {
                MigrationReport report = Migrations.of(database, config.stores().endpoint(database).dataSource())
                        .migrate();
                out.println(report.text());
                changed += report.changed() ? 1 : 0;
            } catch (StoreException e) {
                err.println("mesh-controller: " + database.label() + ": " + Failures.line(e));
                failed++;
            }
        }
        BrokerStep broker = declare(config, out, err);
        out.println(summary(failed, changed, broker));
        out.flush();
        err.flush();
        return failed > 0 || broker == BrokerStep.FAILED ? 1 : 0;
    }

    /**
     * Declares the broker's topology and prints one line: what was created, or that it was all there.
     * A refusal is printed as the bus words it: its first line, then one line per queue or exchange.
     *
     * @return what became of it
     */
    private static BrokerStep declare(Config.Prepare config, PrintWriter out, PrintWriter err) {
        try (Broker broker = Broker.connect(MeshController.brokerSettings(config.broker(), config.certificate()),
                "mesh-controller-prepare")) {
            Topology.Declared declared = Topology.declare(broker);
            out.println(text(declared));
            return declared.created().isEmpty() ? BrokerStep.FOUND : BrokerStep.DECLARED;
        } catch (BusException e) {
            List<String> lines = e.getMessage().lines().toList();
            err.println("mesh-controller: broker: " + lines.getFirst());
            lines.subList(1, lines.size()).forEach(err::println);
            return BrokerStep.FAILED;
        }
    }

    /** @return e.g. {@code broker: topology declared in virtual host mesh (created 3 queues and 3 exchanges)} */
    static String text(Topology.Declared declared) {
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

    private static String summary(int failed, int changed, BrokerStep broker) {
        if (failed > 0 || broker == BrokerStep.FAILED) {
            List<String> parts = new ArrayList<>();
            if (failed > 0) {
                parts.add(failed + " of 3 databases");
            }
            if (broker == BrokerStep.FAILED) {
                parts.add("the broker's topology");
            }
            return String.join(" and ", parts) + " could not be prepared";
        }
        if (changed == 0 && broker == BrokerStep.FOUND) {
            return "nothing to do: every database was up to date and the broker's topology was declared already";
        }
        return "prepared: " + changed + " of 3 databases migrated, the broker's topology "
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
