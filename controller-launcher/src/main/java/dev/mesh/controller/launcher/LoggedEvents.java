package dev.mesh.controller.launcher;

import dev.mesh.controller.core.Events;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events where no bus carries them (dev mode): each is logged at DEBUG and forgotten, so a
 * long-running development controller keeps none in memory.
 */
final class LoggedEvents implements Events {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedEvents.class);

    @Override
    public void publish(String kind, Map<String, Object> payload) {
        LOG.debug("event kind={} payload={}", kind, payload);
    }
}
