package dev.mesh.controller.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.RequestRecords.Recorded;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every {@link RequestRecords} must do. Run by {@link MemoryRequestRecordsTest} here and by
 * the PostgreSQL records in controller-store (through core's test jar).
 */
public abstract class RequestRecordsContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RequestRecords records;

    /** @return new, empty records for one test */
    protected abstract RequestRecords newRecords();

    @BeforeEach
    void freshRecords() {
        records = newRecords();
    }

    private static Recorded recorded(String id, String digest, String result, boolean error) {
        return new Recorded(id, "ops", "assign", digest, JSON.readTree(result), error);
    }

    @Test
    void find_unknownId_isEmpty() {
        assertThat(records.find("r-unknown")).isEmpty();
    }

    @Test
    void record_readsBackWhole_resultAndErrorFlagToo() {
        Recorded done = recorded("r-1", "sha256:a", "{\"changed\": true, \"nodes\": [\"alpha\", \"beta\"], "
                + "\"count\": 2, \"note\": null}", false);
        Recorded failed = recorded("r-2", "sha256:b", "{\"code\": \"not_found\", \"message\": \"no node beta\", "
                + "\"pointer\": \"/node\"}", true);

        records.record(done);
        records.record(failed);

        assertThat(records.find("r-1")).contains(done);
        assertThat(records.find("r-2")).contains(failed);
    }

    @Test
    void record_sameIdTwice_theFirstStands() {
        Recorded first = recorded("r-1", "sha256:a", "{\"changed\": true}", false);

        records.record(first);
        records.record(recorded("r-1", "sha256:b", "{\"changed\": false}", true));
        records.record(new Recorded("r-1", "someone-else", "unassign", "sha256:a", JSON.readTree("{}"), false));

        assertThat(records.find("r-1")).contains(first);
    }
}
