package dev.mesh.controller.manifest;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Something a module needs on the node it is assigned to. The four types are the records nested
 * here; dispatch on them with a {@code switch} pattern.
 */
public sealed interface Resource permits Resource.User, Resource.Directory, Resource.Process, Resource.Container {

    /** @return the resource id, unique in its manifest */
    String id();

    /** @return where the resource is declared */
    Location location();

    /**
     * A POSIX account.
     *
     * @param id resource id
     * @param name the account name
     * @param shell the login shell (absolute), or {@code null} for the host's default
     * @param home the home directory (absolute), or {@code null} for the host's default
     * @param location where it is declared
     */
    record User(String id, String name, String shell, String home, Location location) implements Resource {

        /** Checks the parts. */
        public User {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(location, "location");
        }
    }

    /**
     * A directory the host creates and keeps (never deletes).
     *
     * @param id resource id; also the last path segment
     * @param mode octal permission string, e.g. {@code "0700"}
     * @param place under the mesh root or the module's root
     * @param owner a declared user's name, or {@code root}
     * @param location where it is declared
     */
    record Directory(String id, String mode, Place place, String owner, Location location) implements Resource {

        /** Checks the parts. */
        public Directory {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(place, "place");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(location, "location");
        }
    }

    /**
     * A long-running process started from one of the module's artifacts.
     *
     * @param id resource id
     * @param name the process name, unique on a node
     * @param artifact the name of an artifact of this manifest
     * @param run the argv, never empty; each element a template
     * @param user a declared user's name, or {@code root}
     * @param env environment variables; values are templates; in document order
     * @param replaces names of legacy containers this process takes over from
     * @param overlap whether the process is safe to run twice: restarted by starting the new one
     *     beside the old one and stopping the old one once the new one runs
     * @param location where it is declared
     */
    record Process(String id, String name, String artifact, List<Template> run, String user,
            Map<String, Template> env, List<String> replaces, boolean overlap, Location location)
            implements Resource {

        /** Checks and copies the parts. */
        public Process {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(artifact, "artifact");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(location, "location");
            run = List.copyOf(run);
            if (run.isEmpty()) {
                throw new IllegalArgumentException("process " + name + ": run must not be empty");
            }
            env = Ordered.copyOf(env);
            replaces = List.copyOf(replaces);
        }
    }

    /**
     * A legacy container, kept so that old manifests compose and {@code replaces} has a counterpart.
     *
     * @param id resource id
     * @param name the container name
     * @param image the image reference
     * @param user the user inside the container, or {@code null}
     * @param env environment variables; values are templates
     * @param mounts host paths mounted into the container
     * @param network the network mode, or {@code null}
     * @param run the command; each element a template; may be empty (the image's default)
     * @param location where it is declared
     */
    record Container(String id, String name, String image, String user, Map<String, Template> env,
            List<Mount> mounts, String network, List<Template> run, Location location) implements Resource {

        /** Checks and copies the parts. */
        public Container {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(image, "image");
            Objects.requireNonNull(location, "location");
            env = Ordered.copyOf(env);
            mounts = List.copyOf(mounts);
            run = List.copyOf(run);
        }
    }
}
