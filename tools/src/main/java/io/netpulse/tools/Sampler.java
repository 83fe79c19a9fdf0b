package io.netpulse.tools;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The samplers a collector runs on every host, as POSIX shell commands so that the same text runs locally (agent) and
 * through an SSH exec channel (agentless, nothing installed). {@code set -e} makes a loop end when its reader goes
 * away (SIGPIPE), so no sampler outlives its channel.
 */
public enum Sampler {
  SAR_DEV("sar-dev", "exec sar -n DEV 1"),
  SS_SUMMARY("ss-summary", onTheSecond("ss -s")),
  PROC_NET_DEV("proc-net-dev", onTheSecond("cat /proc/net/dev")),
  /** Each CPU's cumulative ticks (the {@code cpu} lines of /proc/stat: every Linux host has them, sysstat or not). */
  PROC_STAT("proc-stat", onTheSecond("grep '^cpu' /proc/stat"));

  /** C locale for '.' decimals and 24-hour times; UTC and ISO dates so row times need no zone guessing. */
  public static final Map<String, String> ENVIRONMENT = Map.of("LC_ALL", "C", "TZ", "UTC", "S_TIME_FORMAT", "ISO");

  private final String source;
  private final String body;

  Sampler(String source, String body) {
    this.source = source;
    this.body = body;
  }

  /**
   * A loop that runs {@code sample} at once, then once per wall-clock second just after the second begins, as sar's
   * interval timer does. {@code sample; sleep 1} drifts by the sample's own run time and so loses a whole second every
   * so often (57 of 1,359 s with a busy ss -s). Here each sleep runs to the next boundary on /proc/uptime (read by the
   * shell, no process), whose seconds pass at the wall clock's rate (NTP slews both alike), so the sample's run time
   * is not added. Where a wall-clock second begins on that clock is found after the first sample and every 600 (a
   * clock step moves it) by polling {@code date +%s} every 10 ms until it changes: {@code date +%N} would need no
   * polling but busybox as Alpine and Debian build it has no %N. The wake-up is 20 ms past the boundary, as
   * /proc/uptime counts in 10 ms steps and a wake-up just before the boundary would sample one second twice.
   * Arithmetic only on numbers without a leading zero (dash reads 010 as octal): uptime "12345.67" becomes 1234567
   * centiseconds.
   */
  private static String onTheSecond(String sample) {
    return String.join("; ",
        "i=0",
        "p=0",
        "while :",
        "do " + sample,
        "if [ $((i % 600)) -eq 0 ]",
        "then s=$(date +%s)",
        "while [ \"$(date +%s)\" = \"$s\" ]",
        "do sleep 0.01",
        "done",
        "read u _ </proc/uptime",
        "u=${u%.*}${u#*.}",
        "p=$((u % 100))",
        "else read u _ </proc/uptime",
        "u=${u%.*}${u#*.}",
        "r=$(((p - u % 100 + 100) % 100))",
        "[ $r -ne 0 ] || r=100",
        "r=$((r + 2))",
        "sleep $((r / 100)).$((r % 100 / 10))$((r % 10))",
        "fi",
        "i=$((i + 1))",
        "done");
  }

  /** Name of the output format, the {@code source} of its lines. */
  public String source() {
    return source;
  }

  /** One shell command line with the environment set, for an SSH exec channel. */
  public String shellCommand() {
    String env = ENVIRONMENT.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    return "export " + env + "; set -e; " + body;
  }

  /** The same for a local process. */
  public List<String> localCommand() {
    return List.of("sh", "-c", shellCommand());
  }

  /** By source name ({@code sar-dev}, {@code ss-summary}, {@code proc-net-dev}, {@code proc-stat}). */
  public static Sampler named(String name) {
    return Arrays.stream(values()).filter(s -> s.source.equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown sampler '" + name + "': choose from "
            + Arrays.stream(values()).map(Sampler::source).collect(Collectors.joining(", "))));
  }
}
