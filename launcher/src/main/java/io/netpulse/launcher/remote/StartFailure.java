package io.netpulse.launcher.remote;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.util.List;
import java.util.Locale;

/** Turns a command that died at start into a message with the likely cause and what to do. */
final class StartFailure {

  private StartFailure() {}

  static RemoteFailure describe(String host, String label, RemoteCommand command, int exit, String said) {
    // past a wrapper (stdbuf -oL iperf3 ...) unless the wrapper itself was not found
    String program = said.contains(command.program() + ": not found") ? command.program()
        : command.wrappedProgram();
    String err = said.isEmpty() ? "(nothing on stderr or stdout)" : said;
    StringBuilder m = new StringBuilder("host ").append(host).append(": ").append(label).append(" (")
        .append(program).append(") failed at start, exit ").append(exit).append(": ").append(err);
    String lower = said.toLowerCase(Locale.ROOT);
    String port = port(command.argv());
    if (lower.contains("setsid") && lower.contains("not found")) {
      m.append("; setsid (util-linux, or busybox) is missing on ").append(host)
          .append(": netpulse starts each instance in a session of its own with it");
    } else if (exit == 127 || lower.contains("not found") || lower.contains("no such file")) {
      m.append("; ").append(program).append(" is not installed or not on PATH on ").append(host)
          .append(": check with preflight or run with --install-tools");
    } else if (port != null && (lower.contains("in use") || lower.contains("bind") || lower.contains("unable to start"))) {
      m.append("; port ").append(port).append(" is probably already in use on ").append(host)
          .append(" (a leftover server? check with: ss -ltnp sport = :").append(port).append(")");
    } else if (lower.contains("permission denied") || lower.contains("operation not permitted")) {
      m.append("; the SSH user lacks the rights for it on ").append(host);
    }
    return new RemoteFailure(host, m.toString());
  }

  /** The value after -p / --port (netserver, iperf3 -s, sockperf), if any. */
  private static String port(List<String> argv) {
    for (int i = 1; i < argv.size() - 1; i++) {
      if (argv.get(i).equals("-p") || argv.get(i).equals("--port")) {
        return argv.get(i + 1);
      }
    }
    return null;
  }
}
