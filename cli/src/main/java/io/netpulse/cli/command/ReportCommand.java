package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanError;
import io.netpulse.launcher.plan.PlanException;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.report.Archive;
import io.netpulse.launcher.report.PlanReport;
import io.netpulse.launcher.report.ReportFormat;
import io.netpulse.launcher.report.ReportReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse report PLAN}: a plan's results, read back from the topics, as one file (HTML with the
 * charts, Markdown or CSV). Exit 0 when written, 2 when there is nothing to report or the input is bad.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Write a plan's results as a file: html (self-contained, with per-second and per-repetition "
        + "charts), md (the result table) or csv, read from the results, runs and metrics topics.",
    footer = {"", "Exit codes: 0 written, 2 no results for the plan, bad input or Kafka unreachable."})
public final class ReportCommand implements Callable<Integer> {

  @Mixin ReportKafkaOptions source = new ReportKafkaOptions();

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PLAN", description = "plan file (YAML; its name is used), plan name, or an "
      + "archive file written by 'netpulse export' (read with no Kafka)")
  String plan;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "html",
      description = "html, md or csv (default: ${DEFAULT-VALUE})")
  ReportFormat format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "file to write, '-' for stdout (default: PLAN-report.html for html, stdout for md and csv)")
  String output;

  @Mixin TopicReadTimeout timeout = new TopicReadTimeout();

  @Option(names = "--seed-figures", defaultValue = "${env:NETPULSE_SEED_FIGURES:-false}",
      description = "also show each bit rate read from sar as the seeds compute it (kB taken as 1000 B: 2.34 %% lower), "
          + "labelled METRIC_as_seeds, to compare with vendors' published figures")
  boolean seedFigures;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    source.validate();
    timeout.check();
    Archive archive = archiveFile();
    Plan planFile = archive == null ? planFile(err) : null;
    String name = archive != null ? archive.plan() : planFile != null ? planFile.name() : plan;
    List<String> order = planFile != null ? planFile.tests().stream().map(TestSpec::name).toList() : List.of();
    PlanReport report = archive != null ? archive.report()
        : source.withKafka(null, kafka -> read(kafka, name, order, err));
    write(seedFigures ? report.withSeedFigures() : report, name, err);
    return 0;
  }

  private PlanReport read(KafkaConnection kafka, String name, List<String> order, PrintWriter err) {
    ReportReader reader = new ReportReader(kafka, source.topics(), timeout.value);
    PlanReport report = reader.read(name, order);
    if (reader.unreadableRecords() > 0) {
      err.println("netpulse report: skipped " + reader.unreadableRecords() + " record(s) that were not netpulse "
          + "events (another producer on the topics?)");
    }
    return report;
  }

  /**
   * The archive when PLAN names a file 'netpulse export' wrote (JSON with its format field), null otherwise; a
   * .json file that is not one is an error rather than a plan.
   */
  private Archive archiveFile() {
    Path file = Path.of(plan);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    boolean json = plan.endsWith(".json");
    if (!json) {
      try (java.io.Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        int c;
        do {
          c = r.read();
        } while (c >= 0 && Character.isWhitespace(c));
        json = c == '{' && Archive.is(Archive.readJson(file)); // YAML flow style may start with '{' too
      } catch (IOException | UserError e) {
        return null; // not an archive: read as a plan, whose errors say what is wrong
      }
    }
    return json ? Archive.read(file) : null;
  }

  /** The plan when PLAN names a file, null when it is a plan's name. */
  private Plan planFile(PrintWriter err) {
    Path file = Path.of(plan);
    if (!Files.isRegularFile(file)) {
      if (plan.endsWith(".yaml") || plan.endsWith(".yml") || plan.contains("/")) {
        throw new UserError("no plan file " + plan + " (give a plan file or a plan's name)");
      }
      return null;
    }
    try {
      return PlanLoader.load(file, w -> err.println(w.describe()));
    } catch (PlanException e) {
      for (PlanError error : e.errors()) {
        err.println(error.describe());
      }
      err.flush();
      throw new UserError(e.errors().size() + " error(s) in " + plan + "; give a valid plan or the plan's name");
    }
  }

  private void write(PlanReport report, String name, PrintWriter err) {
    OutputFile target = new OutputFile(
        output != null ? output : format == ReportFormat.html ? format.defaultFileName(name) : OutputFile.STDOUT);
    target.write(spec.commandLine().getOut(), out -> format.write(report, out));
    if (!target.isStdout()) {
      err.println("report " + target.path().toAbsolutePath() + " (" + format + ", " + report.sections().size()
          + " results of plan " + name + ")");
      err.flush();
    }
  }
}
