package io.netpulse.collector;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sequence numbers across collector starts on one data dir (the file, not a process: see CollectorRestartTest). */
@Tag("unit")
class SequenceStoreTest {

  private static final Duration NEVER = Duration.ofHours(1);

  @TempDir Path dir;

  @Test
  void aCleanStopLetsTheNextStartGoOnWithoutAJumpInANewEpoch() throws Exception {
    long firstEpoch;
    List<Long> seqs = new ArrayList<>();
    try (SequenceStore first = SequenceStore.open(dir)) {
      firstEpoch = first.epoch();
      SourceSequence s = first.source("h", "ss-summary");
      assertThat(s.takePreviousStart()).as("nothing before the first start").isNull();
      for (int i = 0; i < 1500; i++) { // across a block
        seqs.add(s.next(1_000 + i));
      }
    }
    try (SequenceStore second = SequenceStore.open(dir)) {
      assertThat(second.epoch()).isGreaterThan(firstEpoch);
      SourceSequence s = second.source("h", "ss-summary");
      assertThat(s.takePreviousStart()).isEqualTo(new SourceSequence.PreviousStart(firstEpoch, 1499, 2_499));
      assertThat(s.takePreviousStart()).as("stated once, for the first line").isNull();
      seqs.add(s.next(5_000));
      assertThat(s.epoch()).isEqualTo(second.epoch());
    }
    assertThat(seqs).containsExactlyElementsOf(LongStream.rangeClosed(0, 1500).boxed().toList());
  }

  @Test
  void aStartAfterAKillBeginsPastEveryNumberTheKilledOneMayHaveUsed() throws Exception {
    // not closed and never flushed: the file holds what a SIGKILL leaves, the reservations written before use
    SequenceStore killed = SequenceStore.open(dir, NEVER);
    SourceSequence a = killed.source("h", Sources.SAR_DEV);
    long lastUsed = -1;
    for (int i = 0; i < 1200; i++) {
      lastUsed = a.next(10_000 + i);
    }
    killed.source("h", "idle"); // a source that never read a line

    try (SequenceStore next = SequenceStore.open(dir, NEVER)) {
      assertThat(next.epoch()).isGreaterThan(killed.epoch());
      SourceSequence b = next.source("h", Sources.SAR_DEV);
      long first = b.next(20_000);
      assertThat(first).as("first number after the kill").isGreaterThan(lastUsed).isEqualTo(2 * SequenceStore.BLOCK);
      // never flushed: the last line on disk is the one before the reservation (the collector flushes every second)
      assertThat(b.takePreviousStart()).isEqualTo(new SourceSequence.PreviousStart(killed.epoch(), 999, 10_999));
      assertThat(next.source("h", "idle").next(20_000)).isZero();
    }
  }

  @Test
  void theLastLineReadIsWrittenWithinAFlushAndAnUnreadableFileIsSetAside() throws Exception {
    try (SequenceStore store = SequenceStore.open(dir, Duration.ofMillis(50))) {
      SourceSequence s = store.source("h", "proc-net-dev");
      s.next(111);
      s.next(222);
      await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(dir.resolve(SequenceStore.FILE_NAME))
          .contains("\"lastReadMs\" : 222"));
      SequenceStore.State state = Json.mapper().readValue(dir.resolve(SequenceStore.FILE_NAME).toFile(),
          SequenceStore.State.class);
      assertThat(state.stoppedCleanly()).isFalse();
      assertThat(state.sources()).containsExactly(
          new SequenceStore.Entry("h", "proc-net-dev", SequenceStore.BLOCK, 1, 222, store.epoch()));
    }

    Files.writeString(dir.resolve(SequenceStore.FILE_NAME), "{\"format\": 1, \"sources\": [tru");
    try (SequenceStore store = SequenceStore.open(dir)) {
      assertThat(store.source("h", "proc-net-dev").next(333)).as("numbering starts again, in a new epoch").isZero();
    }
    assertThat(dir.resolve(SequenceStore.FILE_NAME + ".bad")).hasContent("{\"format\": 1, \"sources\": [tru");
  }
}
