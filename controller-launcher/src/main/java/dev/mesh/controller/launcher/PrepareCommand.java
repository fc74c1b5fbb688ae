package dev.mesh.controller.launcher;

import dev.mesh.controller.cli.Failures;
import dev.mesh.controller.cli.JarVersion;
import dev.mesh.controller.store.Database;
import dev.mesh.controller.store.MigrationReport;
import dev.mesh.controller.store.Migrations;
import dev.mesh.controller.store.StoreException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code mesh-controller prepare}: migrates the three store databases to the schema this
 * controller carries. Idempotent: a second run changes nothing and says so. Each database is tried
 * even when one before it failed, so one run reports every database's state.
 *
 * <p>It reads the broker's address too ({@link Config#forPrepare}), and refuses to start without
 * it, because declaring the broker's topology is part of preparing (DESIGN.md section 11); that
 * step is not wired yet, so the address is checked and not used.
 */
@Command(name = "prepare",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "Migrates the store's databases (inventory, identity, licences) to this controller's "
                + "schema, as configured by MESH_STORE_{INVENTORY,IDENTITY,LICENCES}_{FILE,PORT}. Safe to run "
                + "again: a database already up to date is left alone. Needs the broker's address too "
                + "(MESH_BROKER_ADDRESS_{FILE,PORT}, MESH_BROKER_CERTIFICATE), for the broker's topology.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every database is up to date",
            "1:a database could not be migrated (the line says why)",
            "2:the command line or the environment is wrong"})
final class PrepareCommand implements Callable<Integer> {

    private final Map<String, String> env;

    @Spec
    private CommandSpec spec;

    PrepareCommand(Map<String, String> env) {
        this.env = Objects.requireNonNull(env, "env");
    }

    @Override
    public Integer call() {
        Config.Prepare config = Config.forPrepare(env);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
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
        out.println(failed > 0 ? failed + " of 3 databases could not be prepared"
                : changed == 0 ? "nothing to do: every database was up to date" : "prepared: " + changed
                        + " of 3 databases migrated");
        out.flush();
        err.flush();
        return failed > 0 ? 1 : 0;
    }
}
