package io.netpulse.collector;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One collector per data dir: two on the same spool would send and delete each other's segments. Held as an OS lock
 * on {@code DATA_DIR/collector.lock} (released by the kernel if the process dies, so no stale lock to clean up); the
 * file holds the owner's PID for the error message. The file itself is left in place: deleting it would let a third
 * collector lock a new file while the second still holds the old one.
 */
public final class DataDirLock implements AutoCloseable {

  public static final String FILE_NAME = "collector.lock";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /** The data dir cannot be used: another collector holds it, or it cannot be created or written. */
  public static final class DataDirUnavailableException extends Exception {
    public DataDirUnavailableException(String message) {
      super(message);
    }
  }

  /** Creates {@code dataDir} if needed and locks it, or fails at once naming the dir (and the holder's PID). */
  public static DataDirLock acquire(Path dataDir) throws DataDirUnavailableException {
    Path file = dataDir.resolve(FILE_NAME);
    FileChannel channel;
    try {
      Files.createDirectories(dataDir);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new DataDirUnavailableException("cannot use data dir " + dataDir + ": " + e.getMessage());
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        String holder = holder(channel);
        channel.close();
        throw inUse(dataDir, holder);
      }
      byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(pid), 0);
      channel.force(false);
      return new DataDirLock(file, channel, lock);
    } catch (OverlappingFileLockException e) { // held by this same JVM
      closeQuietly(channel);
      throw inUse(dataDir, "this process");
    } catch (IOException e) {
      closeQuietly(channel);
      throw new DataDirUnavailableException("cannot lock data dir " + dataDir + ": " + e.getMessage());
    }
  }

  private static DataDirUnavailableException inUse(Path dataDir, String holder) {
    return new DataDirUnavailableException("data dir " + dataDir + " is in use by another collector ("
        + holder + " holds " + dataDir.resolve(FILE_NAME) + "); give each collector its own --data-dir");
  }

  private static String holder(FileChannel channel) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(32);
    channel.read(buf, 0);
    String pid = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).strip();
    return pid.matches("\\d+") ? "pid " + pid : "a process";
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // the lock is what matters, and we do not hold it
    }
  }

  public Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
