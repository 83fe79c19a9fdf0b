package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.cli.options.Deprecated;
import io.netpulse.launcher.UserError;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.compare.CompareFormat;
import io.netpulse.common.compare.CompareReport;
import io.netpulse.launcher.compare.FileResults;
import io.netpulse.launcher.compare.KafkaResults;
import io.netpulse.launcher.compare.ResultSource;
import io.netpulse.launcher.report.TopicSnapshot;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse compare A B}: B against A per test and metric, with Welch's test and a verdict that knows which way
 * each metric improves; {@code --fail-on-regression PCT} makes it a gate (exit 1).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = {"Compare two executions, test by test and metric by metric: both means ± 95 %% CI, B ÷ A, "
        + "Welch's two-sided t-test p-value and a verdict for B (better, worse, no significant difference at "
        + "alpha 0.05; not enough repetitions below 2 on a side) that knows each metric's direction (bandwidth, "
        + "pps, connections: higher is better; latency: lower is better).",
        "A and B are each a file (an archive from 'netpulse export', or the output of 'netpulse run --format "
            + "json'), or read from the results topic: an execution id, a plan's name (its latest execution) or "
            + "a label selector KEY=VALUE[,KEY=VALUE] (the latest execution with those labels)."},
    footer = {"", "Examples:",
        "  netpulse compare old.json new.json                       # two archives or run outputs",
        "  netpulse compare base.json new.json --fail-on-regression 5  # exit 1 if a metric is >5 %% significantly worse",
        "  netpulse compare xlarge-plan large-plan --bootstrap-servers kafka:9092 --format md",
        "  netpulse compare instance_type=c7.large instance_type=c7.xlarge --format json",
        "", "Exit codes: 0 compared (no regression beyond --fail-on-regression), 1 a regression beyond it, "
            + "2 bad input (a missing, unreadable or wrong file, nothing found on Kafka)."})
public final class CompareCommand implements Callable<Integer> {

  @Mixin ReportKafkaOptions kafka = new ReportKafkaOptions();

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "A", description = "the baseline: file, execution id, plan or KEY=VALUE")
  String a;

  @Parameters(index = "1", paramLabel = "B", description = "compared with A: file, execution id, plan or KEY=VALUE")
  String b;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text, md (Markdown) or json (default: ${DEFAULT-VALUE})")
  CompareFormat format;

  @Option(names = "--fail-on-regression", paramLabel = "PCT",
      description = "exit 1 when a metric of B is significantly worse (p < 0.05) than A's by more than PCT percent")
  Double failOnRegressionPct;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_REPORT_TIMEOUT:-30s}",
      converter = DurationOption.Seconds.class,
      description = "how long to wait for Kafka and to read the results topic, when A or B is not a file "
          + "; a bare number is seconds (default: ${DEFAULT-VALUE})")
  Duration timeout;

  @Override
  public Integer call() {
    if (format == CompareFormat.markdown) {
      Deprecated.warn(spec.commandLine().getErr(), "compare", "--format markdown", "--format md");
    }
    if (failOnRegressionPct != null && (failOnRegressionPct.isNaN() || failOnRegressionPct < 0)) {
      throw new UserError("--fail-on-regression must be a percentage ≥ 0, got " + failOnRegressionPct);
    }
    TopicReadTimeout.require(timeout);
    CompareReport report;
    if (isFile(a) && isFile(b)) {
      report = CompareReport.of(new FileResults(Path.of(a)).read(), new FileResults(Path.of(b)).read());
    } else {
      kafka.validate();
      report = kafka.withKafka("compare", connection -> {
        Supplier<TopicSnapshot> topics = snapshot(connection);
        return CompareReport.of(source(a, topics).read(), source(b, topics).read());
      });
    }
    if (report.rows().isEmpty()) {
      throw new UserError("nothing to compare: " + report.a().name() + " and " + report.b().name()
          + " have no test and metric in common");
    }
    PrintWriter out = spec.commandLine().getOut();
    format.write(report, failOnRegressionPct, out);
    return failOnRegressionPct != null && !report.regressions(failOnRegressionPct).isEmpty() ? 1 : 0;
  }

  private Supplier<TopicSnapshot> snapshot(KafkaConnection connection) {
    TopicSnapshot snapshot = new TopicSnapshot(connection, timeout);
    return () -> snapshot;
  }

  private ResultSource source(String arg, Supplier<TopicSnapshot> topics) {
    return isFile(arg) ? new FileResults(Path.of(arg)) : new KafkaResults(topics, kafka.topics().results(), arg);
  }

  /**
   * A file by its name: one that exists, or a name no execution, plan or selector has (a path or a .json name, no
   * '='), so that a mistyped file name says "no such file" rather than "no such plan".
   */
  private static boolean isFile(String arg) {
    return Files.exists(Path.of(arg)) || !arg.contains("=") && (arg.endsWith(".json") || arg.contains("/"));
  }
}
