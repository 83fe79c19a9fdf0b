package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.Durations;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PrepareSpec;
import io.netpulse.launcher.plan.TestSpec;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a plan would start, per test and repetition, with {@code sut} standing in for what the run
 * reads from the SUT. Built without touching any host.
 */
public final class DryRun {

  private final Plan plan;
  private final SutFacts sut;
  private final List<TestProcedure> procedures;

  /** @throws IllegalArgumentException when a test cannot be built for these facts (e.g. ports past 65535) */
  public DryRun(Plan plan, SutFacts sut) {
    this.plan = plan;
    this.sut = sut;
    List<TestProcedure> built = new ArrayList<>();
    for (TestSpec t : plan.tests()) {
      built.add(Procedures.build(plan, t, sut));
    }
    this.procedures = List.copyOf(built);
  }

  public List<TestProcedure> procedures() {
    return procedures;
  }

  /** The steady settings as the plan line says them: the precision criterion's, or the spread rule's. */
  private String steadyText() {
    return steadyText(plan.steady());
  }

  private static String steadyText(io.netpulse.launcher.plan.SteadySpec st) {
    String window = "window " + Durations.format(st.window());
    String rise = "rise " + st.risePercent() + " %";
    return st.precision() ? "precision " + st.precisionPercent() + " %, min_measure "
        + Durations.format(st.minMeasure()) + "; a connection count by its rise, " + window + ", " + rise
        : "spread, " + window + ", spread " + st.spreadPercent() + " %, " + rise;
  }

  public void printText(PrintWriter out) {
    out.printf("plan %s: %d tests, stop: %s, warm-up %s%n", plan.name(), plan.tests().size(),
        plan.stop().name().toLowerCase(java.util.Locale.ROOT)
            + (plan.stop() == io.netpulse.launcher.plan.StopMode.STEADY ? " (" + steadyText() + ")" : ""),
        Durations.format(plan.warmup()));
    out.printf("SUT facts assumed: interface %s, %d %s%n", sut.iface(), sut.queues(), sut.queues() == 1 ? "queue" : "queues");
    for (HostSpec h : plan.hosts().values()) {
      out.printf("host %-8s %s@%s port %d%s%s%s%s%n", h.name(), h.user(), h.address(), h.port(),
          h.proxyJump().isEmpty() ? "" : " via " + h.jumpPath(),
          h.testAddress().equals(h.address()) ? "" : ", test address " + h.testAddress(),
          h.acceptNewHostKeys() ? " (accepts a new host key)" : "",
          h.fromSshConfig().isEmpty() ? "" : "; ssh config " + h.fromSshConfig());
    }
    out.println("prepare: " + describe(plan.prepare()));
    for (TestProcedure p : procedures) {
      TestSpec t = p.test();
      String own = p.clients().stream().filter(c -> c.runsSeconds() > 0)
          .map(c -> c.tool() + " " + c.runsSeconds() + "s").distinct().collect(java.util.stream.Collectors.joining(", "));
      out.printf("%n%s: %d stream(s), tools run %ds%s%s%n", t.label(), p.streams(), p.toolSeconds(),
          own.isEmpty() ? "" : " (" + own + ", one stage after the other)",
          p.irqAffinity() == null ? "" : ", IRQs matching '" + p.irqAffinity().match() + "' bound to CPUs "
              + p.irqAffinity().firstCpu() + " step " + p.irqAffinity().cpuStep() + " (restored afterwards)");
      if (plan.stop() == io.netpulse.launcher.plan.StopMode.STEADY && !t.steady().equals(plan.steady())) {
        out.printf("  stop: steady (%s), the test's own%n", steadyText(t.steady()));
      }
      out.printf("  run events: type %s, sut %s%s; results under %s/EXECUTION/%s/METRIC%n", t.type().yamlName(),
          t.sut(), p.sutIface() == null ? "" : ", iface " + p.sutIface(), plan.name(), t.name());
      for (ResultRule r : p.results()) {
        String where = (r.host() == null ? "" : " on " + r.host()) + (r.iface() == null ? "" : " " + r.iface());
        String from = r.source() + " " + r.sampleMetric() + where;
        // a tool run as a loop of 1-s tests of its own (qperf's with the precision stop): the figure is made from them
        boolean loop = r.interimSource() != null && !r.interimSource().equals(r.source())
            && p.clients().stream().anyMatch(c -> c.tool().equals(r.interimSource()));
        out.printf("  result %s [%s] = %s%n", r.metric(), r.unit(), switch (r.how()) {
          case MEAN_ON_SUT -> "mean of " + from + " over the measuring phase";
          case SUM_OVER_INSTANCES -> "sum over instances of " + from;
          case AS_PRINTED -> loop ? "1 s over the mean of " + r.interimSource() + " " + r.interim() + where
              + " (its 1-s tests; as qperf reduces a run)" : from + " as the tool prints it";
          case MAX_OVER_WINDOW -> "largest " + from + " once it stops rising";
        });
      }
      for (int rep = 1; rep <= t.repetitions(); rep++) {
        out.printf("  repetition %d/%d%n", rep, t.repetitions());
        for (HostCommand c : p.commands()) {
          out.printf("    %-8s %-7s %s%s%n", c.host(), c.role().name().toLowerCase(java.util.Locale.ROOT),
              c.stage() > 1 ? "(after stage " + (c.stage() - 1) + ") " : "", c.command().render());
        }
      }
    }
    out.flush();
  }

  /** One entry per test and repetition, for {@code --format json}. */
  public List<Map<String, Object>> toJson() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (TestProcedure p : procedures) {
      TestSpec t = p.test();
      for (int rep = 1; rep <= t.repetitions(); rep++) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("plan", plan.name());
        m.put("test", t.name());
        m.put("index", t.index());
        m.put("type", t.type().yamlName());
        m.put("sut", t.sut());
        m.put("iface", p.sutIface());
        m.put("repetition", rep);
        m.put("repetitions", t.repetitions());
        m.put("streams", p.streams());
        m.put("toolSeconds", p.toolSeconds());
        m.put("durationMs", t.duration().toMillis());
        m.put("warmupMs", t.warmup().toMillis());
        m.put("stop", plan.stop().name().toLowerCase(java.util.Locale.ROOT));
        List<Map<String, Object>> commands = new ArrayList<>();
        for (HostCommand c : p.commands()) {
          Map<String, Object> cm = new LinkedHashMap<>();
          cm.put("host", c.host());
          cm.put("address", plan.host(c.host()).address());
          cm.put("testAddress", plan.host(c.host()).testAddress());
          if (!plan.host(c.host()).proxyJump().isEmpty()) {
            cm.put("proxyJump", plan.host(c.host()).jumpPath());
          }
          if (!plan.host(c.host()).fromSshConfig().isEmpty()) {
            cm.put("sshConfig", plan.host(c.host()).fromSshConfig());
          }
          cm.put("role", c.role().name().toLowerCase(java.util.Locale.ROOT));
          cm.put("tool", c.tool());
          cm.put("instance", c.instance());
          cm.put("stage", c.stage());
          cm.put("env", c.command().env());
          cm.put("argv", c.command().argv());
          cm.put("shell", c.command().render());
          commands.add(cm);
        }
        m.put("commands", commands);
        m.put("results", p.results());
        if (p.irqAffinity() != null) {
          m.put("irqAffinity", p.irqAffinity());
        }
        out.add(m);
      }
    }
    return out;
  }

  private static String describe(PrepareSpec p) {
    if (p.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    if (p.nofile() != null) {
      parts.add("nofile " + p.nofile() + " for started processes");
    }
    if (p.nrOpen() != null) {
      parts.add("fs.nr_open " + p.nrOpen());
    }
    if (p.fileMax() != null) {
      parts.add("fs.file-max " + p.fileMax());
    }
    if (p.irqAffinity() != null) {
      parts.add("IRQs matching '" + p.irqAffinity().match() + "' to CPUs " + p.irqAffinity().firstCpu() + " step "
          + p.irqAffinity().cpuStep());
    }
    return String.join(", ", parts) + " (restored after the run)";
  }
}
