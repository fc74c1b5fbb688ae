package dev.mesh.controller.bus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mesh.controller.core.Report;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportReaderTest {

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final String APPLIED = "{\"kind\": \"applied\", \"node\": \"n1\", \"revision\": \"sha256:ab\","
            + " \"steps\": [{\"id\": \"n1/process:mesh-store\", \"status\": \"done\"}], \"at\": \"2026-12-01T10:00:00Z\"}";
    private static final String SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String BUILD = "{\"kind\": \"build\", \"build\": \"build:mesh-store@1.2.0/server\","
            + " \"status\": \"succeeded\", \"sha256\": \"" + SHA256 + "\", \"location\": "
            + "\"https://builds.mesh/mesh-store-1.2.0-server.tar.gz\", \"at\": \"2026-12-01T10:00:00Z\"}";

    private final ReportReader reader = new ReportReader();

    private ReportReader.Read read(String body) {
        return reader.read(body.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the body with {@code "field": …} (as written in {@code from}) replaced by {@code to} */
    private static String with(String body, String from, String to) {
        assertThat(body).contains(from);
        return body.replace(from, to);
    }

    @Test
    void read_appliedReport_givesEveryField() {
        assertThat(read(APPLIED)).isEqualTo(new ReportReader.Read.Readable(new Report.Applied("n1", "sha256:ab",
                List.of(new Report.Step("n1/process:mesh-store", true, "")), AT)));
    }

    @Test
    void read_failedReport_givesTheStepsWithTheirDetail() {
        String failed = "{\"kind\": \"failed\", \"node\": \"n1\", \"revision\": \"sha256:ab\", \"steps\": ["
                + "{\"id\": \"n1/process:a\", \"status\": \"done\", \"detail\": null},"
                + " {\"id\": \"n1/process:b\", \"status\": \"failed\", \"detail\": \"exit 3\"}],"
                + " \"at\": \"2026-12-01T10:00:00.123456Z\"}";

        assertThat(read(failed)).isEqualTo(new ReportReader.Read.Readable(new Report.Failed("n1", "sha256:ab",
                List.of(new Report.Step("n1/process:a", true, ""), new Report.Step("n1/process:b", false, "exit 3")),
                Instant.parse("2026-12-01T10:00:00.123456Z"))));
    }

    @Test
    void read_buildReport_givesEveryField_detailOptional() {
        assertThat(read(BUILD)).isEqualTo(new ReportReader.Read.Readable(new Report.Build(
                "build:mesh-store@1.2.0/server", true, "", SHA256, "https://builds.mesh/mesh-store-1.2.0-server.tar.gz",
                AT)));
        assertThat(read(with(BUILD, "\"succeeded\"", "\"failed\", \"detail\": \"cargo: exit 101\"")))
                .isEqualTo(new ReportReader.Read.Readable(new Report.Build("build:mesh-store@1.2.0/server", false,
                        "cargo: exit 101", SHA256, "https://builds.mesh/mesh-store-1.2.0-server.tar.gz", AT)));
    }

    @Test
    void read_aSuccessWithoutItsArchive_isReadable_andCountsAsAFailure() {
        String bare = "{\"kind\": \"build\", \"build\": \"build:mesh-store@1.2.0/server\", \"status\": \"succeeded\","
                + " \"at\": \"2026-12-01T10:00:00Z\"}";
        Report.Build build = (Report.Build) ((ReportReader.Read.Readable) read(bare)).report();

        assertThat(build.artifact()).isEmpty();
        assertThat(build.usable().succeeded()).isFalse();
        assertThat(build.usable().detail()).startsWith("the builder reported build:mesh-store@1.2.0/server succeeded "
                + "but named no sha256");
        assertThat(read(with(BUILD, "\"" + SHA256 + "\"", "5")))
                .isEqualTo(new ReportReader.Read.Unreadable("sha256 must be a string when present (it is number)"));
    }

    @Test
    void read_unknownFields_areIgnored() {
        String body = "{\"kind\": \"applied\", \"extra\": {\"nested\": [1, 2]}, \"node\": \"n1\", \"revision\":"
                + " \"sha256:ab\", \"steps\": [{\"id\": \"n1/x\", \"status\": \"done\", \"took\": 12}],"
                + " \"at\": \"2026-12-01T10:00:00Z\", \"version\": 2}";

        assertThat(read(body)).isEqualTo(new ReportReader.Read.Readable(new Report.Applied("n1", "sha256:ab",
                List.of(new Report.Step("n1/x", true, "")), AT)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            kind missing         | "kind": "applied",        |                                | kind must be a non-empty string (it is missing)
            kind a number        | "kind": "applied"         | "kind": 1                      | kind must be a non-empty string (it is number)
            kind unknown         | "kind": "applied"         | "kind": "done"                 | kind must be "applied", "failed" or "build"
            node missing         | "node": "n1",             |                                | node must be a non-empty string (it is missing)
            node empty           | "node": "n1"              | "node": ""                     | node must be a non-empty string (it is empty)
            node null            | "node": "n1"              | "node": null                   | node must be a non-empty string (it is null)
            revision an object   | "revision": "sha256:ab"   | "revision": {}                 | revision must be a non-empty string (it is object)
            steps missing        | "steps": [{"id": "n1/process:mesh-store", "status": "done"}], | | steps must be an array (it is missing)
            steps an object      | "steps": [{"id": "n1/process:mesh-store", "status": "done"}] | "steps": {} | steps must be an array (it is object)
            step a string        | {"id": "n1/process:mesh-store", "status": "done"} | "done"  | steps[0] must be an object (it is string)
            step id missing      | "id": "n1/process:mesh-store",  |                          | steps[0].id must be a non-empty string (it is missing)
            step status unknown  | "status": "done"          | "status": "ok"                 | steps[0].status must be "done" or "failed"
            step status boolean  | "status": "done"          | "status": true                 | steps[0].status must be a non-empty string (it is boolean)
            step detail a number | "status": "done"          | "status": "done", "detail": 3  | steps[0].detail must be a string when present (it is number)
            at missing           | , "at": "2026-12-01T10:00:00Z" |                           | at must be a non-empty string (it is missing)
            at not RFC 3339      | "2026-12-01T10:00:00Z"    | "1 December 2026"              | at must be an RFC 3339 time in UTC, e.g. 2026-12-01T10:00:00Z
            at without zone      | "2026-12-01T10:00:00Z"    | "2026-12-01T10:00:00"          | at must be an RFC 3339 time in UTC, e.g. 2026-12-01T10:00:00Z
            """)
    void read_hostReportWithAFieldMissingOrWrong_isUnreadable_sayingWhichAndWhat(String name, String from, String to,
            String problem) {
        assertThat(read(with(APPLIED, from, to == null ? "" : to))).isEqualTo(new ReportReader.Read.Unreadable(problem));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            build missing        | "build": "build:mesh-store@1.2.0/server", |             | build must be a non-empty string (it is missing)
            build not an id      | "build:mesh-store@1.2.0/server" | "mesh-store@1.2.0"    | build must be build:MODULE@VERSION/ARTIFACT
            status missing       | "status": "succeeded",    |                             | status must be a non-empty string (it is missing)
            status unknown       | "succeeded"               | "done"                      | status must be "succeeded" or "failed"
            detail an array      | "succeeded"               | "failed", "detail": []      | detail must be a string when present (it is array)
            at a number          | "2026-12-01T10:00:00Z"    | 1764583200                  | at must be a non-empty string (it is number)
            """)
    void read_buildReportWithAFieldMissingOrWrong_isUnreadable_sayingWhichAndWhat(String name, String from, String to,
            String problem) {
        assertThat(read(with(BUILD, from, to == null ? "" : to))).isEqualTo(new ReportReader.Read.Unreadable(problem));
    }

    @Test
    void read_bodyNotAReport_isUnreadable_withoutQuotingIt() {
        assertThat(read("not json {")).isEqualTo(new ReportReader.Read.Unreadable("the body is not JSON"));
        assertThat(read(APPLIED + " {}")).as("trailing content")
                .isEqualTo(new ReportReader.Read.Unreadable("the body is not JSON"));
        assertThat(read("")).isEqualTo(new ReportReader.Read.Unreadable("the body is empty"));
        assertThat(read("[1, 2]")).isEqualTo(new ReportReader.Read.Unreadable("a report is a JSON object, not array"));
        assertThat(read("\"applied\"")).isEqualTo(new ReportReader.Read.Unreadable(
                "a report is a JSON object, not string"));
    }

    @Test
    void read_bodyNotUtf8_isUnreadable_evenWhenItIsJsonInAnotherEncoding() {
        assertThat(reader.read(new byte[] {'{', (byte) 0xC3, '}'}))
                .isEqualTo(new ReportReader.Read.Unreadable("the body is not UTF-8"));
        assertThat(reader.read(APPLIED.getBytes(StandardCharsets.UTF_16)))
                .isEqualTo(new ReportReader.Read.Unreadable("the body is not UTF-8"));
    }
}
