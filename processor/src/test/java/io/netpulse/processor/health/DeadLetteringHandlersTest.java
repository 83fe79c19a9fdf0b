package io.netpulse.processor.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.topology.ProcessorSerdes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The processor's exception handlers in Kafka Streams' own task code (TopologyTestDriver): a record that makes
 * a step throw, or whose output cannot be written, goes to the dead-letter topic with the reason and where it
 * was read, is counted, and the records after it are processed.
 */
@Tag("unit")
class DeadLetteringHandlersTest {

  /** An output of the processor's kind, of any size. */
  record Echo(String text) {}

  private static TopologyTestDriver driver(ProcessorErrors errors) {
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
        .mapValues(v -> {
          if (v.equals("boom")) {
            throw new IllegalStateException("no figure in 'boom'");
          }
          return new Echo(v.equals("big") ? "\"".repeat(600_000) : v);
        }, Named.as("echo"))
        .to("out", Produced.with(Serdes.String(), ProcessorSerdes.json(Echo.class)));
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "handlers-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetteringProcessingHandler.class);
    props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetteringProductionHandler.class);
    props.put(DeadLetteringHandlers.TOPIC_CONFIG, "dlq");
    props.put(ProcessorErrors.CONFIG, errors);
    return new TopologyTestDriver(builder.build(), props);
  }

  @Test
  void aRecordAStepThrowsOnIsDeadLetteredAndTheNextOnesGoOn() {
    ProcessorErrors errors = new ProcessorErrors();
    try (TopologyTestDriver driver = driver(errors)) {
      TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
          Serdes.String().serializer());
      in.pipeInput("h1", "one");
      in.pipeInput("h1", "boom");
      in.pipeInput("h1", "two");
      assertThat(driver.createOutputTopic("out", Serdes.String().deserializer(),
          JsonSerde.of(Echo.class).deserializer()).readValuesToList()).extracting(Echo::text).containsExactly("one", "two");
      List<TestRecord<String, DeadLetter>> dead = driver.createOutputTopic("dlq", Serdes.String().deserializer(),
          JsonSerde.of(DeadLetter.class).deserializer()).readRecordsToList();
      assertThat(dead).hasSize(1);
      DeadLetter letter = dead.get(0).value();
      assertThat(dead.get(0).key()).isEqualTo("h1");
      assertThat(letter.topic()).isEqualTo("in");
      assertThat(letter.offset()).isEqualTo(1L);
      assertThat(letter.value()).isEqualTo("boom");
      assertThat(letter.error()).isEqualTo(
          "processor step echo failed on this record: IllegalStateException: no figure in 'boom'");
      assertThat(errors.deadLettered()).isEqualTo(1);
      assertThat(errors.lastError()).contains("no figure in 'boom'");
    }
  }

  @Test
  void anOutputOverTheRecordLimitDeadLettersItsInputInsteadOfFailingTheTransaction() {
    ProcessorErrors errors = new ProcessorErrors();
    try (TopologyTestDriver driver = driver(errors)) {
      TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
          Serdes.String().serializer());
      in.pipeInput("h1", "one");
      in.pipeInput("h1", "big");
      in.pipeInput("h1", "two");
      assertThat(driver.createOutputTopic("out", Serdes.String().deserializer(),
          JsonSerde.of(Echo.class).deserializer()).readValuesToList()).extracting(Echo::text).containsExactly("one", "two");
      DeadLetter letter = driver.createOutputTopic("dlq", Serdes.String().deserializer(),
          JsonSerde.of(DeadLetter.class).deserializer()).readValue();
      assertThat(letter.value()).isEqualTo("big");
      assertThat(letter.offset()).isEqualTo(1L);
      assertThat(letter.valueBytes()).isEqualTo("big".getBytes(StandardCharsets.UTF_8).length);
      assertThat(letter.error()).startsWith("could not serialize the value of an output to out made from this record")
          .contains("over the " + ProcessorSerdes.MAX_RECORD_BYTES + "-byte record limit");
      assertThat(errors.deadLettered()).isEqualTo(1);
    }
  }
}
