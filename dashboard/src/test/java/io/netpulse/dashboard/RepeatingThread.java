package io.netpulse.dashboard;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Runs a round, numbered from 0, on a thread of its own every {@code pause} until closed: live traffic for a page
 * under test to follow while the test looks at it. Closing stops it and waits a while for the round under way.
 */
final class RepeatingThread implements AutoCloseable {

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;

  RepeatingThread(String name, Duration pause, IntConsumer round) {
    thread = new Thread(() -> {
      for (int i = 0; running.get(); i++) {
        round.accept(i);
        try {
          Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
          return;
        }
      }
    }, name);
    thread.start();
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.interrupt();
    thread.join(5_000);
  }
}
