package dev.mesh.controller.core.internal.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The structures an incremental planner shares between its plans: each snapshot stays what it was. */
class SharedStructuresTest {

    @Test
    void chunkedList_setAfterASnapshot_leavesTheSnapshotAsItWas() {
        int size = 5_000;
        ChunkedList.Builder<String> builder = new ChunkedList.Builder<>(size);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            builder.set(i, "v" + i);
            expected.add("v" + i);
        }
        Random random = new Random(7);
        List<List<String>> snapshots = new ArrayList<>();
        List<List<String>> contents = new ArrayList<>();
        for (int round = 0; round < 50; round++) {
            snapshots.add(builder.snapshot());
            contents.add(List.copyOf(expected));
            for (int change = 0; change < 3; change++) {
                int at = random.nextInt(size);
                builder.set(at, "r" + round + "-" + change);
                expected.set(at, "r" + round + "-" + change);
            }
        }

        for (int i = 0; i < snapshots.size(); i++) {
            assertThat(snapshots.get(i)).as("snapshot %d", i).isEqualTo(contents.get(i));
        }
        assertThat(builder.snapshot()).isEqualTo(expected).hasSize(size);
    }

    @Test
    void chunkedList_withAMissingElement_refusesASnapshot_andIsUnmodifiable() {
        ChunkedList.Builder<String> builder = new ChunkedList.Builder<>(3);
        builder.set(0, "a");
        builder.set(2, "c");

        assertThat(builder.complete()).isFalse();
        assertThatThrownBy(builder::snapshot).isInstanceOf(IllegalStateException.class)
                .hasMessage("1 of 3 elements missing");

        builder.set(1, "b");
        List<String> list = builder.snapshot();
        assertThat(list).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> list.set(0, "x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> list.get(3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(new ChunkedList.Builder<String>(0).snapshot()).isEmpty();
    }

    @Test
    void planInputs_isTheMapOfTheMeshDigestAndTheRevisionsThere() {
        String[] keys = {"acknowledged/alpha", "acknowledged/beta", "acknowledged/gamma"};
        String[] revisions = {"sha256:a", null, "sha256:g"};

        PlanInputs inputs = new PlanInputs("sha256:mesh", keys, revisions, 2);

        Map<String, String> expected = new HashMap<>();
        expected.put("mesh", "sha256:mesh");
        expected.put("acknowledged/alpha", "sha256:a");
        expected.put("acknowledged/gamma", "sha256:g");
        assertThat(inputs).isEqualTo(expected).hasSize(3);
        assertThat(expected).isEqualTo(inputs);
        assertThat(inputs.hashCode()).isEqualTo(expected.hashCode());
        assertThat(inputs.get("acknowledged/beta")).isNull();
        assertThat(inputs.containsKey("acknowledged/beta")).isFalse();
        assertThat(inputs.get("acknowledged/delta")).isNull();
        assertThat(inputs.get(7)).isNull();
        assertThat(inputs.keySet()).containsExactly("acknowledged/alpha", "acknowledged/gamma", "mesh");
        assertThatThrownBy(() -> inputs.put("mesh", "x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
