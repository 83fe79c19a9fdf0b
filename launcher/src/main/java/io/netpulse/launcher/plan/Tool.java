package io.netpulse.launcher.plan;

import java.util.Locale;

/** The traffic tool a test runs with, where the test offers a choice. */
public enum Tool {
  NETPERF,
  IPERF3,
  IPERF,
  QPERF,
  SOCKPERF,
  /** netpulse's own connection-holding client and server (concurrent connections). */
  NETPULSE,
  /** ideawu/c1000k's {@code server} and {@code client} binaries, where a host has them. */
  C1000K;

  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
