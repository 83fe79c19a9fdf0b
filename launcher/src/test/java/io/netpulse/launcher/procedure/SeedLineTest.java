package io.netpulse.launcher.procedure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The reading the seed command tests compare by: what counts (values, words, netperf's -- part) and what not. */
@Tag("unit")
class SeedLineTest {

  private static SeedLine generated(String... argv) {
    return SeedLine.of(HostCommand.client("peer", "x", 0, new RemoteCommand(Map.of(), List.of(argv))));
  }

  @Test
  void optionOrderAndShellPlumbingDoNotCountAndEverythingElseDoes() {
    SeedLine seed = SeedLine.seed("for i in `seq 5001 5128`; do ./netperf -H [ip] -l 300 -t UDP_STREAM -p $i "
        + "-- -m 1 -D > /dev/null 2>&1 & done", "[ip]", "198.18.0.2", "$i", 5001);
    assertThat(seed).isEqualTo(generated("netperf", "-t", "UDP_STREAM", "-H", "198.18.0.2", "-p", "5001", "-l", "300",
        "--", "-m", "1", "-D"));
    // netperf's test-specific options are compared in order, and all of them
    assertThat(seed).isNotEqualTo(generated("netperf", "-t", "UDP_STREAM", "-H", "198.18.0.2", "-p", "5001", "-l",
        "300", "--", "-D", "-m", "1"));
    assertThat(seed).isNotEqualTo(generated("netperf", "-t", "UDP_STREAM", "-H", "198.18.0.2", "-p", "5001", "-l",
        "300", "--", "-m", "1"));
    // a value, a missing option, an added one all count
    assertThat(seed).isNotEqualTo(generated("netperf", "-t", "UDP_STREAM", "-H", "198.18.0.2", "-p", "5001", "-l",
        "305", "--", "-m", "1", "-D"));
    assertThat(seed).isNotEqualTo(generated("netperf", "-t", "UDP_STREAM", "-H", "198.18.0.2", "-l", "300", "--",
        "-m", "1", "-D"));
    assertThat(seed.netperfDemoMode()).isNotEqualTo(seed);
  }

  @Test
  void wordsCountInOrderAndCommentsEndTheLine() {
    SeedLine seed = SeedLine.seed("qperf [s] -t 60  tcp_lat udp_lat   -m 64  -vvu # the client", "[s]", "h");
    assertThat(seed).isEqualTo(generated("qperf", "h", "-t", "60", "tcp_lat", "udp_lat", "-m", "64", "-vvu"));
    assertThat(seed).isNotEqualTo(generated("qperf", "h", "-t", "60", "udp_lat", "tcp_lat", "-m", "64", "-vvu"));
    assertThat(SeedLine.seed("sar -n DEV 1 180")).isNotEqualTo(generated("sar", "-n", "DEV", "1"));
    assertThat(SeedLine.seed("sar -n DEV 1 180").sarEverySecondUntilStopped()).isEqualTo(generated("sar", "-n", "DEV", "1"));
  }
}
