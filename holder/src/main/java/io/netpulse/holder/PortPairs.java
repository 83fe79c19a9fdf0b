package io.netpulse.holder;

/**
 * Round-robin over (source address, server port) pairs, skipping those that have no local port left. Pair
 * {@code p} is source {@code p / ports} and server port {@code p % ports}, so consecutive connects go to
 * consecutive server ports, then to the next source address.
 */
final class PortPairs {

  private final int ports;
  private final boolean[] exhausted;
  private int exhaustedCount;
  private long position;

  PortPairs(int sources, int ports) {
    this.ports = ports;
    this.exhausted = new boolean[Math.multiplyExact(Math.max(1, sources), ports)];
  }

  /** The next pair with ports left, or -1 when none has. */
  int next() {
    if (exhaustedCount == exhausted.length) {
      return -1;
    }
    while (true) {
      int p = (int) (position++ % exhausted.length);
      if (!exhausted[p]) {
        return p;
      }
    }
  }

  void exhaust(int pair) {
    if (!exhausted[pair]) {
      exhausted[pair] = true;
      exhaustedCount++;
    }
  }

  boolean allExhausted() {
    return exhaustedCount == exhausted.length;
  }

  int count() {
    return exhausted.length;
  }

  int portIndex(int pair) {
    return pair % ports;
  }

  int sourceIndex(int pair) {
    return pair / ports;
  }
}
