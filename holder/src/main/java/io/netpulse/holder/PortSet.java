package io.netpulse.holder;

/**
 * The server ports of the concurrent-connections test: each port of {@code bases} starts a block of {@code block}
 * consecutive ports. c1000k's server listens on {@code PORT..PORT+99} and seed 000 starts one per base port
 * 2000, 4000, … 64000: {@code 2000:64000:2000} with block 100, 3,200 ports. Each server port is one more
 * destination, and a client address can reach one ephemeral range of connections per destination.
 */
public record PortSet(PortRange bases, int block) {

  public PortSet {
    if (bases == null || block < 1) {
      throw new IllegalArgumentException("a port set needs base ports and a block of at least 1");
    }
    if ((long) bases.last() + block - 1 > PortRange.MAX_PORT) {
      throw new IllegalArgumentException("ports " + bases + " with blocks of " + block + " go past "
          + PortRange.MAX_PORT + " (last " + ((long) bases.last() + block - 1) + ")");
    }
    if (bases.count() > 1 && block > bases.step()) {
      throw new IllegalArgumentException("blocks of " + block + " ports every " + bases.step()
          + " ports overlap; use a block of at most " + bases.step());
    }
  }

  /** Single ports, no blocks: what {@code --ports} alone means. */
  public static PortSet of(PortRange ports) {
    return new PortSet(ports, 1);
  }

  public int count() {
    return bases.count() * block;
  }

  /** Every port, block by block in base order. */
  public int[] ports() {
    int[] all = new int[count()];
    int i = 0;
    for (int base : bases.ports()) {
      for (int k = 0; k < block; k++) {
        all[i++] = base + k;
      }
    }
    return all;
  }

  /** {@code 2000:64000:2000} or {@code 2000:64000:2000 block 100}, for messages. */
  @Override
  public String toString() {
    return block == 1 ? bases.toString() : bases + " block " + block;
  }
}
