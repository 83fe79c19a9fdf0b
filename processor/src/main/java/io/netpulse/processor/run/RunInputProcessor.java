package io.netpulse.processor.run;

import java.time.Duration;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What the processors of the run inputs ({@link RunTopology}) share: a record is one input of the run it is keyed by,
 * and one without a run or an input is skipped; the state of runs gone quiet is forgotten each minute of stream time.
 *
 * @param <O> what the processor forwards
 */
abstract class RunInputProcessor<O> implements Processor<String, RunInput, String, O> {

  private static final Duration EVICTION_PERIOD = Duration.ofMinutes(1);

  private ProcessorContext<String, O> context;

  @Override
  public void init(ProcessorContext<String, O> context) {
    this.context = context;
    context.schedule(EVICTION_PERIOD, PunctuationType.STREAM_TIME, this::evict);
  }

  @Override
  public final void process(Record<String, RunInput> record) {
    if (record.key() != null && record.value() != null) {
      process(record.key(), record.value(), record.timestamp());
    }
  }

  /** One input of {@code run}, from a record stamped {@code recordTs}. */
  abstract void process(String run, RunInput in, long recordTs);

  /** Forgets the state no run can still want, {@code streamTime} being stream time now. */
  abstract void evict(long streamTime);

  final void forward(Record<String, O> record) {
    context.forward(record);
  }
}
