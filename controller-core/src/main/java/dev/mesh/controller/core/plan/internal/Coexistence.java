package dev.mesh.controller.core.plan.internal;

import dev.mesh.controller.core.Declaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Whether a process can start while the container it replaces still runs (docs/design.md section 6):
 * not when they share the name, a port, or a path one of them writes. Judged from the
 * declarations alone, so only from what they say:
 *
 * <ul>
 *   <li>a container's ports are the host ports it publishes ({@code -p}/{@code --publish} in its
 *       {@code run}) and, on the host network, the numbers of its {@code …PORT} environment
 *       variables; a process's ports are the numbers of its {@code …PORT} variables and its
 *       {@code --port} argument;
 *   <li>a container's written paths are the sources of its {@code write} mounts; a process's paths
 *       are its module's directories and the absolute paths in its {@code run} and {@code env}.
 *       Two paths clash when one is the other or lies below it.
 * </ul>
 *
 * A container that neither declaration describes (one the node ran before the mesh managed it)
 * can only be judged by its name; the plan's reason says so.
 */
final class Coexistence {

    private Coexistence() {
    }

    /**
     * @param process the process that replaces the container
     * @param container the replaced container's name
     * @param declarations where the container may be described: the new declaration, then the
     *     acknowledged one (either may be {@code null})
     * @return why the two cannot run side by side, or empty when they can
     */
    static Optional<String> clash(Declaration.Process process, String container, Declaration... declarations) {
        if (process.name().equals(container)) {
            return Optional.of("of the same name");
        }
        Optional<Declaration.Container> described = Stream.of(declarations).filter(d -> d != null)
                .flatMap(d -> d.containers().stream()).filter(c -> c.name().equals(container)).findFirst();
        if (described.isEmpty()) {
            return Optional.empty();
        }
        Declaration.Container old = described.get();
        Set<Integer> ports = new TreeSet<>(containerPorts(old));
        ports.retainAll(processPorts(process));
        if (!ports.isEmpty()) {
            return Optional.of("that also listens on port " + ports.iterator().next());
        }
        List<String> paths = processPaths(process, declarations);
        for (Declaration.Mount mount : old.mounts()) {
            if (mount.mode().equals("write")) {
                for (String path : paths) {
                    if (related(mount.source(), path)) {
                        return Optional.of("that also writes " + mount.source());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code a} is {@code b}, or one lies below the other. */
    private static boolean related(String a, String b) {
        return a.equals(b) || a.startsWith(b.endsWith("/") ? b : b + "/") || b.startsWith(a.endsWith("/") ? a : a + "/");
    }

    private static Set<Integer> containerPorts(Declaration.Container container) {
        Set<Integer> ports = new TreeSet<>();
        List<String> run = container.run();
        for (int i = 0; i < run.size(); i++) {
            String arg = run.get(i);
            String published = arg.equals("-p") || arg.equals("--publish") ? (i + 1 < run.size() ? run.get(i + 1) : "")
                    : arg.startsWith("--publish=") ? arg.substring("--publish=".length())
                    : arg.startsWith("-p=") ? arg.substring("-p=".length()) : null;
            if (published != null) {
                hostPort(published).ifPresent(ports::add);
            }
        }
        if (container.network().equals("host")) {
            ports.addAll(envPorts(container.env()));
        }
        return ports;
    }

    /** {@code [ip:]host:container[/proto]} gives the host port; a lone container port publishes to a random one. */
    private static Optional<Integer> hostPort(String published) {
        String[] parts = published.split("/", 2)[0].split(":");
        return parts.length < 2 ? Optional.empty() : port(parts[parts.length - 2]);
    }

    private static Set<Integer> processPorts(Declaration.Process process) {
        Set<Integer> ports = new TreeSet<>(envPorts(process.env()));
        List<String> run = process.run();
        for (int i = 0; i < run.size(); i++) {
            String arg = run.get(i);
            if (arg.equals("--port") && i + 1 < run.size()) {
                port(run.get(i + 1)).ifPresent(ports::add);
            } else if (arg.startsWith("--port=")) {
                port(arg.substring("--port=".length())).ifPresent(ports::add);
            }
        }
        return ports;
    }

    private static Set<Integer> envPorts(Map<String, String> env) {
        Set<Integer> ports = new TreeSet<>();
        env.forEach((key, value) -> {
            if (key.endsWith("PORT")) {
                port(value).ifPresent(ports::add);
            }
        });
        return ports;
    }

    private static Optional<Integer> port(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        int port = Integer.parseInt(text);
        return port >= 1 && port <= 65_535 ? Optional.of(port) : Optional.empty();
    }

    private static List<String> processPaths(Declaration.Process process, Declaration... declarations) {
        List<String> paths = new ArrayList<>();
        if (declarations.length > 0 && declarations[0] != null) {
            declarations[0].directories().stream().filter(d -> d.module().equals(process.module()))
                    .map(Declaration.Directory::path).forEach(paths::add);
        }
        Stream.concat(process.run().stream(), process.env().values().stream())
                .filter(value -> value.startsWith("/")).forEach(paths::add);
        return paths;
    }
}
