package dev.mesh.controller.cli;

import dev.mesh.controller.core.CanonicalJson;
import dev.mesh.controller.core.Composition;
import dev.mesh.controller.core.Declaration;
import dev.mesh.controller.core.Mesh;
import dev.mesh.controller.core.compose.Composer;
import dev.mesh.controller.manifest.Layout;
import dev.mesh.controller.manifest.ManifestException;
import dev.mesh.controller.manifest.MeshFile;
import dev.mesh.controller.manifest.Problem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code mesh-controller genesis --mesh FILE --out DIR [--bundle ARCHIVE]} (docs/design.md section 12): what a
 * new mesh needs before any controller runs, written offline — each node's first declaration
 * ({@code declarations/<node>.json}, the bytes {@code compose --json} prints for it, whose SHA-256 is its
 * revision), the bundle archive and its {@code sha256sum} file, {@code inventory.json}, which the first
 * {@code serve} imports ({@code MESH_GENESIS_FILE}), and the bus's users ({@link BusUsers}): the server's
 * {@code bus/authorization.conf} and each user's {@code bus/credentials/<user>.json}.
 *
 * <p>All or nothing: everything is checked first (the command line, the mesh file, every node's
 * composition, the archive's digest) and written into a directory beside {@code DIR}, which is renamed to
 * {@code DIR} at the end; a failure leaves nothing behind. {@code DIR} must not exist, or be empty.
 */
@Command(name = "genesis",
        mixinStandardHelpOptions = true,
        versionProvider = JarVersion.class,
        description = "Writes, offline, what a new mesh needs before any controller runs: each node's first "
                + "declaration (DIR/declarations/<node>.json), the controller's bundle archive with its SHA-256 "
                + "(DIR/mesh-controller.tar.gz, DIR/mesh-controller.tar.gz.sha256) and the inventory the first "
                + "serve imports (DIR/inventory.json, named by MESH_GENESIS_FILE), and the bus's users: the NATS server's "
                + "authorization (DIR/bus/authorization.conf) and each node's and the controller's credentials "
                + "(DIR/bus/credentials/<user>.json). Nothing is written unless every node composes.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every file was written",
            "1:a problem in the mesh file, a manifest or composition (a node that did not compose), a bundle "
                + "archive that does not match its digest file, or a file that could not be written; nothing was "
                + "written",
            "2:the command line is wrong: --out is not empty, or no bundle archive was found"})
public final class GenesisCommand implements Callable<Integer> {

    private static final String DECLARATIONS = "declarations";
    private static final String INVENTORY = "inventory.json";
    private static final String BUS = "bus";
    private static final String AUTHORIZATION = BUS + "/authorization.conf";
    private static final String CREDENTIALS = BUS + "/credentials";

    private final Optional<Path> bundleDirectory;

    @Spec
    private CommandSpec spec;

    @Option(names = "--mesh", required = true, paramLabel = "FILE",
            description = "The mesh file: nodes, modules (paths relative to it, or inline), assignments.")
    private Path mesh;

    @Option(names = "--out", required = true, paramLabel = "DIR",
            description = "The directory to write; it must not exist, or be empty.")
    private Path out;

    @Option(names = "--bundle", paramLabel = "ARCHIVE",
            description = "The controller's bundle archive (default: the " + BundleArchive.NAME + " beside the "
                    + "bundle directory this command runs from). When ARCHIVE" + BundleArchive.DIGEST_SUFFIX
                    + " is beside it, the archive must match it.")
    private Path bundle;

    @Option(names = "--bus-url", paramLabel = "URL",
            description = "The bus's URL (nats://host:port or tls://host:port), written into each bus credentials "
                    + "file; without it, add \"url\" to each before use.")
    private String busUrl;

    /**
     * @param bundleDirectory the bundle directory this command runs from (the launcher script's), whose
     *     sibling {@code mesh-controller.tar.gz} is the default archive; empty when not run from a bundle
     */
    public GenesisCommand(Optional<Path> bundleDirectory) {
        this.bundleDirectory = Objects.requireNonNull(bundleDirectory, "bundleDirectory");
    }

    @Override
    public Integer call() {
        Path target = out.toAbsolutePath().normalize();
        checkOut(target);
        if (busUrl != null && !busUrl.matches("(nats|tls)://[^\\s/]+")) {
            throw new ParameterException(spec.commandLine(), "--bus-url " + busUrl + ": the bus's URL is "
                    + "nats://host:port or tls://host:port");
        }
        Path archive = archive();
        MeshFile file;
        try {
            file = MeshFile.read(mesh);
        } catch (ManifestException e) {
            throw new CommandException("the mesh file " + mesh + " has " + count(e.problems().size(), "problem")
                    + "; nothing was written to " + out, e);
        }
        if (!file.layout().equals(Layout.DEFAULT)) {
            throw new CommandException(mesh + ": /layout: the mesh's controller composes with the default layout ("
                    + Layout.DEFAULT.meshRoot() + ", " + Layout.DEFAULT.modulesRoot() + "), and the first declarations "
                    + "must be the ones it composes; remove \"layout\" from the mesh file, or give the default roots; "
                    + "nothing was written to " + out);
        }
        Composition composition = Composer.compose(Mesh.of(file));
        PrintWriter stdout = spec.commandLine().getOut();
        if (!composition.blocked().isEmpty() || composition.problems().stream().anyMatch(Problem::isError)) {
            throw composition.problems().isEmpty() ? new CommandException(refusal(composition))
                    : new CommandException(refusal(composition), new ManifestException(composition.problems()));
        }
        composition.problems().forEach(stdout::println); // warnings only
        BusUsers bus;
        try {
            bus = BusUsers.generate(file.nodes().stream().map(MeshFile.Node::name).toList(), new SecureRandom());
        } catch (IllegalArgumentException e) {
            throw new CommandException(mesh + ": " + e.getMessage() + "; nothing was written to " + out, e);
        }
        List<String> lines = write(target, archive, file, composition.declarations(), bus);
        lines.forEach(stdout::println);
        stdout.flush();
        return 0;
    }

    /** {@code --out} is a new directory, or an empty one: genesis never mixes its files with others. */
    private void checkOut(Path target) {
        if (!Files.exists(target)) {
            return;
        }
        if (!Files.isDirectory(target)) {
            throw new ParameterException(spec.commandLine(), "--out " + out + " is a file, not a directory; name a "
                    + "directory that does not exist yet (genesis creates it)");
        }
        try (Stream<Path> entries = Files.list(target)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).sorted().limit(5).toList();
            if (!names.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--out " + out + " is not empty (it holds "
                        + String.join(", ", names.subList(0, Math.min(4, names.size()))) + (names.size() == 5 ? ", …" : "")
                        + "); genesis writes a new "
                        + "directory whole: remove it (or move it away), or choose another --out");
            }
        } catch (IOException e) {
            throw new CommandException("cannot list --out " + out + ": " + e + "; check that it is readable", e);
        }
    }

    /** {@code --bundle}, else the archive beside the bundle directory; a usage error when there is none. */
    private Path archive() {
        if (bundle != null) {
            if (!Files.isRegularFile(bundle)) {
                throw new ParameterException(spec.commandLine(), "--bundle " + bundle + ": " + (Files.isDirectory(bundle)
                        ? "it is a directory" : "no such file") + "; give the controller's bundle archive, "
                        + BundleArchive.NAME);
            }
            return bundle;
        }
        if (bundleDirectory.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "no bundle archive: this mesh-controller does not run "
                    + "from a bundle, so there is no " + BundleArchive.NAME + " beside it; pass --bundle ARCHIVE (the "
                    + "build makes controller-launcher/target/" + BundleArchive.NAME + ")");
        }
        Path directory = bundleDirectory.get().toAbsolutePath().normalize();
        Path beside = Optional.ofNullable(directory.getParent()).orElse(directory).resolve(BundleArchive.NAME);
        if (!Files.isRegularFile(beside)) {
            throw new ParameterException(spec.commandLine(), "no bundle archive at " + beside + " (beside the bundle "
                    + "directory " + directory + " this command runs from); pass --bundle ARCHIVE");
        }
        return beside;
    }

    /** Every node that did not compose, with its first reason: what the user fixes first. */
    private String refusal(Composition composition) {
        List<String> nodes = new ArrayList<>();
        composition.blocked().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> nodes.add(
                entry.getKey() + " (" + entry.getValue().stream().findFirst().map(Problem::message).orElse("?") + ")"));
        String what = nodes.isEmpty() ? "the mesh does not compose" : "genesis needs every node's declaration, and "
                + count(nodes.size(), "node") + " did not compose: " + String.join("; ", nodes);
        return what + "; fix the mesh file (compose --mesh " + mesh + " shows each node's problems); nothing was "
                + "written to " + out;
    }

    /**
     * Writes everything into a new directory beside {@code target}, then renames it to {@code target}
     * (over an empty one): a failure removes the new directory and leaves {@code target} as it was.
     */
    private List<String> write(Path target, Path archive, MeshFile file, List<Declaration> declarations,
            BusUsers bus) {
        Path parent = Optional.ofNullable(target.getParent()).orElse(target);
        Path staging = null;
        try {
            Files.createDirectories(parent);
            staging = Files.createTempDirectory(parent, "." + target.getFileName() + ".genesis-");
            List<String> lines = new ArrayList<>();
            Files.createDirectory(staging.resolve(DECLARATIONS));
            for (Declaration declaration : declarations) {
                String name = DECLARATIONS + "/" + declaration.node() + ".json";
                Files.write(staging.resolve(name), CanonicalJson.bytes(declaration));
                lines.add(name + ": " + declaration.node() + " " + declaration.revision());
            }
            BundleArchive.Copied copied = BundleArchive.copy(archive, staging.resolve(BundleArchive.NAME));
            Files.write(staging.resolve(BundleArchive.NAME + BundleArchive.DIGEST_SUFFIX),
                    BundleArchive.digestLine(copied.sha256()));
            lines.add(BundleArchive.NAME + ": sha256 " + copied.sha256() + ", " + copied.bytes() + " bytes, from "
                    + archive);
            lines.add(BundleArchive.NAME + BundleArchive.DIGEST_SUFFIX + ": " + copied.sha256() + "  "
                    + BundleArchive.NAME);
            Files.write(staging.resolve(INVENTORY), GenesisInventory.of(mesh, file));
            lines.add(INVENTORY + ": " + count(file.nodes().size(), "node") + ", " + count(file.modules().size(),
                    "module") + ", " + count(file.assignments().size(), "assignment") + "; set MESH_GENESIS_FILE to "
                    + "its path for the first serve");
            writeBus(staging, bus, lines);
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
            // rename(2) replaces an empty directory: checkOut allowed no other.
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            staging = null;
            lines.add("genesis written to " + out + ": " + count(declarations.size(), "declaration")
                    + ", the bundle archive, the inventory and " + count(bus.users().size(), "bus user"));
            return lines;
        } catch (IOException e) {
            throw new CommandException("cannot write the genesis to " + out + ": " + e + "; check that " + parent
                    + " is writable and that --out is empty; nothing was written", e);
        } finally {
            if (staging != null) {
                remove(staging);
            }
        }
    }

    /**
     * The bus's users: the server's authorization block (hashes only, readable by the bus's account once
     * installed) and each user's credentials, readable by their owner alone.
     */
    private void writeBus(Path staging, BusUsers bus, List<String> lines) throws IOException {
        Path credentials = Files.createDirectories(staging.resolve(CREDENTIALS));
        Files.setPosixFilePermissions(credentials, PosixFilePermissions.fromString("rwx------"));
        Files.write(staging.resolve(AUTHORIZATION), bus.authorization());
        Files.setPosixFilePermissions(staging.resolve(AUTHORIZATION), PosixFilePermissions.fromString("rw-r-----"));
        lines.add(AUTHORIZATION + ": " + count(bus.users().size(), "user") + " (" + BusUsers.CONTROLLER + " and "
                + count(bus.users().size() - 1, "node") + "); include it from the bus's server configuration");
        for (BusUsers.User user : bus.users()) {
            Path path = credentials.resolve(user.name() + ".json");
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(path, BusUsers.credentials(user, Optional.ofNullable(busUrl)));
        }
        lines.add(CREDENTIALS + "/: " + count(bus.users().size(), "credentials file") + ", mode 0600: each the "
                + "bus-nats secret of its node's host (" + BusUsers.CONTROLLER + ".json: the controller's)"
                + (busUrl == null ? "; add \"url\" to each" : ""));
    }

    /** Removes a staging directory after a failure; what cannot be removed is left, the failure stands. */
    private static void remove(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException ignored) {
            // The command fails already with the reason that matters; a leftover hidden directory is harmless.
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
