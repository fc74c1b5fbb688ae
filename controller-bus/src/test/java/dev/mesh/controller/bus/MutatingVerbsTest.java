package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mesh.controller.core.Identity;
import dev.mesh.controller.core.Tool;
import dev.mesh.controller.core.VerbException;
import dev.mesh.controller.core.memory.MemoryIdentity;
import dev.mesh.controller.core.verbs.Verbs;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MutatingVerbsTest {

    @Test
    void theVerbsThatNeedAMessageId_areTheFourThatChangeTheMesh() {
        Set<String> mutating = Controllers.verbs().tools().stream().map(Tool::name).filter(Verbs::mutates)
                .collect(Collectors.toSet());

        assertThat(mutating).containsExactlyInAnyOrder("assign", "unassign", "push", "build");
    }

    @Test
    void withoutMessageId_mutatingVerb_isInvalid_sayingMessageIdIsNeeded() {
        MemoryIdentity identity = new MemoryIdentity();
        identity.add("guest");
        identity.grant("guest", "assign", "status");
        Identity guarded = MutatingVerbs.withoutMessageId(identity);

        assertThatThrownBy(() -> guarded.check("guest", "assign")).isInstanceOfSatisfying(VerbException.class, e -> {
            assertThat(e.code()).isEqualTo(VerbException.Code.INVALID);
            assertThat(e.getMessage()).isEqualTo("assign changes the mesh, so over the broker it needs the message "
                    + "property message_id (1 to 200 characters, one per request), which makes it idempotent; send "
                    + "the request again with one");
        });
        guarded.check("guest", "status");
        assertThat(guarded.allows("guest", "assign")).isFalse();
        assertThat(guarded.allows("guest", "status")).isTrue();
    }

    @Test
    void withoutMessageId_principalWithoutTheGrant_isUnauthorizedFirst() {
        Identity guarded = MutatingVerbs.withoutMessageId(new MemoryIdentity());

        assertThatThrownBy(() -> guarded.check("", "assign")).isInstanceOfSatisfying(VerbException.class,
                e -> assertThat(e.code()).isEqualTo(VerbException.Code.UNAUTHORIZED));
    }
}
