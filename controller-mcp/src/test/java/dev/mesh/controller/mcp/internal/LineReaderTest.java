package dev.mesh.controller.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    private static List<String> read(String input, int limit) throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), limit);
        List<String> lines = new ArrayList<>();
        for (LineReader.Line line = reader.next(); line != null; line = reader.next()) {
            lines.add(switch (line) {
                case LineReader.Text text -> new String(text.bytes(), StandardCharsets.UTF_8);
                case LineReader.TooLong tooLong -> "too long: " + tooLong.size();
            });
        }
        return lines;
    }

    @Test
    void next_splitsOnNewlines_droppingACarriageReturnBeforeThem() throws IOException {
        assertThat(read("a\r\nbé\n\nc", 10)).containsExactly("a", "bé", "", "c");
    }

    @Test
    void next_emptyInput_hasNoLines() throws IOException {
        assertThat(read("", 10)).isEmpty();
    }

    @Test
    void next_lineOverTheLimit_isSkippedWhole_andReportedWithItsSize() throws IOException {
        assertThat(read("0123456789x\nok\n", 10)).containsExactly("too long: 11", "ok");
    }

    @Test
    void next_lineOfExactlyTheLimit_isKept() throws IOException {
        assertThat(read("0123456789\n", 10)).containsExactly("0123456789");
    }
}
