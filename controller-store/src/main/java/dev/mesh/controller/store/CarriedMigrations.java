package dev.mesh.controller.store;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record4;
import org.jooq.SQLDialect;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The migrations this controller carries for one database, as Flyway would record them once
 * applied (version, script, checksum), and the cheap check that a database's recorded history is
 * exactly those: one query of {@code flyway_schema_history}, without starting Flyway, which costs
 * a restart most of its time. Only a history that matches row for row counts; anything else
 * (behind, ahead, a changed script, a failed or repeatable migration, no history) is for Flyway to
 * judge and report.
 *
 * <p>The scripts are listed, in order, in {@code db/<database>.migrations} beside their folder
 * (no class path scanning); {@code CarriedMigrationsTest} keeps that list equal to the folder.
 * Immutable and thread-safe.
 */
final class CarriedMigrations {

    /** One script as Flyway records it: {@code V<version>__<description>.sql} and its checksum. */
    record Script(String version, String script, int checksum) {
        Script {
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(script, "script");
        }
    }

    private static final String UNDEFINED_TABLE = "42P01";

    private final List<Script> scripts;

    private CarriedMigrations(List<Script> scripts) {
        this.scripts = List.copyOf(scripts);
    }

    /**
     * @return the migrations carried for {@code database}, read from the class path
     * @throws IllegalStateException when the list or a script it names is missing: a broken build
     */
    static CarriedMigrations of(Database database) {
        List<Script> scripts = new ArrayList<>();
        for (String script : lines("db/" + database.label() + ".migrations")) {
            if (!script.isBlank()) {
                scripts.add(new Script(version(script), script, checksum("db/" + database.label() + "/" + script)));
            }
        }
        return new CarriedMigrations(scripts);
    }

    /** @return the scripts, in order */
    List<Script> scripts() {
        return scripts;
    }

    /** @return the newest version carried, or {@code ""} when there is none */
    String latest() {
        return scripts.isEmpty() ? "" : scripts.getLast().version();
    }

    /**
     * Whether the database's recorded history is exactly these migrations, in order, each applied
     * successfully with the same checksum. A database without a history table answers {@code false}.
     *
     * @throws DataAccessException when the database cannot be read (unreachable, refused, missing)
     */
    boolean recordedIn(DataSource dataSource) {
        DSLContext db = DSL.using(dataSource, SQLDialect.POSTGRES);
        List<Record4<String, String, Integer, Boolean>> rows;
        try {
            rows = db.select(field(name("version"), String.class), field(name("script"), String.class),
                            field(name("checksum"), Integer.class), field(name("success"), Boolean.class))
                    .from(table(name("flyway_schema_history")))
                    .orderBy(field(name("installed_rank")))
                    .fetch();
        } catch (DataAccessException e) {
            if (UNDEFINED_TABLE.equals(e.sqlState())) {
                return false;
            }
            throw e;
        }
        if (rows.size() != scripts.size()) {
            return false;
        }
        for (int i = 0; i < rows.size(); i++) {
            Record4<String, String, Integer, Boolean> row = rows.get(i);
            Script script = scripts.get(i);
            if (!script.version().equals(row.value1()) || !script.script().equals(row.value2())
                    || row.value3() == null || row.value3() != script.checksum() || !Boolean.TRUE.equals(row.value4())) {
                return false;
            }
        }
        return true;
    }

    /** {@code V12__node_facts.sql} → {@code 12}. */
    private static String version(String script) {
        int separator = script.indexOf("__");
        if (!script.startsWith("V") || separator < 2 || !script.endsWith(".sql")) {
            throw new IllegalStateException("the migration list names \"" + script + "\", which is not a versioned "
                    + "migration V<version>__<description>.sql");
        }
        return script.substring(1, separator);
    }

    /**
     * The checksum Flyway records for a script: the CRC-32 of its UTF-8 lines without their line
     * breaks (and without a byte-order mark), as {@code ChecksumCalculator} computes it.
     */
    static int checksum(String resource) {
        CRC32 crc = new CRC32();
        List<String> lines = lines(resource);
        for (int i = 0; i < lines.size(); i++) {
            String line = i == 0 && lines.get(i).startsWith("\uFEFF") ? lines.get(i).substring(1) : lines.get(i);
            crc.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return (int) crc.getValue();
    }

    private static List<String> lines(String resource) {
        InputStream in = CarriedMigrations.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("the class path lacks " + resource + ": the controller's build is broken");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + resource + " from the class path", e);
        }
    }
}
