package io.netpulse.collector;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.commons.io.input.Tailer;
import org.apache.commons.io.input.TailerListenerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a file being appended to (a tool writing its output, a log) with commons-io's {@link Tailer} and sends each
 * complete line to a sink; a partial last line waits for its newline. A truncated or replaced file is read again from
 * its start.
 */
public final class FileLineSource implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FileLineSource.class);

  private final Path file;
  private final boolean fromEnd;
  private final Duration pollInterval;
  private final LineEmitter emitter;
  private SourceMBean mbean;
  private Tailer tailer;

  /**
   * @param host    host the lines describe (the record key)
   * @param source  output format of the file, e.g. {@code iperf3}
   * @param run     run id, or null
   * @param file    file to follow; it may appear later
   * @param fromEnd start at the current end (only new lines) instead of the first line
   */
  public FileLineSource(String host, String source, String run, Path file, boolean fromEnd, LineSink sink,
      CollectorMetrics metrics) {
    this(host, source, run, file, fromEnd, Duration.ofMillis(250), sink, metrics);
  }

  public FileLineSource(String host, String source, String run, Path file, boolean fromEnd,
      Duration pollInterval, LineSink sink, CollectorMetrics metrics) {
    this.file = file;
    this.fromEnd = fromEnd;
    this.pollInterval = pollInterval;
    this.emitter = new LineEmitter(host, source, run, sink, metrics);
  }

  public FileLineSource start() throws java.io.IOException {
    mbean = emitter.registerMBean();
    tailer = Tailer.builder()
        .setPath(file)
        .setCharset(StandardCharsets.UTF_8)
        .setTailFromEnd(fromEnd)
        .setDelayDuration(pollInterval)
        .setReOpen(false)
        .setStartThread(true) // its own daemon thread
        .setTailerListener(new TailerListenerAdapter() {
          private boolean missingLogged;

          @Override
          public void handle(String line) {
            missingLogged = false;
            emitter.emit(line);
          }

          @Override
          public void fileNotFound() {
            if (!missingLogged) {
              missingLogged = true;
              LOG.info("{}/{}: waiting for {} to appear", emitter.host(), emitter.source(), file);
            }
          }

          @Override
          public void fileRotated() {
            LOG.info("{}/{}: {} was truncated or replaced; reading it from its start", emitter.host(),
                emitter.source(), file);
          }

          @Override
          public void handle(Exception e) {
            LOG.warn("{}/{}: reading {} failed: {}", emitter.host(), emitter.source(), file, e.getMessage());
          }
        })
        .get();
    return this;
  }

  public long linesRead() {
    return emitter.emitted();
  }

  @Override
  public void close() {
    if (tailer != null) {
      tailer.close();
    }
    if (mbean != null) {
      mbean.close();
    }
  }
}
