package io.netpulse.tools.ss;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which processes hold a listening TCP socket or a bound UDP socket: iproute2's {@code ss -Hlntup}, read by the
 * launcher to know that a repetition's servers are up before it starts their clients, instead of waiting a fixed time
 * that is too long on an idle host and may be too short on a busy one.
 */
public final class ListeningSockets {

  /** {@code users:(("netserver",pid=14938,fd=3))}: one entry per process holding the socket. */
  private static final Pattern PID = Pattern.compile("pid=(\\d+)");

  private ListeningSockets() {}

  /**
   * No header (-H), listening (-l; for UDP: bound, unconnected), numeric (-n), TCP and UDP (-t -u), with the owning
   * processes (-p: the caller's own processes at least, which the servers it started are).
   */
  public static List<String> command() {
    return List.of("ss", "-Hlntup");
  }

  /** The PIDs that own at least one of the sockets listed; lines without a process (another user's) add none. */
  public static Set<Long> pids(String ssOutput) {
    Set<Long> pids = new HashSet<>();
    for (String line : ssOutput.split("\n")) {
      Matcher m = PID.matcher(line);
      while (m.find()) {
        pids.add(Long.parseLong(m.group(1)));
      }
    }
    return pids;
  }
}
