package io.netpulse.launcher.run;

import io.netpulse.launcher.remote.RemoteFailure;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts and stops many remote processes at once: a seed's 256 netperf instances must start together
 * (they are meant to load the link at the same time), and each start or stop costs an SSH round trip
 * plus the start check, which one after another would add minutes.
 */
final class Parallel {

  /** Threads only wait on SSH channels; daemon, so a stuck host cannot keep the JVM alive. */
  private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "netpulse-remote");
    t.setDaemon(true);
    return t;
  });

  private Parallel() {}

  interface Task<T> {
    T call() throws RemoteFailure;
  }

  /**
   * Runs every task at once; each result is passed to {@code done} as it is known (so that what started is stopped
   * later even when another task failed); the first failure is thrown once all have finished.
   */
  static <T> void callAll(List<Task<T>> tasks, java.util.function.Consumer<T> done)
      throws RemoteFailure, InterruptedException {
    List<Future<T>> futures = new ArrayList<>();
    for (Task<T> t : tasks) {
      futures.add(POOL.submit(t::call));
    }
    RemoteFailure first = null;
    for (Future<T> f : futures) {
      try {
        done.accept(f.get());
      } catch (ExecutionException e) {
        if (first == null) {
          first = e.getCause() instanceof RemoteFailure r ? r
              : new RemoteFailure("?", String.valueOf(e.getCause().getMessage()));
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  interface Step {
    void run() throws RemoteFailure, InterruptedException;
  }

  /**
   * Runs {@code a} on the pool and {@code b} here, and returns when both have ended (also when this thread is
   * interrupted meanwhile: what {@code a} started must be known, to be stopped); then throws the first failure, or the
   * interrupt.
   */
  static void both(Step a, Step b) throws RemoteFailure, InterruptedException {
    Future<?> other = POOL.submit(() -> {
      a.run();
      return null;
    });
    Exception failure = null;
    try {
      b.run();
    } catch (RemoteFailure | InterruptedException | RuntimeException e) {
      failure = e;
    }
    boolean interrupted = false;
    while (true) {
      try {
        other.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof Exception x ? x : new RuntimeException(e.getCause());
        }
        break;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof RemoteFailure r) {
      throw r;
    }
    if (failure instanceof InterruptedException i) {
      throw i;
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    if (interrupted) {
      throw new InterruptedException("interrupted while starting");
    }
  }

  /** Runs every task at once and returns when all have ended; a task's failure is its own to report. */
  static void runAll(Collection<Runnable> tasks) {
    List<Future<?>> futures = new ArrayList<>();
    for (Runnable task : tasks) {
      futures.add(POOL.submit(task));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        // stop() logs what it could not do; the hosts' stopAll at the end of the run is the backstop
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
