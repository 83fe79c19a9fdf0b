package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.LineEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memory then disk spool: order, the bound with drop-oldest, and keeping lines across a restart. */
@Tag("unit")
class LineBufferTest {

  @TempDir Path dir;

  private static LineEvent line(long seq) {
    return LineEvent.of("h", "s", null, seq, 1_700_000_000_000L + seq, "line " + seq + " " + "x".repeat(100));
  }

  private static List<Long> drain(LineBuffer buffer) throws InterruptedException {
    List<Long> seqs = new ArrayList<>();
    List<LineEvent> batch;
    while (!(batch = buffer.take(37, 0)).isEmpty()) {
      batch.forEach(l -> seqs.add(l.seq()));
    }
    return seqs;
  }

  @Test
  void linesComeOutInArrivalOrderThroughMemoryAndSpool() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    LineBuffer buffer = new LineBuffer(50, new DiskSpool(dir, 10L << 20, metrics), metrics);
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      buffer.offer(line(i));
      if (i % 300 == 0) { // the shipper takes a little now and then while lines keep coming
        buffer.take(10, 0).forEach(l -> out.add(l.seq()));
      }
    }
    out.addAll(drain(buffer));
    assertThat(out).hasSize(1000).isSorted().doesNotHaveDuplicates();
    assertThat(metrics.stats("h", "s").spooled()).isGreaterThan(900);
    assertThat(metrics.stats("h", "s").dropped()).isZero();
  }

  @Test
  void spoolBoundDropsTheOldestLinesAndCountsThem() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    long bound = 64 * 1024;
    DiskSpool spool = new DiskSpool(dir, bound, metrics);
    LineBuffer buffer = new LineBuffer(10, spool, metrics);
    for (long i = 0; i < 5000; i++) { // ~900 KB of JSON into a 64 KiB spool
      buffer.offer(line(i));
      assertThat(spool.bytes()).isLessThanOrEqualTo(bound + 20 * 1024);
    }
    List<Long> out = drain(buffer);
    long dropped = metrics.stats("h", "s").dropped();
    assertThat(dropped).isPositive();
    assertThat(out.size() + dropped).isEqualTo(5000);
    // what is left is the newest lines, contiguous up to the last one
    assertThat(out).isSorted().last().isEqualTo(4999L);
    assertThat(out.get(out.size() - 1) - out.get(0) + 1).isEqualTo(out.size());
    assertThat(out.get(0)).isEqualTo(dropped);
  }

  @Test
  void linesNotSentAtCloseAreSentFirstByTheNextCollector() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    LineBuffer first = new LineBuffer(100, new DiskSpool(dir, 1L << 20, metrics), metrics);
    for (long i = 0; i < 250; i++) {
      first.offer(line(i));
    }
    List<LineEvent> inFlight = first.take(20, 0); // taken by the shipper, never acknowledged
    assertThat(inFlight.get(0).seq()).isZero();
    first.closeKeeping(inFlight);
    try (var files = Files.list(dir)) {
      assertThat(files.count()).isPositive();
    }

    LineBuffer next = new LineBuffer(100, new DiskSpool(dir, 1L << 20, new CollectorMetrics()), metrics);
    next.offer(line(250));
    List<Long> out = drain(next);
    assertThat(out).hasSize(251).isSorted().doesNotHaveDuplicates().startsWith(0L).endsWith(250L);
  }

  @Test
  void withoutSpoolTheOldestMemoryLinesAreDroppedAndCounted() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    LineBuffer buffer = new LineBuffer(100, null, metrics);
    for (long i = 0; i < 150; i++) {
      buffer.offer(line(i));
    }
    List<Long> out = drain(buffer);
    assertThat(out).hasSize(99).startsWith(51L).endsWith(149L);
    assertThat(metrics.stats("h", "s").dropped()).isEqualTo(51);
  }
}
