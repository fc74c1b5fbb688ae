package dev.mesh.controller.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OriginsTest {

    @Test
    void allowed_noOrigin_isAllowed() {
        assertThat(Origins.allowed(null)).isTrue();
    }

    @Test
    void allowed_loopbackOrigins_areAllowed() {
        assertThat(Origins.allowed("http://localhost:5173")).isTrue();
        assertThat(Origins.allowed("https://app.localhost")).isTrue();
        assertThat(Origins.allowed("http://127.0.0.1")).isTrue();
        assertThat(Origins.allowed("http://127.1.2.3:8080")).isTrue();
        assertThat(Origins.allowed("http://[::1]:3000")).isTrue();
    }

    @Test
    void allowed_otherOrigins_areRefused() {
        assertThat(Origins.allowed("http://evil.example")).isFalse();
        assertThat(Origins.allowed("http://localhost.evil.example")).isFalse();
        assertThat(Origins.allowed("http://127.0.0.1.evil.example")).isFalse();
        assertThat(Origins.allowed("http://10.0.0.1")).isFalse();
        assertThat(Origins.allowed("http://127.0.0.256")).isFalse();
        assertThat(Origins.allowed("null")).isFalse();
        assertThat(Origins.allowed("file://localhost/etc")).isFalse();
        assertThat(Origins.allowed("http://[::2]")).isFalse();
        assertThat(Origins.allowed("::not a uri")).isFalse();
    }
}
