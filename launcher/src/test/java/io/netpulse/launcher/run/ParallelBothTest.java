package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.remote.RemoteFailure;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Samplers and servers start at once ({@link Parallel#both}): both run, and neither's failure is lost. */
@Tag("unit")
class ParallelBothTest {

  @Test
  void bothRunAtTheSameTime() throws Exception {
    CountDownLatch aStarted = new CountDownLatch(1);
    CountDownLatch bStarted = new CountDownLatch(1);
    // each waits for the other: only concurrent steps get past it
    Parallel.both(() -> {
      aStarted.countDown();
      assertThat(bStarted.await(10, TimeUnit.SECONDS)).isTrue();
    }, () -> {
      bStarted.countDown();
      assertThat(aStarted.await(10, TimeUnit.SECONDS)).isTrue();
    });
  }

  @Test
  void theOthersFailureIsThrownAfterBothEnded() {
    AtomicBoolean bEnded = new AtomicBoolean();
    assertThatThrownBy(() -> Parallel.both(() -> {
      throw new RemoteFailure("sut", "sar exited at start");
    }, () -> {
      Thread.sleep(200);
      bEnded.set(true);
    })).isInstanceOf(RemoteFailure.class).hasMessageContaining("sar exited at start");
    assertThat(bEnded).isTrue();
  }

  @Test
  void aFailureHereWaitsForTheOtherStepSoThatWhatItStartedIsKnown() {
    AtomicBoolean aEnded = new AtomicBoolean();
    assertThatThrownBy(() -> Parallel.both(() -> {
      Thread.sleep(200);
      aEnded.set(true);
    }, () -> {
      throw new RemoteFailure("peer", "netserver#0 exited at start");
    })).isInstanceOf(RemoteFailure.class).hasMessageContaining("netserver#0");
    assertThat(aEnded).isTrue();
  }

  @Test
  void anInterruptWhileWaitingStillWaitsForTheOtherStepThenSaysInterrupted() throws Exception {
    AtomicBoolean aEnded = new AtomicBoolean();
    Thread caller = Thread.currentThread();
    assertThatThrownBy(() -> Parallel.both(() -> {
      caller.interrupt();
      Thread.sleep(300);
      aEnded.set(true);
    }, () -> {})).isInstanceOf(InterruptedException.class);
    assertThat(aEnded).isTrue();
    assertThat(Thread.interrupted()).as("interrupt flag kept").isTrue();
  }
}
