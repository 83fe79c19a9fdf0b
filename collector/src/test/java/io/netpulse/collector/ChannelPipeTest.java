package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ChannelPipeTest {

  @Test
  void bytesWrittenAfterTheThreadThatReadHasEndedAreStillDelivered() throws Exception {
    ChannelPipe pipe = new ChannelPipe(64);
    pipe.sink().write("SSH-2.0-x\r\n".getBytes());
    Thread handshake = new Thread(() -> {
      try {
        pipe.source().readNBytes(11);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    handshake.start();
    handshake.join();
    // java.io.PipedInputStream refuses this write ("Read end dead"): the jump host's session then closed the channel
    pipe.sink().write(new byte[] {1, 2, 3});
    pipe.sink().close();
    assertThat(pipe.source().readAllBytes()).containsExactly(1, 2, 3);
  }

  @Test
  void moreThanItHoldsArrivesWholeAndInOrderThenEndOfStream() throws Exception {
    ChannelPipe pipe = new ChannelPipe(1000);
    byte[] data = new byte[200_003];
    new Random(7).nextBytes(data);
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[333];
      try {
        for (int n; (n = pipe.source().read(buf, 0, buf.length)) >= 0; ) {
          got.write(buf, 0, n);
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return got.toByteArray();
    });
    for (int off = 0; off < data.length; off += 4_001) {
      pipe.sink().write(data, off, Math.min(4_001, data.length - off));
    }
    pipe.sink().close();
    assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(data);
  }

  @Test
  void closingTheReadingEndReleasesAWriterWaitingOnAFullPipeAndRefusesMore() throws Exception {
    ChannelPipe pipe = new ChannelPipe(8);
    CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
      try {
        pipe.sink().write(new byte[20]);
      } catch (IOException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    });
    InputStream source = pipe.source();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (source.available() < 8 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(source.available()).isEqualTo(8);
    assertThat(write).isNotDone();
    source.close();
    assertThatThrownBy(() -> write.get(10, TimeUnit.SECONDS)).hasMessageContaining("pipe closed by its reader");
    assertThat(source.read()).isEqualTo(-1);
    assertThatThrownBy(() -> pipe.sink().write(1)).hasMessage("pipe closed by its reader");
  }
}
