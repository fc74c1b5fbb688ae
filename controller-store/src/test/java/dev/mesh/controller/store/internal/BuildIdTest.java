package dev.mesh.controller.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BuildIdTest {

    @Test
    void parse_splitsModuleVersionAndArtifact() {
        BuildId id = BuildId.parse("build:mesh-store@1.2.0+b7/server");

        assertThat(id).isEqualTo(new BuildId("mesh-store", "1.2.0+b7", "server"));
        assertThat(id.id()).isEqualTo("build:mesh-store@1.2.0+b7/server");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "store@1/server", "build:@1/server", "build:store@/server", "build:store@1/",
            "build:store/server", "build:store@1", "build:store@1@2/server", "build:store@1/server/x"})
    void parse_otherForms_areRefused(String id) {
        assertThatThrownBy(() -> BuildId.parse(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("build id \"" + id + "\" is not of the form build:MODULE@VERSION/ARTIFACT");
    }
}
