package io.netpulse.processor;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;

/**
 * Samples fed to a step that reads {@code metrics}: each as the one-row record the parse step would write for it
 * ({@link WideSample#group}), so that the step's reader gives back exactly that sample.
 */
public final class SampleRows {

  private SampleRows() {}

  /** The sample's row, as written to {@code metrics}. */
  public static WideSample row(Sample sample) {
    List<WideSample> rows = WideSample.group(List.of(sample), Sources::measurementOf);
    if (rows.size() != 1 || !rows.get(0).samples().equals(List.of(sample))) {
      throw new IllegalArgumentException("not one row that gives the sample back: " + sample + " → " + rows);
    }
    return rows.get(0);
  }

  /**
   * Pipes the sample's row with {@code key} (rows are keyed by host) at the sample's own time, as the parse step
   * stamps it.
   */
  public static void pipe(TestInputTopic<String, WideSample> metrics, String key, Sample sample) {
    metrics.pipeInput(key, row(sample), sample.ts());
  }
}
