package io.netpulse.launcher.remote;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * The POSIX shell text of a {@link RemoteBatch}: one exec channel that starts all of a host's instances and reports
 * their PIDs, instead of one channel (and an SSH round trip, a login shell, a PID wait) per instance, which a
 * saturated host cannot keep up with.
 *
 * <p>The channel's command is a fixed bootstrap; the instances follow on its stdin up to a random end line (a
 * command line can hold 128 KiB at most; 256 instances of a long command would not fit). Then:
 * <ul>
 *   <li>Each instance runs in its own session ({@code setsid}, no fork: its PID is its process group), so it can be
 *       stopped on its own, children included. It writes stdout into a FIFO read by a monitor subshell, which
 *       prefixes each line with the instance number, waits for its exit and then sends the tail of its stderr file
 *       and its status. Lines up to PIPE_BUF (4 KiB) reach the channel whole; longer ones may interleave.</li>
 *   <li>A held batch's instances wait at a start barrier, the FIFO {@code go}, whose {@code open} for reading blocks
 *       until a writer opens it: the watchdog opens it when the launcher sends {@code go}, and every instance starts
 *       at once (the seed's loop of 256 {@code netperf ... &} starts them within a fraction of a second too).</li>
 *   <li>The watchdog, in a session of its own, reads the channel's stdin; at its EOF (launcher done, killed, or the
 *       connection lost) it KILLs the batch's shell and monitors and then every instance group not seen to end.
 *       Monitors record each PID before the instance can pass its FIFO open and call setsid, so none escapes.</li>
 *   <li>An instance given a pause text is paused by its monitor (SIGSTOP to its group) at the first stdout line that
 *       holds it, before that line is sent on: the launcher, reading the line, knows the instance sends nothing now,
 *       with no round trip of its own (see the launcher's staged starts of clients that flood a shared path). The
 *       launcher's {@code cont} to the watchdog resumes every instance of the batch (SIGCONT to each group).</li>
 *   <li>Instances are started from a background subshell, which a shell without job control makes ignore SIGINT and
 *       SIGQUIT; {@code env --default-signal} (coreutils 8.31+) restores them where it exists.</li>
 * </ul>
 * Lines on stdout: {@code netpulse-batch=PID LOAD1 ONLINE_CPUS}, then per instance I: {@code p I PID},
 * {@code g I UPTIME} (its command starts now), {@code o I LINE} (its stdout), {@code e I LINE} (its stderr, at the
 * end), {@code x I STATUS} (its exit: a shell's status, 128+N when killed by signal N).
 */
final class BatchScript {

  static final String BATCH_MARKER = "netpulse-batch=";
  /** Exit of the bootstrap when it cannot make its directory or FIFOs, or the instance list was cut short. */
  static final int NO_DIRECTORY = 97;
  static final int LIST_CUT = 98;

  /** Kills what is left at the EOF of the channel's stdin; {@code $1} the batch's PID, {@code $2} its directory. */
  private static final String WATCHDOG = String.join("\n",
      "while IFS= read -r c; do",
      "  case $c in",
      "    go) exec 4<>\"$2/go\" ;;",
      "    cont) p=$(sort \"$2/pids\" \"$2/ended\" | uniq -u); [ -z \"$p\" ] || kill -s CONT -- $p 2>/dev/null ;;",
      "  esac",
      "done",
      "[ -e \"$2/done\" ] || kill -s KILL -- \"-$1\" 2>/dev/null",
      "p=$(sort \"$2/pids\" \"$2/ended\" | uniq -u)",
      "[ -z \"$p\" ] || kill -s KILL -- $p 2>/dev/null",
      "rm -rf \"$2\"");

  /** The channel's command; {@code $1} is the end line of the instance list. */
  private static final String BOOTSTRAP = String.join("\n",
      "read -r l _ </proc/loadavg || l=-",
      "read -r c </sys/devices/system/cpu/online || c=-",
      "echo \"" + BATCH_MARKER + "$$ $l $c\"",
      "d=$(mktemp -d \"${TMPDIR:-/tmp}/netpulse-batch.XXXXXX\") || exit " + NO_DIRECTORY,
      "if ! mkfifo \"$d/go\" || ! : >\"$d/pids\" || ! : >\"$d/ended\"; then rm -rf \"$d\"; exit " + NO_DIRECTORY
          + "; fi",
      "while IFS= read -r l; do [ \"$l\" = \"$1\" ] && break; printf '%s\\n' \"$l\"; done >\"$d/batch\"",
      "[ \"$l\" = \"$1\" ] || { rm -rf \"$d\"; exit " + LIST_CUT + "; }",
      "r=",
      "if env --default-signal=INT,QUIT true 2>/dev/null; then r='env --default-signal=INT,QUIT'; fi",
      "exec 3<&0 </dev/null",
      "setsid sh -c " + RemoteCommand.quote(WATCHDOG) + " netpulse-watchdog \"$$\" \"$d\" <&3 >/dev/null 2>&1 &",
      "exec 3<&-",
      "s() {",
      "  mkfifo \"$d/$1\" || { printf 'x %s " + NO_DIRECTORY + "\\n' \"$1\"; return; }",
      "  (",
      "    setsid sh -c \"$I\" netpulse \"$d\" \"$2\" \"$r\" >\"$d/$1\" 2>\"$d/$1.e\" &",
      "    p=$!",
      "    echo \"-$p\" >>\"$d/pids\"",
      "    printf 'p %s %s\\n' \"$1\" \"$p\"",
      "    { IFS= read -r t && printf 'g %s %s\\n' \"$1\" \"$t\"",
      "      while IFS= read -r l; do",
      "        case $3 in ?*) case $l in *\"$3\"*) kill -s STOP -- \"-$p\" 2>/dev/null; set -- \"$1\" \"$2\" '' ;; esac ;; esac",
      "        printf 'o %s %s\\n' \"$1\" \"$l\"",
      "      done",
      "      [ -z \"$l\" ] || printf 'o %s %s\\n' \"$1\" \"$l\"; } <\"$d/$1\"",
      "    wait \"$p\"; x=$?",
      "    echo \"-$p\" >>\"$d/ended\"",
      "    [ ! -s \"$d/$1.e\" ] || tail -c 65536 \"$d/$1.e\" | while IFS= read -r l || [ -n \"$l\" ]; do"
          + " printf 'e %s %s\\n' \"$1\" \"$l\"; done",
      "    printf 'x %s %s\\n' \"$1\" \"$x\"",
      "  ) &",
      "  m=\"$m $!\"",
      "}",
      "m=",
      ". \"$d/batch\"",
      "wait $m",
      ": >\"$d/done\"");

  /**
   * An instance: {@code $1} the directory, {@code $2} its command (shell words, every plan value single-quoted),
   * {@code $3} the signal reset (or nothing). Its first stdout line is the host's uptime when it starts.
   */
  private static final String INSTANCE = "read -r t _ </proc/uptime; printf '%s\\n' \"$t\"; eval \"exec $3 $2\"";
  private static final String HELD = ": <\"$1/go\" || exit 96; ";

  private final String end = "netpulse-end-" + UUID.randomUUID();
  private final List<RemoteCommand> commands;
  private final List<String> pauses;
  private final boolean held;

  BatchScript(List<RemoteCommand> commands, boolean held) {
    this(commands, java.util.Collections.nCopies(commands.size(), null), held);
  }

  /** {@code pauses}: per command, the text on its stdout at which it is paused (null: never). */
  BatchScript(List<RemoteCommand> commands, List<String> pauses, boolean held) {
    if (commands.isEmpty()) {
      throw new IllegalArgumentException("a batch needs at least one command");
    }
    if (pauses.size() != commands.size()) {
      throw new IllegalArgumentException("one pause text (or null) per command");
    }
    this.commands = List.copyOf(commands);
    this.pauses = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(pauses));
    this.held = held;
  }

  /** The exec channel's command. */
  String command() {
    return "exec /bin/sh -c " + RemoteCommand.quote(BOOTSTRAP) + " netpulse-batch " + end;
  }

  /** What the channel's stdin carries first: the instances, then the end line. */
  byte[] instanceList() {
    StringBuilder b = new StringBuilder();
    b.append("I=").append(RemoteCommand.quote((held ? HELD : "") + INSTANCE)).append('\n');
    for (int i = 0; i < commands.size(); i++) {
      b.append("s ").append(i).append(' ').append(RemoteCommand.quote(commands.get(i).render())).append(' ')
          .append(RemoteCommand.quote(pauses.get(i) == null ? "" : pauses.get(i))).append('\n');
    }
    b.append(end).append('\n');
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A shell's exit status as RemoteProcess reports it: -1 for a signal (as OpenSSH's exit-signal gives), else it. */
  static int exitStatus(int shellStatus) {
    return shellStatus > 128 && shellStatus <= 128 + 64 ? -1 : shellStatus;
  }
}
