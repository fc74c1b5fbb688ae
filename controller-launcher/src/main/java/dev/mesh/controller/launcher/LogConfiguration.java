package dev.mesh.controller.launcher;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The controller's log, set up in code (found by Logback through {@code META-INF/services}): standard error
 * (standard output carries the commands' results and the ready line), one line per event — {@code event
 * key=value …} in text, or one JSON object per line by Logback's own {@code JsonEncoder} — INFO for
 * {@code dev.mesh} ({@code MESH_LOG_LEVEL=DEBUG} for the decisions), WARN for the libraries. See
 * docs/operations.md, "Logs".
 *
 * <p>In code rather than in a {@code logback.xml}: reading XML (a parser, Logback's Joran) cost every
 * command about a tenth of a second of its start. An operator's own file still wins: with
 * {@code -Dlogback.configurationFile=FILE} this configurator steps aside.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfiguration extends ContextAwareBase implements Configurator {

    /** The levels of the libraries' loggers: what they say below WARN is theirs, not the operator's. */
    private static final Map<String, Level> LIBRARIES = Map.of("com.zaxxer.hikari", Level.WARN,
            "org.flywaydb", Level.WARN, "io.zonky", Level.WARN, "org.jooq", Level.WARN);

    /** For Logback's service loader. */
    public LogConfiguration() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        context.getStatusManager().add(new NopStatusListener());
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName("stderr");
        appender.setTarget("System.err");
        appender.setEncoder(encoder(context, "json".equals(setting(Main.LOG_FORMAT))));
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(appender);
        context.getLogger("dev.mesh").setLevel(Level.toLevel(setting("MESH_LOG_LEVEL"), Level.INFO));
        LIBRARIES.forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, boolean json) {
        if (json) {
            // message: the event's phrase and keys, "event key={} …"; arguments: the values, in order;
            // formattedMessage: the line as the text format has it. No MDC or markers are used.
            JsonEncoder encoder = new JsonEncoder();
            encoder.setContext(context);
            encoder.setWithSequenceNumber(false);
            encoder.setWithNanoseconds(false);
            encoder.setWithContext(false);
            encoder.setWithMDC(false);
            encoder.setWithKVPList(false);
            encoder.setWithMarkers(false);
            encoder.setWithFormattedMessage(true);
            encoder.start();
            return encoder;
        }
        // An exception a library logs goes on its event's line (OneLineError), never as a stack trace.
        Map<String, Supplier<DynamicConverter<?>>> rules = new HashMap<>();
        rules.put("oneLineError", OneLineError::new);
        context.putObject(CoreConstants.PATTERN_RULE_REGISTRY_FOR_SUPPLIERS, rules);
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0} %msg%oneLineError%n");
        encoder.start();
        return encoder;
    }

    /** A system property (Main sets the log format there from --log-format), else the variable. */
    private static String setting(String name) {
        String value = System.getProperty(name);
        return value != null ? value : System.getenv(name);
    }
}
