package io.netpulse.holder;

/**
 * Loads, while descriptors are still free, the classes the tools first use when they run out of them: a class
 * loaded from a directory (or a jar not yet open) needs a descriptor of its own, and would fail then with
 * NoClassDefFoundError instead of the line saying whose limit was hit.
 */
final class Preload {

  private Preload() {}

  static void limitPaths() {
    for (ClimbEnd e : ClimbEnd.values()) {
      e.side().code();
    }
    ClimbLine.parse(new ClimbLine(ClimbEnd.TIME_UP, 0, "preload").line());
    ClimbLine.lastIn("");
    ConnectFailures failures = new ConnectFailures();
    failures.failed(ConnectFailures.Kind.of(""), "preload");
    failures.streakEnd(); // its switch loads a class of its own
    ProcessLimits.openFilesText();
    load(HeldSockets.class, ConnectionsException.class, ClientStats.class, ServerStats.class);
  }

  private static void load(Class<?>... classes) {
    for (Class<?> c : classes) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }
}
