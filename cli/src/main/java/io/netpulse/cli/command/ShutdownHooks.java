package io.netpulse.cli.command;

/**
 * The JVM shutdown hooks with which a long-running command (run, demo, collector, topics tail) stops cleanly on
 * Ctrl-C or SIGTERM, and which it takes off again when it ends by itself.
 */
public final class ShutdownHooks {

  private ShutdownHooks() {}

  /**
   * Takes {@code hook} off, unless the JVM is already shutting down: then a signal has started the hook, the JVM
   * refuses its removal, and the hook is left to finish the stop it was written for.
   */
  public static void remove(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running: it ends the command's work itself
    }
  }
}
