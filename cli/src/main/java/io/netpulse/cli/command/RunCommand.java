package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.cli.options.OptionChecks;
import io.netpulse.cli.options.Deprecated;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanError;
import io.netpulse.launcher.plan.PlanException;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.DryRun;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.run.ExecutionReport;
import io.netpulse.launcher.run.PlanExecution;
import io.netpulse.cli.stack.PipelineStack;
import java.io.PrintStream;
import java.time.Duration;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse run PLAN}: validates a plan (every error as file:line:column on stderr, exit 2),
 * then runs it on its hosts over SSH through the pipeline (embedded unless told otherwise; {@code --attach}: the
 * processor already running against an external Kafka) and prints the results; {@code --dry-run} prints the
 * commands each test and repetition would start instead.
 * Exit 0 when every test gave its results, 1 when one failed, 2 for bad input; interrupted (SIGINT, e.g. Ctrl-C, or
 * SIGTERM) the JVM's status for the signal, 130 or 143, after the hosts are cleaned up and the interrupted test's final
 * result (marked interrupted) is printed.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run a test plan on its hosts over SSH and print the three-run results "
        + "(--dry-run: only show what would run where).")
public class RunCommand implements Callable<Integer> {

  static final int OK = 0;
  static final int TEST_FAILED = 1;
  static final int BAD_INPUT = 2;

  @Mixin PipelineOptions pipeline = new PipelineOptions();
  @Mixin DashboardOptions dashboard = new DashboardOptions();

  @Option(names = "--install-tools", defaultValue = "${env:NETPULSE_INSTALL_TOOLS:-false}",
      description = "install missing tools on the hosts with their package manager (apt: enables non-free for netperf)")
  boolean installTools;

  @Option(names = "--connect-timeout", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_CONNECT_TIMEOUT:-10s}",
      converter = DurationOption.Seconds.class,
      description = "SSH connect timeout per host, e.g. 10s or 1m; a bare number is seconds (default: ${DEFAULT-VALUE})")
  Duration connectTimeout;

  @Option(names = "--result-timeout", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_RESULT_TIMEOUT:-30s}",
      converter = DurationOption.Seconds.class,
      description = "how long to wait for the processor's result after a test's last repetition; a bare number is "
          + "seconds (default: ${DEFAULT-VALUE})")
  Duration resultTimeout;

  @Option(names = "--attach", defaultValue = "${env:NETPULSE_ATTACH:-false}",
      description = "use the processor and store writer already running against the Kafka of --bootstrap-servers or "
          + "--kafka-config (required), e.g. docker compose's: start no broker, processor, store or dashboard. "
          + "Checks first that the processor's consumer group has members.")
  boolean attach;

  @Option(names = "--remote-jar", paramLabel = "JAR", hidden = true, defaultValue = "${env:NETPULSE_REMOTE_JAR}",
      description = "the connection holder's jar to put on hosts that run it (default: the copy inside netpulse's jar)")
  Path remoteJar;

  enum Output { text, json }

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PLAN", description = "plan file (YAML)")
  Path planFile;

  @Option(names = "--dry-run", defaultValue = "${env:NETPULSE_DRY_RUN:-false}", description = "print the commands per host, test and repetition; start nothing")
  boolean dryRun;

  @Option(names = "--queues", paramLabel = "N", defaultValue = "${env:NETPULSE_QUEUES}",
      description = "the SUT interface's queue count to assume for streams: auto (a real run reads it from the host)")
  Integer queues;

  @Option(names = "--iface", paramLabel = "NAME", defaultValue = "${env:NETPULSE_IFACE:-eth0}",
      description = "the SUT interface to assume for sar results (default: ${DEFAULT-VALUE})")
  String iface;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "${env:NETPULSE_FORMAT:-text}",
      description = "text or json (default: ${DEFAULT-VALUE})")
  Output format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "${env:NETPULSE_OUTPUT:--}",
      description = "file to write the results to, in --format, '-' for stdout (default: ${DEFAULT-VALUE}); "
          + "written whole when the run ends")
  String output;

  @Option(names = "--seed-figures", defaultValue = "${env:NETPULSE_SEED_FIGURES:-false}",
      description = "also print each bit rate read from sar as the seeds compute it (kB taken as 1000 B: 2.34 %% lower), "
          + "labelled METRIC_as_seeds, to compare with vendors' published figures")
  boolean seedFigures;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Output output = format;
    OutputFile target = new OutputFile(this.output);
    // --output text|json (and NETPULSE_OUTPUT) chose the format before --output named a file: one release more
    Output oldSpelling = formatName(this.output);
    if (oldSpelling != null) {
      Deprecated.warn(err, "run", "--output " + this.output + " as a format", "--format " + this.output
          + " (--output now names a file: ./" + this.output + " for a file of that name)");
      output = oldSpelling;
      target = new OutputFile(OutputFile.STDOUT);
    }
    Plan plan;
    try {
      plan = PlanLoader.load(planFile, w -> err.println(w.describe()));
    } catch (PlanException e) {
      for (PlanError error : e.errors()) {
        err.println(error.describe());
      }
      err.println("netpulse run: " + e.errors().size() + " error(s) in " + planFile + "; nothing was started");
      err.flush();
      return BAD_INPUT;
    }
    if (!dryRun) {
      target.checkWritable();
      return execute(plan, out, target, output);
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
    Output chosen = output;
    target.write(out, w -> {
      if (chosen == Output.json) {
        w.println(json(dry.toJson()));
      } else {
        dry.printText(w);
      }
    });
    return OK;
  }

  private int execute(Plan plan, PrintWriter out, OutputFile target, Output output) {
    pipeline.validate();
    dashboard.validate();
    OptionChecks.requireRange(connectTimeout, Duration.ofSeconds(1), null, "--connect-timeout");
    OptionChecks.requireRange(resultTimeout, Duration.ofSeconds(1), null, "--result-timeout");
    PrintStream progress = System.err;
    PipelineStack stack = attach
        ? PipelineStack.attach(requireKafkaToAttach(), pipeline.topics(), progress)
        : PipelineStack.start(pipeline.stackSettings(dashboard), progress);
    java.util.concurrent.atomic.AtomicReference<PlanExecution> running = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
    Thread hook = new Thread(() -> {
      // Ctrl-C: the execution's own hook stops the hosts and marks the run FAILED (interrupted) through Kafka first;
      // then the execution collects the interrupted test's final result from the processor and prints the report,
      // so the pipeline stays up until it has (the JVM exits when the hooks end, with the signal's status)
      PlanExecution e = running.get();
      if (e != null) {
        e.awaitInterruptHandled(Duration.ofSeconds(15));
        try {
          reported.await(PlanExecution.INTERRUPTED_REPORT_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }
      stack.close(); // attached: nothing to stop but this JVM's own clients, which the execution closes
    }, "netpulse-run-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int status;
    boolean signalled = false;
    try {
      if (stack.dashboard() != null) {
        progress.println("dashboard " + stack.dashboard().url("runs.html"));
      }
      PlanExecution execution = new PlanExecution(plan, new PlanExecution.Settings(installTools,
          connectTimeout, resultTimeout, remoteJar),
          stack.kafka(), stack.topics(), progress, System.console() != null);
      running.set(execution);
      ExecutionReport report = execution.execute();
      signalled = report.interrupted();
      Consumer<PrintWriter> results = w -> {
        if (output == Output.json) {
          w.println(json(report.json(seedFigures)));
        } else {
          report.printTable(w, seedFigures);
        }
      };
      status = report.ok() ? OK : TEST_FAILED;
      try {
        target.write(out, results);
        if (!target.isStdout()) {
          progress.println("results " + target.path().toAbsolutePath() + " (" + output + ")");
        }
      } catch (io.netpulse.launcher.UserError e) {
        // the run is over: its results must not be lost with the file
        progress.println("netpulse run: " + e.getMessage() + "; the results follow on stdout");
        new OutputFile(OutputFile.STDOUT).write(out, results);
        status = TEST_FAILED;
      }
    } finally {
      reported.countDown();
      stack.close();
      ShutdownHooks.remove(hook); // Ctrl-C: the hook closes the stack
    }
    if (signalled) {
      awaitSignalExit();
    }
    return status;
  }

  /**
   * Interrupted by SIGINT or SIGTERM, the JVM is already exiting: once its shutdown hooks end it halts with the
   * signal's status (130, 143). An exit of this thread's own would race with that, and a non-zero status given in
   * the instant between the hooks' end and the halt wins (CI once saw 1 for Ctrl-C); so this thread waits for the
   * halt instead of returning.
   */
  private static void awaitSignalExit() {
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // the JVM's halt, not an interrupt, ends this wait
      }
    }
  }

  /** --attach without a Kafka to attach to is a usage error: there is no embedded processor to fall back on. */
  private io.netpulse.common.kafka.KafkaConnection requireKafkaToAttach() {
    return pipeline.externalKafka().orElseThrow(() -> new io.netpulse.launcher.UserError("--attach needs "
        + "--bootstrap-servers (or NETPULSE_BOOTSTRAP_SERVERS, or bootstrap.servers in --kafka-config): the Kafka "
        + "whose running processor computes the results"));
  }

  private static Output formatName(String value) {
    return value == null ? null : value.equals("text") ? Output.text : value.equals("json") ? Output.json : null;
  }

  private static String json(Object value) {
    try {
      return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings, numbers and records always serialise", e);
    }
  }

  private static boolean usesAutoStreams(TestSpec t) {
    return t.streams() != null && t.streams().isAuto();
  }
}
