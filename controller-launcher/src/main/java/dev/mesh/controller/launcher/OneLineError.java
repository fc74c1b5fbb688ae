package dev.mesh.controller.launcher;

import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;

/**
 * The text log's rendering of an event's exception: on the same line, {@code error="Class: message; cause
 * Class: message"}, never a stack trace — a library that logs one (HikariCP's "connection marked as broken",
 * with its sixty frames) still makes one line an operator can read and a log pipeline can parse. The
 * controller's own lines carry no exceptions: their messages say what failed and the fix. Line breaks and quotes
 * in a message are flattened.
 */
public final class OneLineError extends ThrowableHandlingConverter {

    /** How many causes are named after the exception itself. */
    private static final int CAUSES = 3;

    /** For Logback. */
    public OneLineError() {
    }

    @Override
    public String convert(ILoggingEvent event) {
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown == null) {
            return "";
        }
        StringBuilder line = new StringBuilder(" error=\"");
        append(line, thrown);
        IThrowableProxy cause = thrown.getCause();
        for (int i = 0; cause != null && i < CAUSES; i++, cause = cause.getCause()) {
            line.append("; cause ");
            append(line, cause);
        }
        return line.append('"').toString();
    }

    private static void append(StringBuilder line, IThrowableProxy thrown) {
        line.append(thrown.getClassName());
        String message = thrown.getMessage();
        if (message != null && !message.isBlank()) {
            line.append(": ").append(message.replace('\n', ' ').replace('\r', ' ').replace('"', '\''));
        }
    }
}
