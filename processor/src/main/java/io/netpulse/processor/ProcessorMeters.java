package io.netpulse.processor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.netpulse.common.Topics;
import io.netpulse.processor.health.ProcessorErrors;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The processor's own figures, under stable names for dashboards and alerts, read from Kafka Streams' metrics (the
 * topic-level records-consumed/produced-total of each task, the consumers' records-lag) and from
 * {@link ProcessorErrors}. Kafka Streams' metrics themselves are bound beside these by Micrometer's
 * {@code KafkaStreamsMetrics}. A task that moves to another instance takes its topic counts along: the sums here
 * then drop, which Prometheus' rate() treats as a counter reset.
 */
final class ProcessorMeters implements MeterBinder {

  private final Supplier<Map<MetricName, ? extends Metric>> metrics;
  private final Supplier<KafkaStreams.State> state;
  private final ProcessorErrors errors;
  private final java.util.function.LongSupplier linesRead;
  private final Topics topics;

  ProcessorMeters(Supplier<Map<MetricName, ? extends Metric>> metrics, Supplier<KafkaStreams.State> state,
      ProcessorErrors errors, java.util.function.LongSupplier linesRead, Topics topics) {
    this.metrics = metrics;
    this.state = state;
    this.errors = errors;
    this.linesRead = linesRead;
    this.topics = topics;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    // the topic's consumed-records count would count blocks: each record is a block of lines
    FunctionCounter.builder("netpulse.processor.lines", this, m -> m.linesRead.getAsLong())
        .description("Lines read from the lines topic (a record holds a block of them).").register(registry);
    FunctionCounter.builder("netpulse.processor.rows", this,
            m -> m.topicTotal("records-produced-total", topics.metrics()))
        .description("Rows written to the metrics topic (from lines and tool outputs; a row holds all the values a "
            + "sampler's or tool's line gave).").register(registry);
    FunctionCounter.builder("netpulse.processor.windows", this,
            m -> m.topicTotal("records-produced-total", topics.windows()))
        .description("10-s windows written to the windows topic.").register(registry);
    // Streams counts a task's writes to a topic under one sink node whichever sink wrote them (the DLQ has three),
    // so the total cannot be split by reason from its metrics; the error handlers' share is counted on its own.
    FunctionCounter.builder("netpulse.processor.dead.letters", this,
            m -> m.topicTotal("records-produced-total", topics.dlq()))
        .description("Records written to the dead-letter topic: unparsable lines, tool outputs and run events, and"
            + " records an error handler gave up on.").register(registry);
    FunctionCounter.builder("netpulse.processor.error.handler.dead.letters", errors, ProcessorErrors::deadLettered)
        .description("Records a processing or production error handler sent to the dead-letter topic.")
        .register(registry);
    FunctionCounter.builder("netpulse.processor.stream.thread.failures", errors, ProcessorErrors::threadFailuresTotal)
        .description("Stream threads that failed and were replaced.").register(registry);
    Gauge.builder("netpulse.processor.input.lag", this, ProcessorMeters::inputLag).baseUnit("records")
        .description("Records waiting on the processor's input partitions held here (sum of the consumers' "
            + "records-lag); -1 before the first fetch.")
        .register(registry);
    Gauge.builder("netpulse.processor.streams.running", this,
            m -> m.state.get() == KafkaStreams.State.RUNNING ? 1 : 0)
        .description("1 while Kafka Streams is RUNNING, 0 otherwise (rebalancing, starting, stopped, failed).")
        .register(registry);
  }

  /** Sum of a stream-topic-metrics figure for {@code topic} over this instance's tasks. */
  private double topicTotal(String name, String topic) {
    double total = 0;
    for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
      MetricName m = e.getKey();
      if (!m.group().equals("stream-topic-metrics") || !m.name().equals(name)
          || !topic.equals(m.tags().get("topic"))) {
        continue;
      }
      if (e.getValue().metricValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
        total += n.doubleValue();
      }
    }
    return total;
  }

  /** As the health check counts it: the main consumers' per-partition records-lag, not the restore consumer's. */
  private double inputLag() {
    double total = 0;
    boolean any = false;
    for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
      MetricName m = e.getKey();
      String client = m.tags().getOrDefault("client-id", "");
      if (!m.group().equals("consumer-fetch-manager-metrics") || !m.name().equals("records-lag")
          || !client.endsWith("-consumer") || client.endsWith("restore-consumer")) {
        continue;
      }
      if (e.getValue().metricValue() instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0) {
        total += n.doubleValue();
        any = true;
      }
    }
    return any ? total : -1;
  }
}
