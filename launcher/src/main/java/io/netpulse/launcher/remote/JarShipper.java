package io.netpulse.launcher.remote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import io.netpulse.launcher.procedure.RemoteCommand;

/**
 * Puts the connection holder's jar ({@link HolderJar}) at ~/.netpulse/netpulse-holder.jar on a host, over the
 * run's SSH connection (so with its host-key check); skips the copy when the file there has the same sha256.
 */
public final class JarShipper {

  /** Remote directory and file name, relative to the SSH user's home. */
  public static final String REMOTE_DIR = ".netpulse";
  public static final String JAR_NAME = "netpulse-holder.jar";
  private static final Duration HASH_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration COPY_TIMEOUT = Duration.ofMinutes(10);
  /** $1: directory relative to $HOME, $2: file name. Prints the sha256 of the file, nothing when there is none. */
  private static final String REMOTE_HASH = "f=\"$HOME/$1/$2\"; if [ -f \"$f\" ]; then "
      + "sha256sum \"$f\" | cut -d' ' -f1; fi";
  /**
   * Written to a temporary name of its own (two launchers may ship to one host at once) and renamed, so a cut copy
   * never looks like a whole jar and a JVM already running the old one keeps reading it.
   */
  private static final String REMOTE_COPY = "set -e; d=\"$HOME/$1\"; mkdir -p \"$d\"; "
      + "t=\"$d/$2.part.$$\"; cat > \"$t\"; s=$(sha256sum \"$t\" | cut -d' ' -f1); mv -f \"$t\" \"$d/$2\"; echo \"$s\"";

  private JarShipper() {}

  public static void ship(RemoteHost host, Path localJar) throws RemoteFailure {
    shipIfChanged(host, localJar);
  }

  /** Copies the jar unless the host already has one with the same sha256; true when it copied. */
  public static boolean shipIfChanged(RemoteHost host, Path localJar) throws RemoteFailure {
    return shipIfChanged(host, localJar, REMOTE_DIR, JAR_NAME);
  }

  /** As {@link #shipIfChanged(RemoteHost, Path)} to {@code ~/remoteDir/name} (both passed quoted). */
  public static boolean shipIfChanged(RemoteHost host, Path localJar, String remoteDir, String name)
      throws RemoteFailure {
    String local = sha256(host, localJar);
    CommandResult remote = host.exec(script(REMOTE_HASH, remoteDir, name), HASH_TIMEOUT);
    if (remote.exit() == 0 && remote.stdout().strip().equals(local)) {
      return false;
    }
    try (InputStream in = Files.newInputStream(localJar)) {
      CommandResult copied = host.run(script(REMOTE_COPY, remoteDir, name).render(), in, COPY_TIMEOUT);
      if (copied.exit() != 0 || !copied.stdout().strip().equals(local)) {
        throw new RemoteFailure(host.name(), "host " + host.name() + ": copying " + localJar + " to ~/" + remoteDir + "/" + name
            + " failed (exit " + copied.exit() + "): " + TailBuffer.lastLines(copied.stderr(), 2)
            + "; is the home directory writable and the disk not full?");
      }
      return true;
    } catch (IOException e) {
      throw new RemoteFailure(host.name(), "cannot read " + localJar + " to copy it to " + host.name() + ": "
          + e.getMessage());
    }
  }

  private static RemoteCommand script(String text, String remoteDir, String name) {
    return RemoteCommand.of("sh", "-c", text, "netpulse-ship", remoteDir, name);
  }

  static String sha256(RemoteHost host, Path file) throws RemoteFailure {
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
    } catch (IOException e) {
      throw new RemoteFailure(host.name(), "cannot read " + file + " to copy it to " + host.name() + ": "
          + e.getMessage());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
