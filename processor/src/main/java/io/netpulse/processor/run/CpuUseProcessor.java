package io.netpulse.processor.run;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.proc.ProcStatParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Per run: follows the lifecycle and keeps the hosts' CPU samples; when a repetition's measuring window closes (the
 * phase after MEASURING, or FAILED while measuring) emits each host's {@link CpuUse} over it, keyed by run. CPU
 * samples of a closed window that arrive late (the runs and lines topics are not ordered with each other) send that
 * host's figure again, corrected, at the next wall-clock second: a snapshot is 3 samples per CPU, and the figure
 * is whole only after the last of them.
 */
final class CpuUseProcessor extends RunInputProcessor<CpuUse> {

  static final String STATE_STORE = "cpu-run-state";
  static final String SAMPLE_STORE = "cpu-samples";
  private static final char SEP = '\u0001';

  private KeyValueStore<String, CpuRunState> runs;
  private KeyValueStore<String, Sample> samples;

  @Override
  public void init(ProcessorContext<String, CpuUse> context) {
    super.init(context);
    this.runs = context.getStateStore(STATE_STORE);
    this.samples = context.getStateStore(SAMPLE_STORE);
    context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK_TIME, t -> sendChanged());
  }

  @Override
  void process(String run, RunInput in, long recordTs) {
    if (in.lifecycle() != null) {
      lifecycle(run, in.lifecycle(), recordTs);
    } else if (in.sample() != null && ProcStatParser.isCpuMetric(in.sample().metric()) && !in.sample().summary()
        && Double.isFinite(in.sample().value()) && in.sample().host() != null) {
      sample(run, in.sample(), recordTs);
    }
  }

  private void lifecycle(String run, RunEvent e, long now) {
    if (e.test() == null) {
      return;
    }
    CpuRunState state = state(run, now);
    RepetitionState rep = state.repetition(e.test(), e.repetition());
    rep.plan = e.plan() != null ? e.plan() : rep.plan;
    rep.execution = e.execution() != null ? e.execution() : rep.execution;
    boolean closes = false;
    if (e.phase() == RunEvent.Phase.MEASURING) {
      rep.start = rep.start == 0 ? e.ts() : rep.start;
    } else if (rep.start > 0 && rep.end == 0) {
      rep.end = e.ts(); // FAILED while measuring closes it too: its CPU is what the user wants to see then
      closes = true;
    }
    runs.put(run, state);
    if (closes) {
      emit(run, rep, null);
    }
  }

  private void sample(String run, Sample s, long now) {
    samples.put(key(run, s.ts(), s.seriesKey()), s);
    CpuRunState state = state(run, now);
    state.repetitions.forEach((name, rep) -> {
      if (rep.closed() && rep.inWindow(s.ts())) {
        state.changed.add(name + SEP + s.host());
      }
    });
    runs.put(run, state);
  }

  /** The figures that late samples changed, once each. */
  private void sendChanged() {
    List<String> pending = new ArrayList<>();
    try (KeyValueIterator<String, CpuRunState> it = runs.all()) {
      while (it.hasNext()) {
        var kv = it.next();
        if (!kv.value.changed.isEmpty()) {
          pending.add(kv.key);
        }
      }
    }
    for (String run : pending) {
      CpuRunState state = runs.get(run);
      for (String changed : state.changed) {
        int sep = changed.lastIndexOf(SEP);
        RepetitionState rep = state.repetitions.get(changed.substring(0, sep));
        if (rep != null) {
          emit(run, rep, changed.substring(sep + 1));
        }
      }
      state.changed.clear();
      runs.put(run, state);
    }
  }

  /** The figure of every host ({@code onlyHost} null) or of one, over the repetition's window. */
  private void emit(String run, RepetitionState rep, String onlyHost) {
    Map<String, List<Sample>> byHost = new LinkedHashMap<>();
    try (KeyValueIterator<String, Sample> it = samples.range(key(run, rep.start, ""), key(run, rep.end, ""))) {
      while (it.hasNext()) {
        Sample s = it.next().value;
        if (onlyHost == null || onlyHost.equals(s.host())) {
          byHost.computeIfAbsent(s.host(), h -> new ArrayList<>()).add(s);
        }
      }
    }
    byHost.forEach((host, list) -> {
      CpuUse use = CpuFigure.of(run, rep, host, list);
      if (use != null) {
        forward(new Record<>(run, use, rep.end));
      }
    });
  }

  private CpuRunState state(String run, long now) {
    CpuRunState state = runs.get(run);
    if (state == null) {
      state = new CpuRunState();
    }
    state.lastSeen = Math.max(state.lastSeen, now);
    return state;
  }

  /** Keys sort by run, then time: a window is one range scan. */
  private static String key(String run, long ts, String series) {
    return run + SEP + String.format("%013d", Math.max(0, ts)) + SEP + series;
  }

  @Override
  void evict(long streamTime) {
    long horizon = streamTime - RunValueProcessor.RETENTION.toMillis();
    StoreEviction.deleteWhere(runs, r -> r.lastSeen < horizon);
    StoreEviction.deleteSamples(samples, horizon, 0, run -> {
      CpuRunState state = runs.get(run);
      return state == null ? null : state.repetitions.values();
    });
  }
}
