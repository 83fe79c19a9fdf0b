package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.procedure.RemoteCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The parts that need no SSH: the output cap and start-failure wording (the install script: InstallScriptTest). */
@Tag("unit")
class LocalPartsTest {

  @Test
  void tailBufferKeepsTheEndOnceOverItsCap() {
    TailBuffer b = new TailBuffer(100);
    for (int i = 0; i < 50; i++) {
      b.append("line " + i);
    }
    String text = b.text();
    assertThat(text.length()).isLessThanOrEqualTo(100);
    assertThat(text).endsWith("line 48\nline 49\n");
    assertThat(b.droppedBytes() + text.length()).as("every byte kept or counted as dropped")
        .isEqualTo(10 * 7 + 40 * 8);
    assertThat(b.tail(2)).isEqualTo("line 48 | line 49");
    byte[] big = new byte[250];
    java.util.Arrays.fill(big, (byte) 'x');
    big[249] = 'y';
    b.write(big, 0, big.length);
    assertThat(b.text()).hasSize(100).endsWith("xy");
  }

  @Test
  void startFailureWithoutAKnownCauseShowsStderrOnly() {
    RemoteFailure f = StartFailure.describe("peer", "client-3", RemoteCommand.of("iperf3", "-c", "198.18.0.2"), 1,
        "iperf3: error - unable to connect to server");
    assertThat(f.host()).isEqualTo("peer");
    assertThat(f.getMessage()).isEqualTo("host peer: client-3 (iperf3) failed at start, exit 1: iperf3: error - "
        + "unable to connect to server");
  }

  @Test
  void startFailureNamesTheProgramPastItsWrapperUnlessTheWrapperIsMissing() {
    RemoteCommand wrapped = RemoteCommand.of("stdbuf", "-oL", "iperf3", "-c", "198.18.0.2");
    assertThat(StartFailure.describe("peer", "iperf3#0", wrapped, 127,
        "stdbuf: failed to run command 'iperf3': No such file or directory").getMessage())
        .contains("(iperf3) failed at start", "iperf3 is not installed or not on PATH on peer");
    assertThat(StartFailure.describe("peer", "iperf3#0", wrapped, 127, "sh: 1: exec: stdbuf: not found").getMessage())
        .contains("(stdbuf) failed at start", "stdbuf is not installed or not on PATH on peer");
  }

  @Test
  void aFailuresComplaintIsStderrOrElseStdoutsTail() {
    TailBuffer stderr = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    RemoteProcess netperf = new RemoteProcess(null, "netperf#2", "netperf -H 198.18.200.1", stderr, null);
    // what a netperf TCP_STREAM client printed here when netserver's end-of-test answer did not come (2026-12-04)
    netperf.line("MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 198.18.200.1 () port 0 AF_INET "
        + ": demo");
    netperf.line("Interim result:    0.11 10^6bits/s over 158.021 seconds ending at 1796404783.541");
    netperf.line("catcher: timer popped with times_up != 0");
    netperf.line("recv_response_timed_n: no response received. errno 4 counter -1");
    assertThat(netperf.complaint(2)).isEqualTo("stdout: catcher: timer popped with times_up != 0 | "
        + "recv_response_timed_n: no response received. errno 4 counter -1");
    netperf.stderrLine("establish control: are you sure there is a netserver listening on 198.18.200.1 at port 12865?");
    assertThat(netperf.complaint(2)).startsWith("establish control:");
    assertThat(new RemoteProcess(null, "x", "x", new TailBuffer(100), null).complaint(3)).isEmpty();
  }
}
