package dev.mesh.controller.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.OptionalLong;

/**
 * The state directory's {@code controller.lock}: held (a {@link FileLock}) by the one controller
 * that runs on the directory, for as long as it runs, and holding its pid. The operating system
 * frees it when that process ends, however it ends ({@code kill -9} too): a held lock is a live
 * controller, a free one is none. Not thread-safe; one start takes it, its close releases it.
 */
final class StateLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private StateLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock and writes this process's pid in it.
     *
     * @param file the lock file, created owner-only when missing
     * @throws StoreException when another controller (another process, or this one) holds it,
     *     naming its pid
     * @throws IOException when the file cannot be opened or written
     */
    static StateLock take(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(StateDirectory.OWNER_FILE));
        }
        Files.setPosixFilePermissions(file, StateDirectory.OWNER_FILE);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // this JVM already runs a store on the directory
        }
        if (lock == null) {
            String holder = holder(channel).stream().mapToObj(pid -> "pid " + pid).findFirst().orElse("pid unknown");
            channel.close();
            throw new StoreException("another controller is running (" + holder + ") on the state directory "
                    + file.getParent() + "; stop it first, or give this one another state directory (--state)");
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        channel.force(false);
        return new StateLock(channel, lock);
    }

    /** The pid the holder wrote; empty while it has not written it yet. */
    private static OptionalLong holder(FileChannel channel) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(32);
        channel.read(content, 0);
        String text = new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII).strip();
        return text.matches("\\d{1,18}") ? OptionalLong.of(Long.parseLong(text)) : OptionalLong.empty();
    }

    /** Frees the lock: another controller may run on the directory. */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
