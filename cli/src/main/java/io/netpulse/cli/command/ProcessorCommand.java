package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.cli.options.ProcessorTuning;
import io.netpulse.launcher.UserError;
import io.netpulse.launcher.KafkaCheck;

import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.common.metrics.MetricsServer;
import io.netpulse.common.metrics.ServiceMeters;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.health.ProcessorHealth;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.StoreWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "processor", mixinStandardHelpOptions = true,
    description = {"Runs the Kafka Streams processor against an external Kafka cluster until stopped; it starts no "
        + "broker and no store of its own.",
      "Creates the missing topics (--partitions) first; with --influx-url it also copies rates and results into that "
        + "InfluxDB (the store writer), without it nothing is stored."},
    footer = {"", "Runs until stopped (SIGTERM, Ctrl-C). Exit codes at start: 2 bad usage or refused credentials, "
        + "1 Kafka unreachable."})
public final class ProcessorCommand implements Callable<Integer> {

  /** How often the health file is rewritten. */
  static final Duration HEALTH_INTERVAL = Duration.ofSeconds(5);

  @Mixin ProcessorOptions pipeline = new ProcessorOptions();

  @Mixin ProcessorTuning tuning = new ProcessorTuning();

  @Mixin MetricsOptions metricsOptions = new MetricsOptions();

  /** The last health check, for /health; null before the first. */
  private volatile ProcessorHealth.Report lastReport;

  @Option(names = "--application-id", paramLabel = "ID", defaultValue = "${env:NETPULSE_APPLICATION_ID:-"
      + ProcessorApp.DEFAULT_APPLICATION_ID + "}",
      description = "Kafka Streams application id; instances with the same id share the work "
          + "(default: ${DEFAULT-VALUE}).")
  String applicationId;

  @Option(names = "--health-file", paramLabel = "FILE", defaultValue = "${env:NETPULSE_HEALTH_FILE}",
      description = "Rewrite this file every 5 s with the processor's status (RUNNING, REBALANCING, STUCK, "
          + "WAITING_FOR_KAFKA, ERROR, ... and why) and its and the store writer's counters, for health checks "
          + "(default: not written).")
  Path healthFile;

  @Override
  public Integer call() throws Exception {
    // every option before anything starts: a bad one is a usage error, not a failure after Streams has started
    pipeline.validate();
    OptionChecks.requireApplicationId(applicationId);
    io.netpulse.processor.ProcessorSettings settings = tuning.settings();
    OptionChecks.requireWritableFileLocation(healthFile, "--health-file");
    pipeline.requireWritableDataDir();
    java.net.InetSocketAddress metricsAddress = metricsOptions.address();
    KafkaConnection kafka = pipeline.requireExternalKafka("processor", "");
    if (kafka.settingsFile() != null) {
      KafkaCheck.requireNotRefused(kafka);
    }
    createTopics(kafka);
    CountDownLatch stopRequested = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // The JVM exits as soon as its shutdown hooks return: the hook waits until the main thread has closed
    // Streams (commit, store checkpoints, leave the group), or a SIGTERM would leave tasks the next start finds
    // corrupted.
    Thread hook = new Thread(() -> {
      stopRequested.countDown();
      try {
        if (!closed.await(ProcessorApp.CLOSE_TIMEOUT.toSeconds() + StoreWriter.CLOSE_TIMEOUT.toSeconds() + 5,
            TimeUnit.SECONDS)) {
          System.err.println("processor: not closed in time; exiting anyway");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "netpulse-processor-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (ProcessorApp app = ProcessorApp.start(kafka, pipeline.topics(),
            pipeline.dataDir.resolve("streams"), applicationId, settings);
        InfluxStore store = pipeline.influxUrl == null ? null : new InfluxStore(pipeline.influxUrl,
            pipeline.influxToken(), pipeline.influxOrg, pipeline.influxBucket);
        StoreWriter writer = store == null ? null
            : new StoreWriter(kafka, pipeline.topics(), store);
        ServiceMeters meters = metricsAddress == null ? null : new ServiceMeters();
        MetricsServer endpoint = metricsOptions.serve("processor", metricsAddress, bindMeters(meters, app, writer),
            this::health)) {
      if (writer != null) {
        writer.start();
      }
      if (endpoint != null) {
        System.err.println("processor metrics " + endpoint.url() + ", health " + endpoint.url().resolve(
            MetricsServer.HEALTH_PATH));
      }
      HealthFile health = healthFile == null ? null : new HealthFile(healthFile);
      report(health, app, writer);
      if (app.awaitRunning(Duration.ofSeconds(60))) {
        System.err.println("processor running: " + applicationId + " on " + kafka.describe()
            + " (" + settings.describe() + ")" + (writer == null ? "" : "; storing to " + pipeline.influxUrl));
      }
      while (!stopRequested.await(HEALTH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
        report(health, app, writer);
      }
      System.err.println("processor stopping: closing Kafka Streams (up to "
          + ProcessorApp.CLOSE_TIMEOUT.toSeconds() + " s)");
    } finally {
      // said before the hook is let go: once it returns the JVM may end before this thread prints another line
      System.err.println("processor stopped");
      closed.countDown();
    }
    return 0;
  }

  /**
   * Creates the topics that are missing, with --partitions (a standalone processor on a fresh cluster
   * would otherwise wait for source topics nobody creates). Instances started together may race to
   * create the same topic: the loser looks again and finds it.
   */
  private void createTopics(KafkaConnection kafka) {
    for (int attempt = 1; ; attempt++) {
      try {
        EmbeddedKafka.createTopics(kafka, pipeline.topics(), pipeline.partitions, (short) -1);
        return;
      } catch (IllegalStateException e) {
        UserError refused = KafkaCheck.refusal(kafka, e);
        if (refused != null) {
          throw refused;
        }
        if (attempt >= 3 || !lostCreationRace(e)) {
          throw new UserError("processor: " + e.getMessage() + "; check --bootstrap-servers", 1);
        }
      }
    }
  }

  private static boolean lostCreationRace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.kafka.common.errors.TopicExistsException) {
        return true;
      }
    }
    return false;
  }

  private ServiceMeters bindMeters(ServiceMeters meters, ProcessorApp app, StoreWriter writer) {
    if (meters != null) {
      app.bindMetrics(meters, pipeline.topics());
      if (writer != null) {
        writer.meters().forEach(meters::bind);
      }
    }
    return meters;
  }

  /** /health: the last check's status line; 200 while Kafka Streams is RUNNING or REBALANCING, 503 otherwise. */
  private MetricsServer.Health health() {
    ProcessorHealth.Report report = lastReport;
    return report == null ? new MetricsServer.Health(false, "STARTING")
        : new MetricsServer.Health(report.healthy(), report.line(System.currentTimeMillis()));
  }

  /** Checked every interval even without a health file: a stall or an outage is logged either way. */
  private void report(HealthFile health, ProcessorApp app, StoreWriter writer) {
    ProcessorHealth.Report report = app.health().check();
    lastReport = report;
    if (health == null) {
      return;
    }
    String store = writer == null ? "" : " stored_metrics=" + writer.storedMetrics() + " stored_results="
        + writer.storedResults() + " bad_records=" + writer.badRecords() + " retried_batches=" + writer.retriedBatches();
    health.write(report.line(System.currentTimeMillis()) + store);
  }
}
