package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CarriedMigrationsTest {

    @ParameterizedTest
    @EnumSource(Database.class)
    void list_namesEveryScriptOfTheFolder_inVersionOrder(Database database) throws IOException, URISyntaxException {
        URL folder = CarriedMigrations.class.getClassLoader().getResource("db/" + database.label());
        List<String> scripts;
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            scripts = files.map(file -> file.getFileName().toString())
                    .sorted(Comparator.comparingInt(CarriedMigrationsTest::version))
                    .toList();
        }

        assertThat(CarriedMigrations.of(database).scripts()).extracting(CarriedMigrations.Script::script)
                .as("db/%s.migrations must list every script of db/%s/, in order: add the new one", database.label(),
                        database.label())
                .containsExactlyElementsOf(scripts);
    }

    @Test
    void versionsAndLatest_comeFromTheScriptNames() {
        CarriedMigrations inventory = CarriedMigrations.of(Database.INVENTORY);

        assertThat(inventory.scripts()).extracting(CarriedMigrations.Script::version)
                .containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(inventory.latest()).isEqualTo("6");
    }

    private static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }
}
