package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import java.util.ArrayList;
import java.util.List;

/** Keeps lines in memory, in arrival order: the end of the line for tests that do not need Kafka. */
final class RecordingSink implements LineSink {

  private final List<LineEvent> lines = new ArrayList<>();

  @Override
  public synchronized void send(LineEvent line) {
    lines.add(line);
  }

  synchronized List<LineEvent> lines() {
    return List.copyOf(lines);
  }

  synchronized List<LineEvent> of(String host, String source) {
    return lines.stream().filter(l -> l.host().equals(host) && l.source().equals(source)).toList();
  }

  @Override
  public void close() {}
}
