package dev.mesh.controller.simhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Running a lab host's real processes as the account their declaration names: as is when that is the
 * lab's own account; through {@code setpriv} when the lab runs as root, the account created on this
 * machine first when it is missing ({@code useradd --system}); refused otherwise. Stateless.
 */
final class Accounts {

    private static final String ME = System.getProperty("user.name");

    private Accounts() {
    }

    /**
     * @return the command that runs {@code run} as {@code user}
     * @throws IllegalArgumentException when the lab cannot run as that account
     */
    static List<String> as(String user, List<String> run, String process) {
        if (user.isEmpty() || user.equals(ME)) {
            return run;
        }
        if (!ME.equals("root")) {
            throw new IllegalArgumentException("process " + process + " runs as " + user + ", and the lab host runs as "
                    + ME + ": run the lab as root (it creates the account), or declare the account " + ME);
        }
        ensure(user);
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + user, "--regid=" + user,
                "--init-groups", "--"));
        command.addAll(run);
        return command;
    }

    /** Lets {@code user} write {@code directory} (the lab owns it otherwise). */
    static void grant(String user, Path directory) throws IOException {
        if (user.isEmpty() || user.equals(ME) || !ME.equals("root")) {
            return;
        }
        ensure(user);
        UserPrincipalLookupService names = directory.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(directory, names.lookupPrincipalByName(user));
    }

    private static void ensure(String user) {
        if (exec(List.of("id", "-u", user)) == 0) {
            return;
        }
        if (exec(List.of("useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin",
                user)) != 0 && exec(List.of("id", "-u", user)) != 0) {
            throw new IllegalArgumentException("the account " + user + " could not be created on this machine "
                    + "(useradd failed)");
        }
    }

    private static int exec(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
