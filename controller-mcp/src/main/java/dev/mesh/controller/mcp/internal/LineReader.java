package dev.mesh.controller.mcp.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads newline-delimited messages from a stream, never holding more than a limit of one line: the
 * rest of a longer line is skipped and the line reported as too long.
 */
public final class LineReader {

    /** One line read. */
    public sealed interface Line permits Text, TooLong {
    }

    /**
     * A line within the limit, without its line end ({@code \n} or {@code \r\n}).
     *
     * @param bytes the line's bytes
     */
    public record Text(byte[] bytes) implements Line {
    }

    /**
     * A line over the limit, skipped.
     *
     * @param size how long it was
     */
    public record TooLong(long size) implements Line {
    }

    private final InputStream in;
    private final int limit;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int end;

    /**
     * @param in the stream
     * @param limit the longest line kept, in bytes
     */
    public LineReader(InputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /**
     * @return the next line, or {@code null} at the end of the stream (a last line without a line end counts)
     * @throws IOException when the stream fails
     */
    public Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long size = 0;
        boolean any = false;
        while (true) {
            if (position == end) {
                end = in.read(buffer);
                position = 0;
                if (end <= 0) {
                    end = 0;
                    return any ? done(line, size) : null;
                }
            }
            any = true;
            int start = position;
            while (position < end && buffer[position] != '\n') {
                position++;
            }
            int length = position - start;
            if (size + length <= limit) {
                line.write(buffer, start, length);
            }
            size += length;
            if (position < end) {
                position++;
                return done(line, size);
            }
        }
    }

    private Line done(ByteArrayOutputStream line, long size) {
        if (size > limit) {
            return new TooLong(size);
        }
        byte[] bytes = line.toByteArray();
        if (bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
            return new Text(java.util.Arrays.copyOf(bytes, bytes.length - 1));
        }
        return new Text(bytes);
    }
}
