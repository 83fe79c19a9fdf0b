package io.netpulse.holder;

import java.util.Locale;

/**
 * What ended a climb of concurrent connections, and whose limit it is: a SUT's limit is the figure being
 * measured, a client's means the figure says more about the client than about the SUT, the plan's (cap, time)
 * neither. Codes appear in the tools' {@code connections: climb} lines, in run events and in the run's JSON.
 */
public enum ClimbEnd {
  /** Refused connects in a row: nothing listens any more, or the SUT rejects them. */
  REFUSED(Side.SUT, "refused by the SUT"),
  /** Connects in a row unanswered: the SUT drops SYNs (accept queue or conntrack table full, a firewall). */
  SYN_TIMEOUTS(Side.SUT, "SYN timeouts"),
  /** The server could not accept more: its process ran out of file descriptors. */
  SUT_OPEN_FILES(Side.SUT, "open files on the SUT"),
  /** The count stopped rising while the SUT closed held connections. */
  CLOSED_BY_SUT(Side.SUT, "held connections closed by the SUT"),
  /** Every (source address, server port) pair has used the client's whole ephemeral port range. */
  CLIENT_PORTS(Side.CLIENT, "client ports exhausted"),
  /** The client process ran out of file descriptors. */
  CLIENT_OPEN_FILES(Side.CLIENT, "open files on the client"),
  /** Connects in a row failed otherwise (no route, network unreachable, no buffer space). */
  CONNECT_ERRORS(Side.UNKNOWN, "connect errors"),
  /** No new peak for a while, without failures or closes to say why. */
  STALLED(Side.UNKNOWN, "count stopped rising"),
  /** Stopped while still opening: the count is a lower bound. */
  TIME_UP(Side.PLAN, "time up while still rising"),
  /** The plan's optional cap ({@code target}) was reached. */
  CAP_REACHED(Side.PLAN, "cap reached");

  /** Whose limit ended the climb. */
  public enum Side {
    SUT, CLIENT, PLAN, UNKNOWN;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Side side;
  private final String label;

  ClimbEnd(Side side, String label) {
    this.side = side;
    this.label = label;
  }

  /** As written in lines and events, e.g. {@code client_ports}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  public Side side() {
    return side;
  }

  /** For people, e.g. "client ports exhausted". */
  public String label() {
    return label;
  }

  /** The end with this code, or null. */
  public static ClimbEnd ofCode(String code) {
    for (ClimbEnd e : values()) {
      if (e.code().equals(code)) {
        return e;
      }
    }
    return null;
  }
}
