package dev.mesh.controller.simhost;

import java.util.Objects;

/**
 * Where the NATS server is, and the prefix put before every subject: {@code ""} in production, one of
 * its own per test (ending with {@code .}), so tests on one server never see each other's facts.
 *
 * @param url           {@code nats://…} or {@code tls://…}
 * @param subjectPrefix {@code ""}, or a prefix ending with {@code .}
 */
public record NatsSettings(String url, String subjectPrefix) {

    /** @throws IllegalArgumentException when the URL is not {@code nats://} or {@code tls://}, or the prefix does not end with {@code .} */
    public NatsSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(subjectPrefix, "subjectPrefix");
        if (!url.startsWith("nats://") && !url.startsWith("tls://")) {
            throw new IllegalArgumentException("the NATS URL \"" + url + "\" is neither nats://… nor tls://…;"
                    + " e.g. nats://127.0.0.1:4222");
        }
        if (!subjectPrefix.isEmpty() && !subjectPrefix.endsWith(".")) {
            throw new IllegalArgumentException("the subject prefix \"" + subjectPrefix + "\" does not end with \".\";"
                    + " write \"" + subjectPrefix + ".\", or \"\" for none");
        }
    }

    /** @return the server at {@code url}, no prefix */
    public static NatsSettings of(String url) {
        return new NatsSettings(url, "");
    }

    /** @return the same server with another subject prefix */
    public NatsSettings withSubjectPrefix(String prefix) {
        return new NatsSettings(url, prefix);
    }
}
