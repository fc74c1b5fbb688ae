package dev.mesh.controller.cli;

import dev.mesh.controller.core.Inventory;
import dev.mesh.controller.core.verbs.Verbs;
import dev.mesh.controller.manifest.ManifestException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inventory {@code mesh-controller genesis} wrote ({@code MESH_GENESIS_FILE}), imported by the mesh's
 * first active controller (docs/design.md section 12): the nodes reported, the modules pushed and assigned
 * through the verbs, as {@code serve --dev --mesh} loads a mesh file ({@link MeshLoader}).
 *
 * <p>Only an active controller writes, so the import follows an activation ({@link #activated}), on a
 * thread of its own so that the handover is not held up; a standby never imports. It runs once per
 * process, and only on an inventory that holds no assignment and no module but the file's own
 * ({@link MeshLoader#isFirstFor}); otherwise it does nothing (logged at DEBUG). An import that fails
 * half-way (this controller lost the lock) is tried again at the next activation. Thread-safe.
 */
public final class GenesisImport {

    private static final Logger LOG = LoggerFactory.getLogger(GenesisImport.class);
    private static final String VARIABLE = "MESH_GENESIS_FILE";

    private final Path file;
    private final MeshLoader loader;
    private boolean settled; // guarded by this: imported, or found not to be the first

    private GenesisImport(Path file, MeshLoader loader) {
        this.file = file;
        this.loader = loader;
    }

    /**
     * Reads and checks the file, before anything connects.
     *
     * @param file {@code MESH_GENESIS_FILE}, when set
     * @return the import; empty when the variable is not set or the file does not exist (nothing to import)
     * @throws CommandException when the file has problems (its located problems are the cause) or cannot be read
     */
    public static Optional<GenesisImport> read(Optional<Path> file) {
        if (file.isEmpty()) {
            return Optional.empty();
        }
        Path path = file.get();
        if (!Files.exists(path)) {
            LOG.debug("genesis file absent file={}", path);
            return Optional.empty();
        }
        try {
            return Optional.of(new GenesisImport(path, MeshLoader.read(path)));
        } catch (ManifestException e) {
            throw new CommandException(VARIABLE + "=" + path + " has " + e.problems().size() + " problem"
                    + (e.problems().size() == 1 ? "" : "s") + "; nothing was started: write it again with "
                    + "mesh-controller genesis, or unset " + VARIABLE, e);
        }
    }

    /** Imports in the background: this controller has just become active. */
    public void activated(Inventory inventory, Verbs verbs) {
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(verbs, "verbs");
        Thread.ofVirtual().name("mesh-controller-genesis").start(() -> importInto(inventory, verbs));
    }

    /**
     * Imports the file unless it was imported, or the inventory holds a mesh already.
     *
     * @return whether this call imported it
     */
    public synchronized boolean importInto(Inventory inventory, Verbs verbs) {
        if (settled) {
            return false;
        }
        try {
            if (!loader.isFirstFor(inventory)) {
                settled = true;
                LOG.debug("genesis not imported file={} reason=\"the inventory holds a mesh already\"", file);
                return false;
            }
            loader.load(inventory, verbs);
            settled = true;
            LOG.info("genesis imported file={} nodes={} modules={} assignments={}", file, loader.nodes(),
                    loader.modules(), loader.assignments());
            return true;
        } catch (RuntimeException e) {
            // On its own thread: nothing above it would tell. The next activation tries again.
            LOG.warn("genesis import failed file={} reason=\"{}\"", file, e.getMessage());
            return false;
        }
    }
}
