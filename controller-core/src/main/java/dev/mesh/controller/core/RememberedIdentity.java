package dev.mesh.controller.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Identity#remembering}: each principal's answer for each verb, kept for a while. */
final class RememberedIdentity implements Identity {

    /** More principal–verb pairs than a mesh has: past it, everything is forgotten at once. */
    static final int MAX_REMEMBERED = 100_000;

    private record Key(String principal, String verb) {
    }

    private record Answer(boolean allowed, Instant until) {
    }

    private final Identity source;
    private final Duration ttl;
    private final Clock clock;
    private final Map<Key, Answer> answers = new ConcurrentHashMap<>();

    RememberedIdentity(Identity source, Duration ttl, Clock clock) {
        this.source = Objects.requireNonNull(source, "source");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("an identity's answers are remembered for more than 0 and at most a "
                    + "minute, not " + ttl);
        }
    }

    @Override
    public boolean allows(String principal, String verb) {
        Key key = new Key(principal, verb);
        Instant now = clock.instant();
        Answer known = answers.get(key);
        if (known != null && now.isBefore(known.until())) {
            return known.allowed();
        }
        boolean allowed = source.allows(principal, verb);
        if (answers.size() >= MAX_REMEMBERED) {
            answers.clear();
        }
        answers.put(key, new Answer(allowed, now.plus(ttl)));
        return allowed;
    }
}
