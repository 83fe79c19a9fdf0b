package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.plan.TestSpec;
import java.nio.file.Path;
import java.util.List;

/** The example plans of examples/, built as a dry run builds them, for the seed command tests. */
final class SeedPlans {

  /** What a dry run assumes with {@code --queues 8}: a SUT interface eth0 with 8 queues. */
  static final SutFacts EIGHT_QUEUES = new SutFacts("eth0", 8);

  private final Plan plan;

  private SeedPlans(Plan plan) {
    this.plan = plan;
  }

  static SeedPlans load(String file) throws Exception {
    return new SeedPlans(PlanLoader.load(Path.of("..", "examples", file)));
  }

  Plan plan() {
    return plan;
  }

  /** The procedure of the test named {@code name} (a test's name defaults to its type). */
  TestProcedure test(String name) {
    TestSpec t = plan.tests().stream().filter(x -> x.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no test " + name + " in " + plan.name()));
    return Procedures.build(plan, t, EIGHT_QUEUES);
  }

  String address(String host) {
    return plan.host(host).address();
  }

  static List<SeedLine> lines(List<HostCommand> commands) {
    return commands.stream().map(SeedLine::of).toList();
  }
}
