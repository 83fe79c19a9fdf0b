package io.netpulse.launcher.run;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.holder.ClimbEnd;
import io.netpulse.launcher.remote.HostFacts;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end of a run for people and for programs: a table shaped like the seeds' result tables (the
 * host's facts, then one row per metric with each repetition, the mean and its 95 % interval) and
 * the JSON form {@code [{"test","metric","unit","runs":[...],"mean","stddev","ci95"}, ...]}. A climb of
 * concurrent connections says under the table (and in each JSON repetition's {@code climb}) what ended it and
 * whose limit that was; each repetition's CPU use and its flags ({@link CpuNotes}) are noted there too.
 */
public final class ResultTable {

  private ResultTable() {}

  static void print(ExecutionReport report, PrintWriter out) {
    print(report, out, false);
  }

  /** @param seedFigures also each figure as the seeds compute it ({@link SeedFigures}), on a row under the exact one */
  static void print(ExecutionReport report, PrintWriter out, boolean seedFigures) {
    out.printf("%nplan %s, execution %s, %d s%s%n", report.plan(), report.execution(), report.wallMillis() / 1000,
        report.interrupted() ? ", interrupted (SIGINT/SIGTERM)" : "");
    if (!report.labels().isEmpty()) {
      out.printf("  labels: %s%n", labels(report.labels()));
    }
    report.hosts().forEach((name, f) -> out.printf("  %-10s kernel %s, %s (%d %s)%s%s%n", name, f.kernel(), f.iface(),
        f.queues(), f.queues() == 1 ? "queue" : "queues", machine(f.info()), f.toolVersions().isEmpty() ? "" : ", " + versions(f)));
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"test", "metric", "runs", "mean", "± ci95", "unit", "stop"});
    List<String> notes = new ArrayList<>();
    for (TestReport t : report.tests()) {
      for (ResultEvent r : t.results()) {
        rows.add(row(t, r));
        if (r.interrupted()) {
          String note = t.test().name() + ": interrupted after " + r.repetitionsCompleted() + " of "
              + r.repetitionsPlanned() + " repetition(s); its result is final with those";
          if (!notes.contains(note)) {
            notes.add(note);
          }
        }
        java.util.Optional<ResultEvent> seeds = seedFigures ? SeedFigures.of(t.test().type().yamlName(), r)
            : java.util.Optional.empty();
        if (seeds.isPresent()) {
          rows.add(row(t, seeds.get()));
          String note = SeedFigures.explain(seeds.get().metric());
          if (!notes.contains(note)) {
            notes.add(note);
          }
        }
      }
      if (t.failure() != null) {
        rows.add(new String[] {t.test().name(), "-", "not run", "-", "-", "-", "-"});
        notes.add(t.test().name() + ": " + t.failure());
      }
      for (String m : t.missing()) {
        rows.add(new String[] {t.test().name(), m, "no result", "-", "-", "-", "-"});
        notes.add(t.test().name() + " " + m + ": no result from the processor in time");
      }
      for (RepetitionOutcome o : t.repetitions()) {
        if (!o.ok()) {
          notes.add(t.test().name() + " repetition " + o.repetition() + " FAILED: " + o.failure());
        }
        if (o.climb() != null) {
          notes.add(t.test().name() + " repetition " + o.repetition() + ": " + climbNote(o.climb()));
        }
        String cpu = CpuNotes.note(t.cpuOf(o), t.sharedWithNetpulse());
        if (cpu != null) {
          notes.add(t.test().name() + " repetition " + o.repetition() + ": " + cpu);
        }
      }
    }
    int[] width = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    out.println();
    for (int r = 0; r < rows.size(); r++) {
      StringBuilder line = new StringBuilder("|");
      for (int i = 0; i < width.length; i++) {
        String cell = rows.get(r)[i];
        boolean right = i >= 2 && i <= 4 && r > 0;
        line.append(' ').append(right ? pad(cell, width[i], true) : pad(cell, width[i], false)).append(" |");
      }
      out.println(line);
      if (r == 0) {
        StringBuilder rule = new StringBuilder("|");
        for (int w : width) {
          rule.append("-".repeat(w + 2)).append('|');
        }
        out.println(rule);
      }
    }
    notes.forEach(n -> out.println("  " + n));
    out.flush();
  }

  private static String[] row(TestReport t, ResultEvent r) {
    List<String> runs = r.values().values().stream().map(ResultTable::number).toList();
    return new String[] {t.test().name(), r.metric(), String.join(" ", runs), number(r.mean()),
        r.ci95() == null ? "-" : number(r.ci95()), r.unit(), stops(r)};
  }

  /**
   * Why the repetitions' measuring ended and the precision their values have, e.g. "precise ±0.41 %" or "duration
   * ±1.9 %, precise ±0.50 %": per reason, in the repetitions' order, the widest half-width among them.
   */
  public static String stops(ResultEvent r) {
    Map<String, Double> widest = new LinkedHashMap<>();
    r.stops().values().forEach(stop -> widest.merge(stop.reason() == null ? "?" : stop.reason(),
        stop.precision() == null ? Double.NaN : stop.precision(),
        (a, b) -> Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b)));
    if (widest.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    widest.forEach((reason, p) -> parts.add(Double.isNaN(p) ? reason
        : String.format(java.util.Locale.ROOT, "%s ±%.2f %%", reason, 100 * p)));
    return String.join(", ", parts);
  }

  static List<Map<String, Object>> json(ExecutionReport report) {
    return json(report, false);
  }

  /** @param seedFigures add {@code asSeeds} ({@link SeedFigures#json}) to the results the seeds compute otherwise */
  static List<Map<String, Object>> json(ExecutionReport report, boolean seedFigures) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (TestReport t : report.tests()) {
      for (ResultEvent r : t.results()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("test", t.test().name());
        m.put("type", t.test().type().yamlName());
        m.put("metric", r.metric());
        m.put("unit", r.unit());
        m.put("runs", new ArrayList<>(r.values().values()));
        m.put("mean", r.mean());
        m.put("stddev", r.stddev());
        m.put("ci95", r.ci95());
        m.put("n", r.n());
        m.put("hosts", r.hosts());
        m.put("runIds", r.runs());
        m.put("tools", toolsOf(report, t));
        m.put("execution", r.execution() != null ? r.execution() : report.execution());
        m.put("labels", report.labels());
        m.put("hostFacts", hostFacts(report, t));
        m.put("final", r.finalResult());
        m.put("repetitionsPlanned", r.repetitionsPlanned());
        m.put("repetitionsCompleted", r.repetitionsCompleted());
        m.put("stopReason", r.stopReason()); // "interrupted" (SIGINT/SIGTERM) or null
        m.put("stops", stopsJson(r));
        m.put("failedRepetitions", failures(t));
        m.put("repetitions", repetitions(t));
        if (seedFigures) {
          SeedFigures.of(t.test().type().yamlName(), r).ifPresent(seeds -> m.put("asSeeds", SeedFigures.json(seeds)));
        }
        out.add(m);
      }
      if (t.failure() != null || !t.missing().isEmpty() || t.results().isEmpty()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("test", t.test().name());
        m.put("type", t.test().type().yamlName());
        m.put("error", t.failure() != null ? t.failure()
            : t.missing().isEmpty() ? "no result" : "no result for " + String.join(", ", t.missing()));
        m.put("failedRepetitions", failures(t));
        out.add(m);
      }
    }
    return out;
  }

  /** What preflight found on the test's hosts, shaped as on the topics ({@code HostInfo}). */
  private static List<io.netpulse.common.event.HostInfo> hostFacts(ExecutionReport report, TestReport t) {
    return HostChecks.hostsOf(t.test()).stream().map(report.hosts()::get).filter(java.util.Objects::nonNull)
        .map(HostFacts::info).toList();
  }

  /** "instance_type=c7.large, region=eu-west-1", for people. */
  public static String labels(Map<String, String> labels) {
    List<String> parts = new ArrayList<>();
    labels.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(", ", parts);
  }

  /** ", CPU x 2 vCPUs, 7.6 GiB, driver virtio_net, MTU 1500, offloads tso on gso on gro on": what it was measured on. */
  public static String machine(io.netpulse.common.event.HostInfo h) {
    StringBuilder b = new StringBuilder();
    b.append(", ").append(h.cpuModel() == null ? HostFacts.UNKNOWN : h.cpuModel());
    b.append(" × ").append(h.vcpus() == null ? HostFacts.UNKNOWN : h.vcpus()).append(" vCPUs");
    b.append(", ").append(h.memoryKib() == null ? HostFacts.UNKNOWN + " memory"
        : String.format(Locale.ROOT, "%.1f GiB", h.memoryKib() / 1048576.0));
    b.append(", driver ").append(h.nicDriver() == null ? HostFacts.UNKNOWN : h.nicDriver());
    b.append(", MTU ").append(h.mtuBytes() == null ? HostFacts.UNKNOWN : h.mtuBytes());
    b.append(", offloads ").append(offloads(h.offloads()));
    return b.toString();
  }

  /** The offloads that shape throughput figures most; null (ethtool not on the host) says so. */
  static String offloads(Map<String, String> offloads) {
    if (offloads == null) {
      return HostFacts.UNKNOWN + " (no ethtool on the host)";
    }
    List<String> parts = new ArrayList<>();
    for (String[] f : new String[][] {{"tcp-segmentation-offload", "tso"}, {"generic-segmentation-offload", "gso"},
        {"generic-receive-offload", "gro"}, {"large-receive-offload", "lro"}}) {
      String v = offloads.get(f[0]);
      if (v != null) {
        parts.add(f[1] + " " + v.replace(" [fixed]", ""));
      }
    }
    return parts.isEmpty() ? "none reported" : String.join(" ", parts);
  }

  private static Map<String, Object> toolsOf(ExecutionReport report, TestReport t) {
    Map<String, Object> tools = new LinkedHashMap<>();
    for (String h : HostChecks.hostsOf(t.test())) {
      HostFacts f = report.hosts().get(h);
      if (f != null) {
        tools.put(h, f.toolVersions());
      }
    }
    return tools;
  }

  /**
   * When each repetition measured, after how long its metric was steady (-1: not steady-stopped), each host's CPU use
   * over its window and its flags (a saturated CPU, a host that is netpulse's own machine).
   */
  private static List<Map<String, Object>> repetitions(TestReport t) {
    List<Map<String, Object>> reps = new ArrayList<>();
    for (RepetitionOutcome o : t.repetitions()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("repetition", o.repetition());
      m.put("run", o.run());
      m.put("measuringStartMs", o.measuringStart());
      m.put("measuringEndMs", o.measuringEnd());
      m.put("steadyAfterMs", o.steadyAtMillis());
      m.put("failure", o.failure());
      m.put("climb", climbJson(o.climb()));
      m.put("flags", CpuNotes.flags(t.cpuOf(o), t.sharedWithNetpulse()));
      m.put("cpu", t.cpuOf(o).stream().map(CpuNotes::json).toList());
      m.put("sharedWithNetpulse", t.sharedWithNetpulse());
      reps.add(m);
    }
    return reps;
  }

  /** Per repetition with a value: why its measuring ended and its value's precision (95 % half-width / value). */
  private static List<Map<String, Object>> stopsJson(ResultEvent r) {
    List<Map<String, Object>> out = new ArrayList<>();
    r.stops().forEach((repetition, stop) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("repetition", repetition);
      m.put("reason", stop.reason());
      m.put("precision", stop.precision());
      out.add(m);
    });
    return out;
  }

  /** "climb ended by client ports exhausted (the client's limit, not the SUT's): peer: …", for people. */
  public static String climbNote(RunEvent.Climb climb) {
    ClimbEnd end = ClimbEnd.ofCode(climb.endedBy());
    String whose = switch (climb.side() == null ? "" : climb.side()) {
      case "sut" -> "the SUT's limit";
      case "client" -> "the client's limit, not the SUT's";
      case "plan" -> "set by the plan";
      default -> "cause unknown";
    };
    return "climb ended by " + (end == null ? climb.endedBy() : end.label()) + " (" + whose + "): " + climb.detail();
  }

  private static Map<String, Object> climbJson(RunEvent.Climb climb) {
    if (climb == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("endedBy", climb.endedBy());
    m.put("side", climb.side());
    m.put("detail", climb.detail());
    return m;
  }

  private static Map<Integer, String> failures(TestReport t) {
    Map<Integer, String> m = new LinkedHashMap<>();
    t.repetitions().stream().filter(o -> !o.ok()).forEach(o -> m.put(o.repetition(), o.failure()));
    return m;
  }

  /** "netperf Netperf version 2.7.0" reads better as "Netperf version 2.7.0": the tool's name once. */
  static String versions(HostFacts f) {
    List<String> parts = new ArrayList<>();
    f.toolVersions().forEach((tool, v) ->
        parts.add(v.toLowerCase(Locale.ROOT).startsWith(tool.toLowerCase(Locale.ROOT)) ? v : tool + " " + v));
    return String.join(", ", parts);
  }

  public static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, Math.abs(v) >= 1000 ? "%.1f" : Math.abs(v) >= 1 ? "%.3f" : "%.4g", v);
  }

  private static String pad(String s, int w, boolean right) {
    String fill = " ".repeat(Math.max(0, w - s.length()));
    return right ? fill + s : s + fill;
  }
}
