package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lines waiting for Kafka on disk: numbered segment files of JSON lines, oldest first. Bounded in bytes: when the
 * bound is hit the oldest segment is deleted and its lines counted as dropped per source. Segments left by an earlier
 * collector on the same dir are sent first. Not thread-safe: {@link LineBuffer} holds its lock around every call.
 */
final class DiskSpool {

  private static final Logger LOG = LoggerFactory.getLogger(DiskSpool.class);
  private static final String SUFFIX = ".jsonl";
  // new dirs start high so that lines put back at close can take lower numbers and still come first
  private static final long FIRST_INDEX = 1_000_000_000_000L;

  private final Path dir;
  private final long maxBytes;
  private final long segmentBytes;
  private final CollectorMetrics metrics;
  private final TreeMap<Long, Long> segmentSizes = new TreeMap<>(); // index -> bytes
  private long totalBytes;
  private long activeIndex = -1;
  private BufferedWriter active;

  DiskSpool(Path dir, long maxBytes, CollectorMetrics metrics) {
    if (maxBytes < 64 * 1024) {
      throw new IllegalArgumentException("spool bound must be at least 64 KiB, got " + maxBytes + " bytes");
    }
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.segmentBytes = Math.max(16 * 1024, Math.min(4L << 20, maxBytes / 8));
    this.metrics = metrics;
    try {
      Files.createDirectories(dir);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
        for (Path file : files) {
          Long index = indexOf(file);
          if (index != null) {
            long size = Files.size(file);
            segmentSizes.put(index, size);
            totalBytes += size;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot use spool dir " + dir + ": " + e.getMessage(), e);
    }
    if (!segmentSizes.isEmpty()) {
      LOG.info("spool {}: {} segments ({} bytes) left from before will be sent first", dir, segmentSizes.size(),
          totalBytes);
    }
  }

  boolean isEmpty() {
    return segmentSizes.isEmpty();
  }

  long bytes() {
    return totalBytes;
  }

  Path dir() {
    return dir;
  }

  /** Appends at the tail (newest), then drops the oldest segments while over the bound. */
  void append(List<LineEvent> lines) {
    if (lines.isEmpty()) {
      return;
    }
    try {
      for (LineEvent line : lines) {
        if (active == null || segmentSizes.get(activeIndex) >= segmentBytes) {
          roll();
        }
        byte[] json = Json.bytes(line);
        active.write(new String(json, StandardCharsets.UTF_8));
        active.write('\n');
        segmentSizes.merge(activeIndex, json.length + 1L, Long::sum);
        totalBytes += json.length + 1L;
      }
      active.flush(); // into the OS: survives a collector crash, not a host crash
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write spool " + dir + ": " + e.getMessage(), e);
    }
    enforceBound();
  }

  /** Writes lines as a new segment before every other: lines taken out but not sent, at shutdown. */
  void prepend(List<LineEvent> lines) {
    if (lines.isEmpty()) {
      return;
    }
    long index = segmentSizes.isEmpty() ? FIRST_INDEX : segmentSizes.firstKey() - 1;
    Path file = file(index);
    StringBuilder text = new StringBuilder();
    for (LineEvent line : lines) {
      text.append(Json.text(line)).append('\n');
    }
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
      long size = Files.size(file);
      segmentSizes.put(index, size);
      totalBytes += size;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write spool " + file + ": " + e.getMessage(), e);
    }
  }

  /** Reads and deletes the oldest segment; an empty list when the spool is empty. */
  List<LineEvent> takeOldest() {
    if (segmentSizes.isEmpty()) {
      return List.of();
    }
    long index = segmentSizes.firstKey();
    if (index == activeIndex) {
      closeActive();
    }
    List<LineEvent> lines = read(index);
    delete(index);
    return lines;
  }

  void close() {
    closeActive();
  }

  private void enforceBound() {
    while (totalBytes > maxBytes && segmentSizes.size() > 1) {
      long oldest = segmentSizes.firstKey();
      if (oldest == activeIndex) {
        closeActive();
      }
      List<LineEvent> lost = read(oldest);
      delete(oldest);
      Map<SourceId, Long> bySource = new TreeMap<>(java.util.Comparator.comparing(SourceId::toString));
      for (LineEvent line : lost) {
        bySource.merge(new SourceId(line.host(), line.source()), 1L, Long::sum);
      }
      bySource.forEach((id, n) -> metrics.of(id.host(), id.source()).dropped(n));
      LOG.warn("spool {} reached its bound of {} bytes: dropped the {} oldest lines {}", dir, maxBytes,
          lost.size(), bySource);
    }
  }

  private void roll() throws IOException {
    closeActive();
    activeIndex = segmentSizes.isEmpty() ? FIRST_INDEX : segmentSizes.lastKey() + 1;
    active = Files.newBufferedWriter(file(activeIndex), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
    segmentSizes.put(activeIndex, 0L);
  }

  private void closeActive() {
    if (active != null) {
      try {
        active.close();
      } catch (IOException e) {
        LOG.warn("closing spool segment {}: {}", file(activeIndex), e.getMessage());
      }
      active = null;
      activeIndex = -1;
    }
  }

  private List<LineEvent> read(long index) {
    Path file = file(index);
    List<LineEvent> lines = new ArrayList<>();
    try {
      int number = 0;
      for (String json : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        number++;
        if (json.isBlank()) {
          continue;
        }
        try {
          lines.add(Json.mapper().readValue(json, LineEvent.class));
        } catch (IOException e) {
          // a line cut short by a crash mid-write: nothing else to recover from it
          LOG.warn("spool {} line {}: unreadable, skipped: {}", file, number, e.getMessage());
        }
      }
    } catch (IOException e) {
      LOG.warn("spool segment {} unreadable, skipped: {}", file, e.getMessage());
    }
    return lines;
  }

  private void delete(long index) {
    Long size = segmentSizes.remove(index);
    totalBytes -= size == null ? 0 : size;
    try {
      Files.deleteIfExists(file(index));
    } catch (IOException e) {
      LOG.warn("cannot delete spool segment {}: {}", file(index), e.getMessage());
    }
  }

  private Path file(long index) {
    return dir.resolve(String.format("%019d%s", index, SUFFIX));
  }

  private static Long indexOf(Path file) {
    String name = file.getFileName().toString();
    try {
      return Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
