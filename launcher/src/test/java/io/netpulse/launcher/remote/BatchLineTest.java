package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The batch protocol's lines as the reader thread takes them, garbled ones included. */
@Tag("unit")
class BatchLineTest {

  @Test
  void aLineIsItsKindInstanceAndTheRestAsSent() {
    assertThat(BatchLine.parse("o 12 3.00 10^6bits/s  over 1.00 s")).isEqualTo(
        new BatchLine('o', 12, "3.00 10^6bits/s  over 1.00 s"));
    assertThat(BatchLine.parse("p 0 4711")).isEqualTo(new BatchLine('p', 0, "4711"));
    assertThat(BatchLine.parse("g 3 ")).as("a host without /proc/uptime sends an empty stamp")
        .isEqualTo(new BatchLine('g', 3, ""));
    assertThat(BatchLine.parse("x 7")).isEqualTo(new BatchLine('x', 7, ""));
    assertThat(BatchLine.parse("o 1  two spaces kept")).isEqualTo(new BatchLine('o', 1, " two spaces kept"));
  }

  @Test
  void aLineOfAnotherShapeIsNoneSoItsReaderGoesOn() {
    assertThat(BatchLine.parse("")).isNull();
    assertThat(BatchLine.parse("o")).isNull();
    assertThat(BatchLine.parse("oo 1 x")).isNull();
    assertThat(BatchLine.parse("o x1 text")).as("interleaved past PIPE_BUF").isNull();
    assertThat(BatchLine.parse("o  1 text")).isNull();
  }
}
