package io.netpulse.collector;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector's sequence state in {@code DATA_DIR/sequences.json}, so that sequence numbers go on across restarts
 * and the time a restart left unsampled can be told. Each start is an epoch (its start time in epoch ms, above the
 * previous one). Per source the file holds the first number the next start may use and the last line read (seq,
 * read time, epoch).
 *
 * <p>Numbers are reserved {@value #BLOCK} at a time (hi/lo): the file with the raised mark is written and forced to
 * disk before the block's first number is used, so a start after SIGKILL, power loss included, never hands out a
 * number the killed one may have sent; it skips the rest of the block instead (in a new epoch, so no gap within an
 * epoch). A clean stop hands the unused numbers back and the next start goes on without a jump. The last line read is
 * written every second when it changed, so a restart gap is measured from at most a second before the real last line.
 * One collector per data dir ({@link DataDirLock}), so one writer.
 */
public final class SequenceStore implements AutoCloseable {

  public static final String FILE_NAME = "sequences.json";
  static final int BLOCK = 1000;
  private static final int FORMAT = 1;
  private static final Duration FLUSH_EVERY = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(SequenceStore.class);

  /** The file's layout. */
  record State(int format, long epoch, boolean stoppedCleanly, long writtenMs, List<Entry> sources) {}

  /**
   * One source: {@code next} is the first number a later start may use; {@code lastSeq} (-1: none) was read at
   * {@code lastReadMs} by the start {@code lastEpoch}.
   */
  record Entry(String host, String source, long next, long lastSeq, long lastReadMs, long lastEpoch) {}

  private final Path file;
  private final long epoch;
  private final Map<SourceId, Entry> previous; // sources of earlier starts, kept in the file until used again
  private final ConcurrentMap<SourceId, SourceSequence> sources = new ConcurrentHashMap<>();
  private final ScheduledExecutorService flusher;
  private boolean stoppedCleanly; // guarded by this
  private boolean failing; // guarded by this: the last write failed (logged once per streak)
  private Map<SourceId, SourceSequence.Last> written = Map.of(); // guarded by this: last lines in the file

  private SequenceStore(Path file, long epoch, Map<SourceId, Entry> previous) {
    this.file = file;
    this.epoch = epoch;
    this.previous = previous;
    this.flusher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "collector-sequences");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Reads the state of the previous start from {@code dataDir} (which the caller has locked), begins a new epoch and
   * writes it. An unreadable file is set aside as {@code sequences.json.bad} and numbering starts again at 0: the new
   * epoch keeps (host, source, epoch, seq) unique.
   *
   * @throws IOException when the state cannot be written at all
   */
  public static SequenceStore open(Path dataDir) throws IOException {
    return open(dataDir, FLUSH_EVERY);
  }

  /** @param flushEvery how often the last lines read are written (tests use an hour to stop as if killed) */
  static SequenceStore open(Path dataDir, Duration flushEvery) throws IOException {
    Files.createDirectories(dataDir);
    Path file = dataDir.resolve(FILE_NAME);
    State before = read(file);
    long now = System.currentTimeMillis();
    long epoch = before == null ? now : Math.max(now, before.epoch() + 1);
    Map<SourceId, Entry> previous = new LinkedHashMap<>();
    if (before != null) {
      before.sources().forEach(e -> previous.put(new SourceId(e.host(), e.source()), e));
      LOG.info("sequences: previous collector start (epoch {}) {}; this start is epoch {}, {} sources go on from {}",
          before.epoch(), before.stoppedCleanly() ? "stopped cleanly"
              : "did not stop cleanly (killed?): its sources skip the rest of their reserved blocks",
          epoch, previous.size(), file);
    } else {
      LOG.info("sequences: none recorded in {}; this start is epoch {}, sequences start at 0", file, epoch);
    }
    SequenceStore store = new SequenceStore(file, epoch, previous);
    store.write(); // fails here, at start, if the data dir cannot take it
    long ms = flushEvery.toMillis();
    store.flusher.scheduleWithFixedDelay(store::flushIfChanged, ms, ms, TimeUnit.MILLISECONDS);
    return store;
  }

  private static State read(Path file) {
    try {
      State s = Json.mapper().readValue(Files.readAllBytes(file), State.class);
      if (s.format() != FORMAT || s.sources() == null) {
        throw new IOException("format " + s.format() + " is not " + FORMAT);
      }
      return s;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      Path bad = file.resolveSibling(FILE_NAME + ".bad");
      LOG.warn("sequences: cannot read {} ({}); set aside as {}; sequences start again at 0 in a new epoch", file,
          e.getMessage(), bad);
      try {
        Files.move(file, bad, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException moveFailed) {
        LOG.warn("sequences: cannot set {} aside: {}", file, moveFailed.getMessage());
      }
      return null;
    }
  }

  /** This start: its start time in epoch ms, above every earlier start's. */
  public long epoch() {
    return epoch;
  }

  int blockSize() {
    return BLOCK;
  }

  /** The numbering of {@code host}/{@code source}, going on from the previous start's; one per source. */
  public SourceSequence source(String host, String source) {
    return sources.computeIfAbsent(new SourceId(host, source), id -> {
      Entry e = previous.get(id);
      if (e == null) {
        return SourceSequence.stored(this, id, 0, null, null);
      }
      SourceSequence.Last last = e.lastSeq() < 0 ? null : new SourceSequence.Last(e.lastEpoch(), e.lastSeq(),
          e.lastReadMs());
      SourceSequence.PreviousStart before = last == null ? null
          : new SourceSequence.PreviousStart(e.lastEpoch(), e.lastSeq(), e.lastReadMs());
      return SourceSequence.stored(this, id, e.next(), last, before);
    });
  }

  /** Called by a source that raised its reservation: on disk before it uses the block. */
  void persistReservation(SourceId id) {
    try {
      write();
    } catch (IOException e) {
      // numbers stay unique within this epoch; only a later start may reuse some of this block's
      LOG.warn("sequences: cannot record the reservation of {} in {}: {}", id, file, e.getMessage());
    }
  }

  private void flushIfChanged() {
    try {
      synchronized (this) {
        if (!lastLines().equals(written)) {
          write();
        }
      }
    } catch (IOException e) {
      // logged by write, once per streak; the next flush tries again
    } catch (RuntimeException e) {
      LOG.warn("sequences: flush failed: {}", e.toString());
    }
  }

  private Map<SourceId, SourceSequence.Last> lastLines() {
    Map<SourceId, SourceSequence.Last> lines = new LinkedHashMap<>();
    sources.forEach((id, s) -> lines.put(id, s.last()));
    return lines;
  }

  /** Writes the whole state to a temporary file, forces it to disk and renames it over the old one. */
  private synchronized void write() throws IOException {
    Map<SourceId, SourceSequence.Last> lines = lastLines();
    Map<SourceId, Entry> entries = new LinkedHashMap<>(previous);
    sources.forEach((id, s) -> {
      SourceSequence.Last l = lines.get(id);
      entries.put(id, new Entry(id.host(), id.source(), s.reservedUntil(), l == null ? -1 : l.seq(),
          l == null ? 0 : l.readMs(), l == null ? 0 : l.epoch()));
    });
    List<Entry> sorted = new ArrayList<>(entries.values());
    sorted.sort(Comparator.comparing(Entry::host).thenComparing(Entry::source));
    byte[] json;
    try {
      json = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(
          new State(FORMAT, epoch, stoppedCleanly, System.currentTimeMillis(), sorted));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize sequence state", e);
    }
    Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(ByteBuffer.wrap(json));
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
        dir.force(true); // the rename itself
      }
      written = lines;
      if (failing) {
        LOG.info("sequences: {} written again", file);
        failing = false;
      }
    } catch (IOException e) {
      if (!failing) {
        LOG.warn("sequences: cannot write {}: {}", file, e.getMessage());
        failing = true;
      }
      throw e;
    }
  }

  /**
   * After the sources have stopped: hands back unused reserved numbers and writes the state a last time, so that the
   * next start goes on without a jump and knows this one stopped cleanly.
   */
  @Override
  public void close() {
    flusher.shutdownNow();
    try {
      flusher.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sources.values().forEach(SourceSequence::release);
    synchronized (this) {
      stoppedCleanly = true;
      try {
        write();
      } catch (IOException e) {
        // logged; the next start skips to the reserved marks, which is safe
      }
    }
  }
}
