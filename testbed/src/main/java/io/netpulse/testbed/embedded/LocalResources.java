package io.netpulse.testbed.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks of what embedded components need from this machine — a writable data dir, a free port
 * on 127.0.0.1 — that fail with a one-line message naming the option to change.
 */
public final class LocalResources {

  static final String LOOPBACK = "127.0.0.1";
  /** Where free ports are looked for: above the well-known and most registered services' ports. */
  private static final int QUIET_FLOOR = 10_000;

  private LocalResources() {}

  /** Creates {@code dir} if needed and proves it writable by writing to it. */
  public static Path requireWritableDir(Path dir) {
    try {
      Files.createDirectories(dir);
      // isWritable() says yes to root on read-only mounts, so actually write.
      Path probe = Files.createTempFile(dir, ".netpulse-probe", ".tmp");
      Files.delete(probe);
      return dir;
    } catch (IOException | SecurityException e) {
      throw notWritable(dir, e);
    }
  }

  /** The one wording for a data dir that cannot be used, whoever finds out. */
  public static EmbeddedStartException notWritable(Path dir, Exception cause) {
    return new EmbeddedStartException(
        "data dir " + dir + " is not writable (" + reason(cause) + "); choose another with --data-dir", cause);
  }

  /** The port itself when it is free on 127.0.0.1, a free one when it is 0. */
  public static int requireFreePort(int port, String option) {
    if (port == 0) {
      return freePort();
    }
    if (port < 0 || port > 65535) {
      throw new EmbeddedStartException(
          "port " + port + " is not a TCP port (1-65535); choose another with " + option);
    }
    if (!isFree(port)) {
      throw portInUse(port, option);
    }
    return port;
  }

  public static EmbeddedStartException portInUse(int port, String option) {
    return new EmbeddedStartException(
        "port " + port + " on " + LOOPBACK + " is already in use; choose another with " + option);
  }

  public static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
      return true;
    } catch (IOException e) { // BindException when taken
      return false;
    }
  }

  /**
   * A port free on 127.0.0.1 now, below the kernel's ephemeral range where there is room: a server restarted on the
   * port it had (a broker at the address its clients know) otherwise finds it taken by an outgoing connection's local
   * port, which the kernel hands out from that range (a restarted broker once could not bind in CI, beside a test
   * JVM's many SSH and Kafka connections). Else one the kernel chooses.
   */
  public static int freePort() {
    int low = ephemeralLow();
    if (low - QUIET_FLOOR >= 1000) {
      java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
      for (int attempt = 0; attempt < 50; attempt++) {
        int port = QUIET_FLOOR + random.nextInt(low - QUIET_FLOOR);
        if (isFree(port) && HANDED_OUT.claim(port)) {
          return port;
        }
      }
    }
    return kernelChosenPort();
  }

  /**
   * Ports this process handed out lately. A port is free when chosen and taken only when its server binds it, so two
   * choices before either binds could be the same port: the broker's and its controller's, chosen one after the other
   * (a CI run's broker once failed to bind its client port, "Address already in use", with nothing else running).
   */
  private static final class HandedOut {
    private static final long KEEP_NS = java.util.concurrent.TimeUnit.MINUTES.toNanos(10);
    private final java.util.Map<Integer, Long> at = new java.util.HashMap<>();

    /** True, and the port remembered, unless it was handed out within the last ten minutes. */
    synchronized boolean claim(int port) {
      long now = System.nanoTime();
      at.values().removeIf(t -> now - t > KEEP_NS);
      return at.putIfAbsent(port, now) == null;
    }
  }

  private static final HandedOut HANDED_OUT = new HandedOut();

  /**
   * The first port of this namespace's net.ipv4.ip_local_port_range (the kernel's default 32768 where it cannot be
   * read). Read by lines: {@code Files.readString} of a sysctl file returns its first byte only on JDK 17 ("3").
   */
  public static int ephemeralLow() {
    try {
      String range = String.join(" ", Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))).strip();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  private static int kernelChosenPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new EmbeddedStartException("no free TCP port on " + LOOPBACK + ": " + e.getMessage(), e);
    }
  }

  private static String reason(Exception e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "it cannot be created there";
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
