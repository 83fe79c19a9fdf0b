package io.netpulse.processor.store;

import java.time.Duration;

/**
 * Counts points handed to the asynchronous write API and points it has settled (written, or given up
 * on), so that {@link InfluxStore#flush(Duration)} can wait until what was handed over before it is
 * settled. The write API reports each batch once, in order: a success carries its lines, a final
 * failure does not, so a failure settles everything handed over so far (the failed batch is the
 * oldest unsettled one; later ones may be counted twice, which only makes a later flush return early).
 */
final class WriteAccounting {

  private long submittedPoints;
  private long settledPoints;
  private long writtenPoints;
  private long failedBatches;
  private long droppedPoints;

  synchronized void submitted() {
    submittedPoints++;
  }

  synchronized void written(long points) {
    writtenPoints += points;
    settledPoints += points;
    notifyAll();
  }

  synchronized void failed() {
    failedBatches++;
    settledPoints = Math.max(settledPoints, submittedPoints);
    notifyAll();
  }

  synchronized void dropped(long points) {
    droppedPoints += points;
    settledPoints += points;
    notifyAll();
  }

  /**
   * Waits until every point submitted before the call is settled.
   *
   * @return true if they were all written with no failure meanwhile, false on a failure or timeout
   */
  synchronized boolean awaitSettled(long target, long failuresBefore, long droppedBefore, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (settledPoints < target && failedBatches == failuresBefore) {
      long leftMillis = (deadline - System.nanoTime()) / 1_000_000;
      if (leftMillis <= 0) {
        return false;
      }
      wait(leftMillis);
    }
    return failedBatches == failuresBefore && droppedPoints == droppedBefore;
  }

  synchronized long submittedPoints() {
    return submittedPoints;
  }

  synchronized long writtenPoints() {
    return writtenPoints;
  }

  synchronized long failedBatches() {
    return failedBatches;
  }

  synchronized long droppedPoints() {
    return droppedPoints;
  }
}
