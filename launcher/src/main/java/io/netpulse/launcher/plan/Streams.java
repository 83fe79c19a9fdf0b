package io.netpulse.launcher.plan;

/** A stream count: a fixed number, or {@code auto} = {@code perQueue} × the SUT interface's queue count. */
public record Streams(Integer fixed, int perQueue) {

  public static Streams auto(int perQueue) {
    return new Streams(null, perQueue);
  }

  public static Streams of(int count) {
    return new Streams(count, 0);
  }

  public boolean isAuto() {
    return fixed == null;
  }

  /** The number of streams for a SUT with {@code queues} queues (at least 1). */
  public int resolve(int queues) {
    return fixed != null ? fixed : Math.max(1, perQueue * queues);
  }

  @Override
  public String toString() {
    return fixed != null ? fixed.toString() : "auto (" + perQueue + " per queue)";
  }
}
