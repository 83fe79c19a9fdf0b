package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.holder.ClimbEnd;
import io.netpulse.holder.ClimbLine;
import io.netpulse.holder.ConnectFailures.Kind;
import io.netpulse.holder.ConnectionsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What ended a repetition's climb, from the outputs of its connection tools: each client's
 * {@link ClimbLine} (or c1000k's {@code error: ...} line), and the server's when it ran out of file descriptors.
 *
 * <p>One answer for the repetition, by whose limit matters most to the figure: the SUT's (the server's open files
 * first, since the clients then see only its consequences, SYN timeouts), then time up (the figure is a lower
 * bound), then unknown causes, then a client's own limit, then the cap. The detail lists every client host.
 */
final class Climbs {

  private static final Pattern C1000K_COUNT = Pattern.compile("connections: (\\d+)(, fd: \\d+)?");
  private static final Pattern C1000K_ERROR = Pattern.compile("error: (.*)");
  /** Lower ranks first: which end speaks for the repetition. */
  private static final List<ClimbEnd> RANK = List.of(ClimbEnd.SUT_OPEN_FILES, ClimbEnd.REFUSED,
      ClimbEnd.SYN_TIMEOUTS, ClimbEnd.CLOSED_BY_SUT, ClimbEnd.TIME_UP, ClimbEnd.CONNECT_ERRORS, ClimbEnd.STALLED,
      ClimbEnd.CLIENT_OPEN_FILES, ClimbEnd.CLIENT_PORTS, ClimbEnd.CAP_REACHED);

  private Climbs() {}

  /**
   * One tool process of the repetition.
   *
   * @param host   the plan's host name
   * @param server true for the SUT's server, false for a client
   * @param c1000k the seed's c1000k rather than netpulse's tool
   * @param stdout what it printed
   */
  public record Output(String host, boolean server, boolean c1000k, String stdout) {}

  /** The repetition's climb; empty when no tool said anything about it. */
  public static Optional<RunEvent.Climb> of(List<Output> outputs) {
    List<String> parts = new ArrayList<>();
    ClimbEnd verdict = null;
    for (Output o : outputs) {
      if (o.server()) {
        Optional<ClimbLine> limit = o.c1000k() ? c1000kLine(o.stdout(), true) : ClimbLine.lastIn(o.stdout());
        if (limit.isPresent() && limit.get().end() == ClimbEnd.SUT_OPEN_FILES) {
          verdict = ClimbEnd.SUT_OPEN_FILES;
          parts.add(o.host() + " (server): " + limit.get().end().label() + " at " + limit.get().open() + ": "
              + limit.get().detail());
          break; // one server's line says it; c1000k's 32 would say it 32 times
        }
      }
    }
    Map<String, List<ClimbLine>> byClient = new LinkedHashMap<>();
    for (Output o : outputs) {
      if (!o.server()) {
        Optional<ClimbLine> line = o.c1000k() ? c1000kLine(o.stdout(), false) : ClimbLine.lastIn(o.stdout());
        List<ClimbLine> lines = byClient.computeIfAbsent(o.host(), h -> new ArrayList<>());
        line.ifPresent(lines::add);
      }
    }
    for (Map.Entry<String, List<ClimbLine>> e : byClient.entrySet()) {
      Optional<ClimbLine> first = e.getValue().stream().min(Comparator.comparingInt(l -> RANK.indexOf(l.end())));
      if (first.isEmpty()) {
        parts.add(e.getKey() + ": no climb line (the client ended before saying what ended its climb)");
        continue;
      }
      ClimbLine l = first.get();
      long open = e.getValue().stream().mapToLong(ClimbLine::open).sum();
      parts.add(e.getKey() + ": " + l.end().label() + " at " + open + ": " + l.detail());
      if (verdict == null || RANK.indexOf(l.end()) < RANK.indexOf(verdict)) {
        verdict = l.end();
      }
    }
    if (verdict == null) {
      return Optional.empty();
    }
    return Optional.of(new RunEvent.Climb(verdict.code(), verdict.side().code(), String.join("; ", parts)));
  }

  /**
   * c1000k prints {@code connections: N, fd: F} every thousand and, when a call fails, {@code connections: N} then
   * {@code error: STRERROR} and exits; a client with no error was still climbing when stopped.
   */
  private static Optional<ClimbLine> c1000kLine(String stdout, boolean server) {
    long count = 0;
    String error = null;
    for (String line : (stdout == null ? "" : stdout).lines().toList()) {
      Matcher m = C1000K_COUNT.matcher(line.strip());
      if (m.matches()) {
        count = Long.parseLong(m.group(1));
      }
      Matcher e = C1000K_ERROR.matcher(line.strip());
      if (e.matches()) {
        error = e.group(1);
      }
    }
    if (error == null) {
      return server ? Optional.empty()
          : Optional.of(new ClimbLine(ClimbEnd.TIME_UP, count, "c1000k's client was still connecting when stopped"));
    }
    Kind kind = Kind.of(error);
    if (server) {
      return kind == Kind.OPEN_FILES ? Optional.of(new ClimbLine(ClimbEnd.SUT_OPEN_FILES, count,
          "c1000k's server: " + error + "; hint: " + ConnectionsException.NOFILE_HINT)) : Optional.empty();
    }
    ClimbEnd end = switch (kind) {
      case NO_LOCAL_PORT -> ClimbEnd.CLIENT_PORTS;
      case OPEN_FILES -> ClimbEnd.CLIENT_OPEN_FILES;
      case REFUSED -> ClimbEnd.REFUSED;
      case TIMED_OUT -> ClimbEnd.SYN_TIMEOUTS;
      case OTHER -> ClimbEnd.CONNECT_ERRORS;
    };
    return Optional.of(new ClimbLine(end, count, "c1000k's client: " + error + " (it then exits, closing its "
        + "connections)"));
  }
}
