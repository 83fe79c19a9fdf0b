package io.netpulse.launcher.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanError;
import io.netpulse.launcher.plan.PlanException;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.DryRun;
import io.netpulse.launcher.procedure.SutFacts;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse run PLAN [--dry-run] [--queues N] [--iface NAME] [--output text|json]}: validates a
 * plan (every error as file:line:column on stderr, exit 2) and, with {@code --dry-run}, prints the
 * commands each test and repetition would start on each host. Running over SSH is not built yet.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Check a test plan and show (--dry-run) what it would run on each host.")
public class RunCommand implements Callable<Integer> {

  static final int OK = 0;
  static final int BAD_INPUT = 2;

  enum Output { text, json }

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PLAN", description = "plan file (YAML)")
  Path planFile;

  @Option(names = "--dry-run", description = "print the commands per host, test and repetition; start nothing")
  boolean dryRun;

  @Option(names = "--queues", paramLabel = "N",
      description = "the SUT interface's queue count to assume for streams: auto (a real run reads it from the host)")
  Integer queues;

  @Option(names = "--iface", paramLabel = "NAME", defaultValue = "eth0",
      description = "the SUT interface to assume for sar results (default: ${DEFAULT-VALUE})")
  String iface;

  @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE})")
  Output output;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Plan plan;
    try {
      plan = PlanLoader.load(planFile);
    } catch (PlanException e) {
      for (PlanError error : e.errors()) {
        err.println(error.describe());
      }
      err.println("netpulse run: " + e.errors().size() + " error(s) in " + planFile + "; nothing was started");
      err.flush();
      return BAD_INPUT;
    }
    if (!dryRun) {
      err.println("netpulse run: running plans over SSH is not built yet; use --dry-run");
      err.flush();
      return BAD_INPUT;
    }
    if (queues == null && plan.tests().stream().anyMatch(RunCommand::usesAutoStreams)) {
      err.println("netpulse run: the plan has streams: auto, which a real run derives from the SUT's queue count; "
          + "give --queues N for a dry run");
      err.flush();
      return BAD_INPUT;
    }
    DryRun dry;
    try {
      dry = new DryRun(plan, new SutFacts(iface, queues == null ? 1 : queues));
    } catch (IllegalArgumentException e) {
      err.println("netpulse run: " + e.getMessage());
      err.flush();
      return BAD_INPUT;
    }
    if (output == Output.json) {
      try {
        out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(dry.toJson()));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("maps of strings, numbers and records always serialise", e);
      }
      out.flush();
    } else {
      dry.printText(out);
    }
    return OK;
  }

  private static boolean usesAutoStreams(TestSpec t) {
    return t.streams() != null && t.streams().isAuto();
  }
}
