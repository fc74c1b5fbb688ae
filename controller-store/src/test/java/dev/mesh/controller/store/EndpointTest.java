package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EndpointTest {

    @Test
    void toString_neverShowsThePassword() {
        Endpoint endpoint = new Endpoint("db.example", 5432, "inventory", "controller", "s3cret-Value");

        assertThat(endpoint.toString())
                .isEqualTo("Endpoint[postgresql://controller@db.example:5432/inventory, password=***]")
                .doesNotContain("s3cret-Value");
        assertThat(endpoint.address()).doesNotContain("s3cret-Value");
    }

    @Test
    void withDatabase_keepsServerAndLogin() {
        Endpoint endpoint = new Endpoint("db.example", 5433, "postgres", "admin", "pw");

        assertThat(endpoint.withDatabase("licences"))
                .isEqualTo(new Endpoint("db.example", 5433, "licences", "admin", "pw"));
    }

    @Test
    void portOutOfRange_isRefused() {
        assertThatThrownBy(() -> new Endpoint("db.example", 0, "inventory", "controller", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port 0 is not between 1 and 65535");
        assertThatThrownBy(() -> new Endpoint("db.example", 65536, "inventory", "controller", ""))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
