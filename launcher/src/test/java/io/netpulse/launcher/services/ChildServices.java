package io.netpulse.launcher.services;

/**
 * The end of a service child's {@code main} ({@link BrokerChild}, {@link StoreChild}): one protocol with the parent for
 * all of them, which waits for the READY line in the child's log and stops it with SIGTERM.
 */
final class ChildServices {

  private ChildServices() {}

  /**
   * Prints {@code READY address} once the service is up and runs until stopped; SIGTERM runs {@code close} (in a hook
   * named {@code hookName}), so that the service shuts down cleanly as an operator's stop would.
   */
  static void readyUntilStopped(String address, Runnable close, String hookName) throws InterruptedException {
    Runtime.getRuntime().addShutdownHook(new Thread(close, hookName));
    System.out.println("READY " + address);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
