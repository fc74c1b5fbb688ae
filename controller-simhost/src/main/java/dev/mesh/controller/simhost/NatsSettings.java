package dev.mesh.controller.simhost;

import java.util.Objects;

/**
 * Where the NATS server is, who the host is on it, and the prefix put before every subject: {@code ""} in
 * production, one of its own per test (ending with {@code .}), so tests on one server never see each other's
 * facts. {@code toString()} never shows the password.
 *
 * @param url           {@code nats://…} or {@code tls://…}
 * @param subjectPrefix {@code ""}, or a prefix ending with {@code .}
 * @param user          the bus user the host connects as (genesis names it like the node), or {@code ""} for none
 * @param password      that user's password, {@code ""} without a user
 */
public record NatsSettings(String url, String subjectPrefix, String user, String password) {

    /** @throws IllegalArgumentException when the URL is not {@code nats://} or {@code tls://}, or the prefix does not end with {@code .} */
    public NatsSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(subjectPrefix, "subjectPrefix");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!url.startsWith("nats://") && !url.startsWith("tls://")) {
            throw new IllegalArgumentException("the NATS URL \"" + url + "\" is neither nats://… nor tls://…;"
                    + " e.g. nats://127.0.0.1:4222");
        }
        if (!subjectPrefix.isEmpty() && !subjectPrefix.endsWith(".")) {
            throw new IllegalArgumentException("the subject prefix \"" + subjectPrefix + "\" does not end with \".\";"
                    + " write \"" + subjectPrefix + ".\", or \"\" for none");
        }
    }

    /** A server with no authorization: no user. */
    public NatsSettings(String url, String subjectPrefix) {
        this(url, subjectPrefix, "", "");
    }

    /** @return the server at {@code url}, no prefix, no user */
    public static NatsSettings of(String url) {
        return new NatsSettings(url, "");
    }

    /** @return the same server with another subject prefix */
    public NatsSettings withSubjectPrefix(String prefix) {
        return new NatsSettings(url, prefix, user, password);
    }

    /** @return the same server, connected to as {@code user} with {@code password} */
    public NatsSettings withUser(String user, String password) {
        return new NatsSettings(url, subjectPrefix, user, password);
    }

    @Override
    public String toString() {
        return "NatsSettings[url=" + url + ", subjectPrefix=" + subjectPrefix + ", user=" + user + ", password="
                + (password.isEmpty() ? "" : "***") + "]";
    }
}
