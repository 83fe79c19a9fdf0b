package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.event.LineEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local process and appended-file sources. */
@Tag("unit")
class LocalSourcesTest {

  @TempDir Path dir;

  @Test
  void samplerThatDiesIsStartedAgainAndTheSequenceGoesOn() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    RecordingSink sink = new RecordingSink();
    // prints two lines then dies, like a sampler killed by OOM or a crash
    try (ProcessLineSource source = new ProcessLineSource("h", "ticker", "r1",
        List.of("sh", "-c", "echo one; echo two; exit 7"), Map.of(), sink, metrics).restartOnExit(true).start()) {
      await().atMost(Duration.ofSeconds(15)).until(() -> source.linesRead() >= 6);
    }
    List<LineEvent> lines = sink.of("h", "ticker");
    assertThat(lines.stream().map(LineEvent::seq).toList())
        .containsExactlyElementsOf(LongStream.range(0, lines.size()).boxed().toList());
    assertThat(lines.subList(0, 6).stream().map(LineEvent::line).toList())
        .containsExactly("one", "two", "one", "two", "one", "two");
    assertThat(lines).allMatch(l -> "r1".equals(l.run()));
    assertThat(metrics.stats("h", "ticker").restarts()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void toolThatEndsIsNotRestartedByDefault() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    RecordingSink sink = new RecordingSink();
    try (ProcessLineSource source = new ProcessLineSource("h", "tool", null, List.of("echo", "done"), Map.of(), sink,
        metrics).start()) {
      await().atMost(Duration.ofSeconds(5)).until(() -> source.linesRead() == 1);
      Thread.sleep(1500);
      assertThat(source.linesRead()).isEqualTo(1);
    }
    assertThat(metrics.stats("h", "tool").restarts()).isZero();
  }

  @Test
  void closeReturnsOnlyWhenWhatTheSamplerStartedHasExitedToo() throws Exception {
    RecordingSink sink = new RecordingSink();
    // as sar and its sadc: a child that outlives its parent's SIGTERM by a second
    ProcessLineSource source = new ProcessLineSource("h", "sampler", null, List.of("sh", "-c",
        "sh -c 'trap \"sleep 1; exit 0\" TERM; echo up; while :; do sleep 0.1; done' & wait"), Map.of(), sink,
        new CollectorMetrics()).start();
    List<ProcessHandle> started;
    try {
      await().atMost(Duration.ofSeconds(5)).until(() -> source.linesRead() == 1);
      ProcessHandle root = ProcessHandle.of(source.pid()).orElseThrow();
      started = java.util.stream.Stream.concat(java.util.stream.Stream.of(root), root.descendants()).toList();
      assertThat(started).hasSizeGreaterThanOrEqualTo(2);
    } finally {
      source.close();
    }
    assertThat(started).as("started by the sampler and alive after close()").noneMatch(ProcessHandle::isAlive);
  }

  @Test
  void fileBeingAppendedToIsFollowedLineByLineIncludingAfterTruncation() throws Exception {
    Path file = dir.resolve("iperf3.out");
    Files.writeString(file, "first\nsecond\n");
    CollectorMetrics metrics = new CollectorMetrics();
    RecordingSink sink = new RecordingSink();
    try (FileLineSource source = new FileLineSource("h", "iperf3", "r2", file, false, Duration.ofMillis(50), sink,
        metrics).start()) {
      await().atMost(Duration.ofSeconds(5)).until(() -> source.linesRead() == 2);
      append(file, "thi"); // a partial line waits for its newline
      Thread.sleep(300);
      assertThat(source.linesRead()).isEqualTo(2);
      append(file, "rd\nfourth\n");
      await().atMost(Duration.ofSeconds(5)).until(() -> source.linesRead() == 4);
      Files.writeString(file, "again\n"); // truncated and rewritten, as a tool run writing anew
      await().atMost(Duration.ofSeconds(5)).until(() -> source.linesRead() == 5);
    }
    assertThat(sink.of("h", "iperf3").stream().map(LineEvent::line).toList())
        .containsExactly("first", "second", "third", "fourth", "again");
    assertThat(sink.of("h", "iperf3").stream().map(LineEvent::seq).toList()).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThat(metrics.stats("h", "iperf3").read()).isEqualTo(5);
  }

  private static void append(Path file, String text) throws Exception {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }
}
