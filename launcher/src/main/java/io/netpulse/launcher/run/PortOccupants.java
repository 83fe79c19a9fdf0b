package io.netpulse.launcher.run;

import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.launcher.remote.CommandResult;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The TCP sockets on a host whose local port is one a server of the test is to listen on, as {@code ss -Htanp} lists
 * them: what to look at when a server could not listen. A socket left in TIME-WAIT by a socket that did not set
 * SO_REUSEADDR (an outgoing connection, a tool's listener) refuses every bind to its port until Linux ends it, within
 * 60 s of its close (TCP_TIMEWAIT_LEN, fixed). c1000k's port blocks (2000-64099) cross the ephemeral range, so the
 * connections of the test before can be there.
 */
final class PortOccupants {

  static final String TIME_WAIT = "TIME-WAIT";
  /** How long Linux keeps a socket in TIME-WAIT: 60 s, not tunable. */
  static final Duration TIME_WAIT_LENGTH = Duration.ofSeconds(60);

  /** One socket: its state, local port, peer and process ({@code users:((...))}, empty when ss shows none). */
  record Socket(String state, int port, String peer, String process) {}

  private PortOccupants() {}

  /** The sockets on {@code host} whose local port is one of {@code ports}. */
  static List<Socket> on(RemoteHost host, Collection<Integer> ports, Duration timeout) throws RemoteFailure {
    Set<Integer> wanted = new TreeSet<>(ports);
    CommandResult r = host.exec(RemoteCommand.of("ss", "-Htanp", filter(wanted)), timeout);
    if (r.exit() != 0) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": ss could not list the sockets on the test's ports"
          + " (exit " + r.exit() + "): " + r.stderr().strip());
    }
    return parse(r.stdout(), wanted);
  }

  /** An ss filter for the local ports {@code ports}: consecutive ports as one range. */
  static String filter(Set<Integer> ports) {
    List<String> terms = new ArrayList<>();
    int from = -1;
    int to = -1;
    for (int p : ports) {
      if (p == to + 1 && from >= 0) {
        to = p;
        continue;
      }
      if (from >= 0) {
        terms.add(term(from, to));
      }
      from = p;
      to = p;
    }
    if (from >= 0) {
      terms.add(term(from, to));
    }
    return "( " + String.join(" or ", terms) + " )";
  }

  private static String term(int from, int to) {
    return from == to ? "sport = :" + from : "( sport >= :" + from + " and sport <= :" + to + " )";
  }

  /** The sockets of {@code ssOutput} ({@code ss -Htanp}: state, queues, local, peer, process) on {@code ports}. */
  static List<Socket> parse(String ssOutput, Set<Integer> ports) {
    List<Socket> sockets = new ArrayList<>();
    for (String line : ssOutput.split("\n")) {
      String[] f = line.strip().split("\\s+", 6);
      if (f.length < 5) {
        continue;
      }
      int colon = f[3].lastIndexOf(':');
      int port;
      try {
        port = Integer.parseInt(f[3].substring(colon + 1));
      } catch (NumberFormatException e) {
        continue;
      }
      if (ports.contains(port)) {
        sockets.add(new Socket(f[0], port, f[4], f.length > 5 ? f[5].strip() : ""));
      }
    }
    return sockets;
  }

  /**
   * After {@code failed} (a server could not start): false when no socket holds the servers' ports (another cause);
   * true once the TIME-WAIT sockets that held them have ended; a failure naming what holds them otherwise, or when
   * they have not ended in time.
   *
   * @param look how long one look at a host's sockets may take on an idle host (times the host's load factor)
   */
  static boolean awaitFree(RemoteFailure failed, List<HostCommand> servers,
      java.util.function.Function<String, RemoteHost> hosts, Duration look, java.util.function.Consumer<String> progress)
      throws RemoteFailure, InterruptedException {
    Map<String, Set<Integer>> portsByHost = new TreeMap<>();
    servers.forEach(c -> portsByHost.computeIfAbsent(c.host(), h -> new TreeSet<>()).addAll(c.listensOn()));
    boolean waited = false;
    for (Map.Entry<String, Set<Integer>> e : portsByHost.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      RemoteHost host = hosts.apply(e.getKey());
      Duration oneLook = host.load().scale(look);
      List<Socket> held = on(host, e.getValue(), oneLook);
      if (held.isEmpty()) {
        continue;
      }
      if (!allTimeWait(held)) {
        throw new RemoteFailure(failed.host(), failed.getMessage() + "; on " + e.getKey() + " the test's ports are"
            + " held: " + describe(held), failed);
      }
      progress.accept("on " + e.getKey() + " " + describe(held) + ", left by an earlier test, keep its servers from"
          + " listening; waiting for Linux to end them (within " + TIME_WAIT_LENGTH.toSeconds() + " s)");
      long deadline = System.nanoTime() + host.load().scale(TIME_WAIT_LENGTH.plusSeconds(5)).toNanos();
      while (!held.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(1000);
        held = on(host, e.getValue(), oneLook);
      }
      if (!held.isEmpty()) {
        throw new RemoteFailure(failed.host(), failed.getMessage() + "; on " + e.getKey() + " the test's ports are"
            + " still held after " + TIME_WAIT_LENGTH.toSeconds() + " s: " + describe(held), failed);
      }
      waited = true;
    }
    return waited;
  }

  /** Whether every one is in TIME-WAIT: they all end by themselves within {@link #TIME_WAIT_LENGTH}. */
  static boolean allTimeWait(List<Socket> sockets) {
    return sockets.stream().allMatch(s -> s.state().equals(TIME_WAIT));
  }

  /** For a message: per state, how many and on which ports (a few), with the processes of the others. */
  static String describe(List<Socket> sockets) {
    Map<String, List<Socket>> byState = sockets.stream()
        .collect(Collectors.groupingBy(Socket::state, TreeMap::new, Collectors.toList()));
    List<String> parts = new ArrayList<>();
    byState.forEach((state, of) -> {
      Set<Integer> on = of.stream().map(Socket::port).collect(Collectors.toCollection(TreeSet::new));
      String ports = on.stream().limit(3).map(String::valueOf).collect(Collectors.joining(", "))
          + (on.size() > 3 ? " and " + (on.size() - 3) + " more" : "");
      Set<String> processes = of.stream().map(Socket::process).filter(p -> !p.isEmpty())
          .collect(Collectors.toCollection(TreeSet::new));
      parts.add(String.format(Locale.ROOT, "%d %s on port%s %s%s", of.size(), state, on.size() == 1 ? "" : "s", ports,
          processes.isEmpty() ? "" : " (" + processes.stream().limit(2).collect(Collectors.joining(" ")) + ")"));
    });
    return String.join("; ", parts);
  }
}
