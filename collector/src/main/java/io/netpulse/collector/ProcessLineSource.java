package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a sampler as a local process (no shell: the command is an argument list) and sends each
 * line of its stdout, numbered per source from 0, to a sink.
 */
public final class ProcessLineSource implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessLineSource.class);

  private final String host;
  private final String source;
  private final String run;
  private final List<String> command;
  private final Map<String, String> environment;
  private final LineSink sink;
  private final AtomicLong seq = new AtomicLong();
  private volatile Process process;
  private Thread reader;

  /**
   * @param host        host the lines describe (the record key)
   * @param source      parser format of the output, e.g. {@code sar-dev}
   * @param run         run id, or null for monitoring
   * @param command     program and arguments
   * @param environment variables added to the inherited environment (e.g. LC_ALL=C, TZ=UTC)
   */
  public ProcessLineSource(String host, String source, String run, List<String> command,
      Map<String, String> environment, LineSink sink) {
    this.host = host;
    this.source = source;
    this.run = run;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.sink = sink;
  }

  public ProcessLineSource start() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(environment);
    process = pb.start();
    reader = new Thread(this::pump, "collector-" + source + "-" + host);
    reader.setDaemon(true);
    reader.start();
    return this;
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        sink.send(LineEvent.of(host, source, run, seq.getAndIncrement(), System.currentTimeMillis(), line));
      }
    } catch (IOException e) {
      if (process.isAlive()) {
        LOG.warn("{} on {}: reading output failed: {}", source, host, e.getMessage());
      }
    }
  }

  /** Lines read so far. */
  public long linesRead() {
    return seq.get();
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.descendants().forEach(ProcessHandle::destroy);
    p.destroy();
    try {
      if (!p.waitFor(3, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
      }
      if (reader != null) {
        reader.join(2000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
