package io.netpulse.holder;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT end the run cleanly (close everything, print the summary, exit 0) instead of the JVM's
 * default exit 143/130: the launcher stops its clients with SIGTERM and that is a normal end for them.
 * sun.misc.Signal (module jdk.unsupported) is the only JDK way to handle a signal without exiting.
 */
final class StopSignals implements AutoCloseable {

  private static final List<String> SIGNALS = List.of("TERM", "INT");
  private final List<Signal> installed = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  /** Installs {@code onStop} for TERM and INT until {@link #close()}, which puts back the previous handlers. */
  StopSignals(Runnable onStop) {
    for (String name : SIGNALS) {
      try {
        Signal signal = new Signal(name);
        previous.add(Signal.handle(signal, s -> onStop.run()));
        installed.add(signal);
      } catch (IllegalArgumentException unavailable) {
        // the JVM reserves the signal (e.g. -Xrs): the default exit still closes every socket
      }
    }
  }

  @Override
  public void close() {
    for (int i = 0; i < installed.size(); i++) {
      Signal.handle(installed.get(i), previous.get(i));
    }
  }
}
