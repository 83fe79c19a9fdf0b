package io.netpulse.cli.command;

import io.netpulse.launcher.report.Archive;
import io.netpulse.launcher.report.ExportReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse export EXECUTION -o FILE}: one execution read off the topics into one self-contained JSON file,
 * which {@code report FILE} and {@code compare FILE FILE} read with no Kafka.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = "Write one execution as a self-contained JSON archive: plan, execution, labels and host facts "
        + "(when the run events carry them), results with per-repetition values and run ids, each repetition's "
        + "window and CPU use, the SUT's per-second series, and the tools' output. 'netpulse report FILE' and "
        + "'netpulse compare FILE FILE' read it with no Kafka.",
    footer = {"", "Examples:",
        "  netpulse export my-plan-20261201T101500Z -o before.json",
        "  netpulse export my-plan-20261201T101500Z -o before.json --bootstrap-servers kafka:9092",
        "  netpulse report before.json --format md",
        "", "Exit codes: 0 written, 2 no results of the execution, Kafka unreachable or the file not writable."})
public final class ExportCommand implements Callable<Integer> {

  @Mixin ReportKafkaOptions source = new ReportKafkaOptions();

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "EXECUTION",
      description = "the execution id, as 'netpulse run' prints it (PLAN-yyyyMMddTHHmmssZ)")
  String execution;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "-",
      description = "the archive to write, '-' for stdout (default: ${DEFAULT-VALUE})")
  String output;

  @Mixin TopicReadTimeout timeout = new TopicReadTimeout();

  @Override
  public Integer call() {
    source.validate();
    timeout.check();
    PrintWriter err = spec.commandLine().getErr();
    Archive archive = source.withKafka("export", kafka -> {
      ExportReader reader = new ExportReader(kafka, source.topics(), timeout.value);
      Archive a = reader.read(execution);
      if (reader.unreadableRecords() > 0) {
        err.println("netpulse export: skipped " + reader.unreadableRecords() + " record(s) that were not netpulse "
            + "events (another producer on the topics?)");
      }
      return a;
    });
    if (output.equals("-")) {
      try {
        PrintWriter out = spec.commandLine().getOut();
        out.println(io.netpulse.common.json.Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(archive));
        out.flush();
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("an archive is records of strings and numbers, which always serialise", e);
      }
      return 0;
    }
    Path file = Path.of(output);
    archive.write(file);
    err.println("archive " + file.toAbsolutePath() + " (execution " + execution + " of plan " + archive.plan() + ", "
        + archive.sections().size() + " results, " + archive.toolOutput().size() + " tool outputs)");
    err.flush();
    return 0;
  }
}
