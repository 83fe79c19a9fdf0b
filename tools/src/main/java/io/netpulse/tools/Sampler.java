package io.netpulse.tools;

import io.netpulse.common.catalog.Sources;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The samplers: the one list of what the collector runs on every host and what a test's procedure starts on its hosts
 * (launcher), so that both run the same command. Each is named by its {@link #source()} ({@link Sources}), which is
 * also the format of the parser that reads its lines ({@code tools.parse.Parsers}). As POSIX shell commands the same
 * text runs locally (agent) and through an SSH exec channel (agentless, nothing installed). {@code set -e} makes a
 * loop end when its reader goes away (SIGPIPE), so no sampler outlives its channel.
 */
public enum Sampler {
  /** sar's own interval timer keeps it on the second: run as is ({@link #argv()} with {@link #ENVIRONMENT}). */
  SAR_DEV(Sources.SAR_DEV, List.of("sar", "-n", "DEV", "1"), null),
  SS_SUMMARY(Sources.SS_SUMMARY, null, "ss -s"),
  PROC_NET_DEV(Sources.PROC_NET_DEV, null, "cat /proc/net/dev"),
  /** Each CPU's cumulative ticks (the {@code cpu} lines of /proc/stat: every Linux host has them, sysstat or not). */
  PROC_STAT(Sources.PROC_STAT, null, "grep '^cpu' /proc/stat");

  /** C locale for '.' decimals and 24-hour times; UTC and ISO dates so row times need no zone guessing. */
  public static final Map<String, String> ENVIRONMENT = Map.of("LC_ALL", "C", "TZ", "UTC", "S_TIME_FORMAT", "ISO");

  private final String source;
  private final List<String> program;
  private final String body;

  /**
   * @param program      a program that samples each second by itself, or null
   * @param everySecond  else the shell command to run once per wall-clock second
   */
  Sampler(String source, List<String> program, String everySecond) {
    this.source = source;
    this.program = program;
    this.body = program != null ? "exec " + String.join(" ", program) : onTheSecond(everySecond);
  }

  /**
   * A loop that runs {@code sample} at once, then once per wall-clock second just after the second begins, as sar's
   * interval timer does. {@code sample; sleep 1} drifts by the sample's own run time and so loses a whole second every
   * so often (57 of 1,359 s with a busy ss -s). Here each sleep runs to the next boundary on /proc/uptime (read by the
   * shell, no process), whose seconds pass at the wall clock's rate (NTP slews both alike), so the sample's run time
   * is not added: the wake-up is 20 ms past the first boundary after the sample *began*, at once if that is past, so a
   * sample that ran into the next second (a slow ss -s, or the host stalled) is followed at once by that second's
   * instead of a sleep to the boundary after (which lost the second it ran into: 1 of ~15 in CI, a 0.3-s ss -s delayed
   * by a busy host). Where a wall-clock second begins on that clock is found after the first sample and every 600 (a
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
        "do read t _ </proc/uptime",
        "t=${t%.*}${t#*.}",
        sample,
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
        "r=$((t - (t - p) % 100 + 102 - u))",
        "[ $r -le 0 ] || sleep $((r / 100)).$((r % 100 / 10))$((r % 10))",
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

  /**
   * The command as an argument vector for a remote host, to be run with {@link #environment()}: the program itself where
   * it keeps time by itself (sar), else {@code sh -c} with {@link #shellCommand()}, which sets the environment itself.
   */
  public List<String> argv() {
    return program != null ? program : List.of("sh", "-c", shellCommand());
  }

  /** The environment {@link #argv()} needs, in name order (empty where the shell command sets it). */
  public Map<String, String> environment() {
    return program == null ? Map.of() : new java.util.TreeMap<>(ENVIRONMENT);
  }

  /** The format of the parser that reads this sampler's lines (tools.parse.Parsers): its source name. */
  public String parser() {
    return source;
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
