package io.netpulse.processor.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.processor.topology.ToolFigure;

/**
 * One of the three inputs of a run's processing, keyed by run: they travel through one repartition
 * topic so that a run's lifecycle, its samples and its tool figures meet on the same task.
 */
public record RunInput(RunEvent lifecycle, Sample sample, ToolFigure figure) {

  public static RunInput of(RunEvent e) {
    return new RunInput(e, null, null);
  }

  public static RunInput of(Sample s) {
    return new RunInput(null, s, null);
  }

  public static RunInput of(ToolFigure f) {
    return new RunInput(null, null, f);
  }
}
