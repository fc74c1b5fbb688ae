package dev.mesh.controller.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Main#logFormat}: which appender logback.xml is told to use, decided before anything logs. */
class LogFormatTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private String format(Map<String, String> env, String... args) {
        return Main.logFormat(args, env, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void logFormat_byDefault_isText() {
        assertThat(format(Map.of(), "serve", "--dev")).isEqualTo("text");
    }

    @Test
    void logFormat_option_winsOverTheVariable_inBothSpellings() {
        assertThat(format(Map.of("MESH_LOG_FORMAT", "text"), "serve", "--log-format", "json")).isEqualTo("json");
        assertThat(format(Map.of("MESH_LOG_FORMAT", "json"), "serve", "--log-format=text")).isEqualTo("text");
    }

    @Test
    void logFormat_variable_isUsedWithoutTheOption() {
        assertThat(format(Map.of("MESH_LOG_FORMAT", "json"), "serve")).isEqualTo("json");
    }

    @Test
    void logFormat_variableWithAnotherValue_warnsAndLogsText() {
        assertThat(format(Map.of("MESH_LOG_FORMAT", "yaml"), "serve")).isEqualTo("text");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("mesh-controller: warning: MESH_LOG_FORMAT=yaml "
                + "is neither text nor json; logging as text (set it to json for one JSON object per line)\n");
    }
}
