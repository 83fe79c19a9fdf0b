package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;

/** The whole processor: parse, then rates. Each step is its own class with its own tests. */
public final class ProcessorTopology {

  private final Topics topics;

  public ProcessorTopology(Topics topics) {
    this.topics = topics;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    new ParseTopology(topics).build(builder);
    new RateTopology(topics).build(builder);
    return builder.build();
  }
}
