package io.netpulse.collector;

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
  SS_SUMMARY("ss-summary", "while :; do ss -s; sleep 1; done"),
  PROC_NET_DEV("proc-net-dev", "while :; do cat /proc/net/dev; sleep 1; done");

  /** C locale for '.' decimals and 24-hour times; UTC and ISO dates so row times need no zone guessing. */
  public static final Map<String, String> ENVIRONMENT = Map.of("LC_ALL", "C", "TZ", "UTC", "S_TIME_FORMAT", "ISO");

  private final String source;
  private final String body;

  Sampler(String source, String body) {
    this.source = source;
    this.body = body;
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

  /** By source name ({@code sar-dev}, {@code ss-summary}, {@code proc-net-dev}). */
  public static Sampler named(String name) {
    return Arrays.stream(values()).filter(s -> s.source.equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown sampler '" + name + "': choose from "
            + Arrays.stream(values()).map(Sampler::source).collect(Collectors.joining(", "))));
  }
}
