package dev.mesh.controller.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Secret;
import dev.mesh.controller.core.settings.Variables.Address;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EndpointTest {

    private static final String PASSWORD = "s3cret-Value";

    private final Endpoint endpoint = new Endpoint("db.example", 5432, "inventory", "controller", Secret.of(PASSWORD));

    @Test
    void toString_neverShowsThePassword() {
        assertThat(endpoint.toString())
                .isEqualTo("Endpoint[postgresql://controller@db.example:5432/inventory, password=***]")
                .doesNotContain(PASSWORD);
        assertThat(endpoint.address()).doesNotContain(PASSWORD);
    }

    @Test
    void password_isASecret_thatPrintsAsStars() {
        assertThat(endpoint.password().toString()).isEqualTo("***");
        assertThat(String.valueOf(endpoint.password())).doesNotContain(PASSWORD);
        assertThat(endpoint.password().reveal()).isEqualTo(PASSWORD);
    }

    @Test
    void whatHoldsAnEndpoint_neverShowsThePassword() {
        record Holder(Endpoint endpoint, List<Endpoint> others) {}
        Holder holder = new Holder(endpoint, List.of(endpoint.withDatabase("licences")));

        assertThat(holder.toString()).doesNotContain(PASSWORD).contains("password=***");
        assertThat(Map.of("inventory", endpoint).toString()).doesNotContain(PASSWORD);
        assertThat(endpoint.withDatabase("identity").toString()).doesNotContain(PASSWORD);
    }

    @Test
    void equals_comparesThePassword_withoutShowingIt() {
        Endpoint other = new Endpoint("db.example", 5432, "inventory", "controller", Secret.of("another"));

        assertThat(endpoint).isNotEqualTo(other);
        assertThat(endpoint).isEqualTo(new Endpoint("db.example", 5432, "inventory", "controller",
                Secret.of(PASSWORD)));
        assertThat(endpoint.hashCode()).isEqualTo(other.hashCode());
    }

    @Test
    void dataSource_logsInWithThePassword() {
        assertThat(endpoint.driverDataSource().getPassword()).isEqualTo(PASSWORD);
        assertThat(endpoint.withDatabase("licences").driverDataSource().getPassword()).isEqualTo(PASSWORD);
        assertThat(new Endpoint("db.example", 5432, "inventory", "controller", Secret.NONE).driverDataSource()
                .getPassword()).isNull();
    }

    @Test
    void withDatabase_keepsServerAndLogin() {
        Endpoint admin = new Endpoint("db.example", 5433, "postgres", "admin", Secret.of("pw"));

        assertThat(admin.withDatabase("licences"))
                .isEqualTo(new Endpoint("db.example", 5433, "licences", "admin", Secret.of("pw")));
    }

    @Test
    void aPrimaryAndItsStandbys_areTriedInOrder_forTheServerThatTakesWrites() {
        Endpoint pair = new Endpoint(List.of(new Address("db-1.example", 5432), new Address("db-2.example", 5433)),
                "inventory", "controller", Secret.of(PASSWORD));

        assertThat(pair.address()).isEqualTo("postgresql://controller@db-1.example:5432,db-2.example:5433/inventory");
        assertThat(pair.host()).as("the first").isEqualTo("db-1.example");
        assertThat(pair.withDatabase("licences").servers()).isEqualTo(pair.servers());
        var source = pair.driverDataSource();
        assertThat(source.getServerNames()).containsExactly("db-1.example", "db-2.example");
        assertThat(source.getPortNumbers()).containsExactly(5432, 5433);
        assertThat(source.getTargetServerType()).isEqualTo("primary");
        assertThat(source.getHostRecheckSeconds()).as("a promoted standby tried again within a second").isOne();
        assertThatThrownBy(() -> new Endpoint(List.of(), "inventory", "controller", Secret.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void portOutOfRange_isRefused() {
        assertThatThrownBy(() -> new Endpoint("db.example", 0, "inventory", "controller", Secret.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port 0 is not between 1 and 65535");
        assertThatThrownBy(() -> new Endpoint("db.example", 65536, "inventory", "controller", Secret.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
