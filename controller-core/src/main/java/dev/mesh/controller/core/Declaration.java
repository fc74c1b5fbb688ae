package dev.mesh.controller.core;

import com.fasterxml.jackson.annotation.JacksonInject;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.OptBoolean;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one node must run (docs/design.md section 5): accounts, directories, secret files, granted
 * paths, processes, legacy containers, the seats it holds and the tools it offers. Every list is
 * in a stable order, so the same inputs give the same canonical bytes and the same
 * {@code revision}. A declaration never holds a secret's value, only its path.
 *
 * @param node the node's name
 * @param revision {@code sha256:} and the hex digest of the canonical bytes without the revision;
 *     empty while being built
 * @param accounts POSIX accounts, by name
 * @param directories directories, by path
 * @param secrets secret files, by path
 * @param accesses granted paths, by module then path
 * @param processes processes, by name
 * @param containers legacy containers, by name
 * @param seats the seats the node holds, sorted
 * @param tools the tools the node's modules offer, by module then name
 */
public record Declaration(String node, String revision, List<Account> accounts, List<Directory> directories,
        List<Secret> secrets, List<Access> accesses, List<Process> processes, List<Container> containers,
        List<String> seats, List<Tool> tools) {

    /**
     * The ids of the values a reader injects for the parts a declaration of an earlier format lacks
     * (see {@link Artifact}): {@code null} for each of these, {@code false} for {@link #LATER_FLAG}.
     */
    public static final List<String> LATER_PARTS = List.of("artifact.version", "artifact.sha256",
            "artifact.location");

    /** The id of the value a reader injects for {@link Process#overlap()} when it is absent: {@code false}. */
    public static final String LATER_FLAG = "process.overlap";

    /** Checks and copies the parts. */
    public Declaration {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(revision, "revision");
        accounts = List.copyOf(accounts);
        directories = List.copyOf(directories);
        secrets = List.copyOf(secrets);
        accesses = List.copyOf(accesses);
        processes = List.copyOf(processes);
        containers = List.copyOf(containers);
        seats = List.copyOf(seats);
        tools = List.copyOf(tools);
    }

    /** @return a copy with the given revision */
    public Declaration withRevision(String newRevision) {
        return new Declaration(node, newRevision, accounts, directories, secrets, accesses, processes, containers,
                seats, tools);
    }

    /**
     * A POSIX account; {@code shell} and {@code home} are empty for the host's defaults.
     *
     * @param name the account name
     * @param shell the login shell, or empty
     * @param home the home directory, or empty
     */
    public record Account(String name, String shell, String home) {
    }

    /**
     * A directory the host creates and keeps.
     *
     * @param module the module that declares it
     * @param id its resource id
     * @param path its absolute path
     * @param mode octal permissions
     * @param owner the owning account
     */
    public record Directory(String module, String id, String path, String mode, String owner) {
    }

    /**
     * A secret file the host places; never its value.
     *
     * @param module the module whose secret it is
     * @param name the secret's name
     * @param path its absolute path
     * @param owner the owning account
     * @param mode always {@code 0600}
     */
    public record Secret(String module, String name, String path, String owner, String mode) {
    }

    /**
     * A path granted to a module.
     *
     * @param module the module
     * @param path the absolute path
     * @param mode {@code read} or {@code write}
     */
    public record Access(String module, String path, String mode) {
    }

    /**
     * The artifact a process runs: which build of which module version, and, once built, its
     * SHA-256 and where a host gets it. A host runs exactly the bytes of that digest.
     *
     * <p>The parts after the first format of declarations ({@code version}, {@code sha256},
     * {@code location}) are written only when they have a value and read as absent when missing,
     * so a declaration an earlier version composed reads back to its own revision.
     *
     * @param module the module that builds it
     * @param version the module version it is built from; null only in a declaration of an
     *     earlier format
     * @param name the artifact's name
     * @param system the system it is built for
     * @param sha256 {@code sha256:} and the hex digest of the built archive; null until built
     * @param location where a host gets the archive (a URI); null until built
     */
    public record Artifact(String module,
            @JacksonInject(value = "artifact.version", useInput = OptBoolean.TRUE) @JsonInclude(Include.NON_NULL)
            String version,
            String name, String system,
            @JacksonInject(value = "artifact.sha256", useInput = OptBoolean.TRUE) @JsonInclude(Include.NON_NULL)
            String sha256,
            @JacksonInject(value = "artifact.location", useInput = OptBoolean.TRUE) @JsonInclude(Include.NON_NULL)
            String location) {

        /**
         * @param module the module that builds it
         * @param version the module version
         * @param name the artifact's name
         * @param system the system it is built for
         * @return the artifact not built yet
         */
        public static Artifact unbuilt(String module, String version, String name, String system) {
            return new Artifact(module, version, name, system, null, null);
        }

        /** @return a copy pinned to the build that made {@code sha256}, to be got at {@code location} */
        public Artifact built(String sha256, String location) {
            return new Artifact(module, version, name, system, Objects.requireNonNull(sha256, "sha256"),
                    Objects.requireNonNull(location, "location"));
        }

        /** @return whether it is pinned to a successful build: a digest and where to get it */
        public boolean pinned() {
            return sha256 != null && location != null;
        }
    }

    /**
     * A run-once preparation: the process's binary with the argument {@code prepare}.
     *
     * @param run the argv
     * @param user the account it runs as
     * @param env its environment
     */
    public record Preparation(List<String> run, String user, Map<String, String> env) {
    }

    /**
     * A long-running process with its templates resolved.
     *
     * @param module the module
     * @param name the process name
     * @param artifact what it runs
     * @param run the argv
     * @param user the account it runs as
     * @param env its environment
     * @param replaces legacy containers it takes over from
     * @param overlap whether it is safe to run twice: a host restarts it by starting the new one,
     *     waiting until it runs, then stopping the old one; written only when {@code true}
     * @param prepare the preparation, or {@code null} when the module does not prepare
     */
    public record Process(String module, String name, Artifact artifact, List<String> run, String user,
            Map<String, String> env, List<String> replaces,
            @JacksonInject(value = LATER_FLAG, useInput = OptBoolean.TRUE) @JsonInclude(Include.NON_DEFAULT)
            boolean overlap,
            Preparation prepare) {

        /** @return a copy that runs {@code built} */
        public Process withArtifact(Artifact built) {
            return new Process(module, name, built, run, user, env, replaces, overlap, prepare);
        }
    }

    /**
     * A mount of a legacy container.
     *
     * @param source the path on the node, its template resolved ({@code ${dir:…}}, {@code ${secret:…}}, …)
     * @param target the path in the container
     * @param mode {@code read} or {@code write}
     */
    public record Mount(String source, String target, String mode) {
    }

    /**
     * A legacy container with its templates resolved; empty strings stand for absent options.
     *
     * @param module the module
     * @param name the container name
     * @param image the image
     * @param user the user inside, or empty
     * @param env its environment
     * @param mounts its mounts
     * @param network its network mode, or empty
     * @param run its command
     */
    public record Container(String module, String name, String image, String user, Map<String, String> env,
            List<Mount> mounts, String network, List<String> run) {
    }

    /**
     * A verb a module on the node offers.
     *
     * @param module the module
     * @param name the verb
     */
    public record Tool(String module, String name) {
    }
}
