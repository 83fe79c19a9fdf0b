package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;

/** Where collected lines go: Kafka in production, anything in between in tests. */
public interface LineSink extends AutoCloseable {

  void send(LineEvent line);

  @Override
  void close();
}
