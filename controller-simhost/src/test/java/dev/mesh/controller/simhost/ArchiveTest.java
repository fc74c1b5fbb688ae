package dev.mesh.controller.simhost;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An archive's digest, of bytes in memory and of a file read as a stream: the same, and SHA-256's. */
class ArchiveTest {

    @TempDir
    Path dir;

    @Test
    void sha256_isTheStandardDigest() {
        assertThat(Archive.sha256("abc".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void sha256_ofAFile_readAsAStream_isThatOfItsBytes() throws IOException {
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        new Random(22).nextBytes(bytes);
        Path file = Files.write(dir.resolve("bundle.tar.zst"), bytes);

        assertThat(Archive.sha256(file)).isEqualTo(Archive.sha256(bytes));
    }
}
