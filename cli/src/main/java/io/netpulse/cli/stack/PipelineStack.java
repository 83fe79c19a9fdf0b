package io.netpulse.cli.stack;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.testbed.embedded.LocalResources;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.dashboard.Dashboard;
import io.netpulse.dashboard.DashboardConfig;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.QuestDbStoreSchema;
import io.netpulse.processor.store.StoreWriter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Kafka (embedded or external), the store (embedded QuestDB or external InfluxDB), the processor,
 * the store writer and the dashboard, started in dependency order and closed in reverse; or, attached
 * ({@link #attach}), only the connection to a Kafka whose processor and store writer are already running.
 */
public final class PipelineStack implements AutoCloseable {

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final Topics topics;
  private KafkaConnection kafka;
  private String storeUrl;
  private EmbeddedQuestDb questDb;
  private Dashboard dashboard;
  private boolean closed;

  private PipelineStack(Topics topics) {
    this.topics = topics;
  }

  /** Starts everything, or closes what had started and rethrows. */
  public static PipelineStack start(StackSettings settings, PrintStream log) {
    PipelineStack stack = new PipelineStack(settings.topics());
    try {
      stack.startAll(settings, log);
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  /**
   * The Kafka connection alone, for {@code run --attach}: the processor and store writer already running against
   * {@code kafka} compute and store the results, so nothing is started and closing stops nothing.
   *
   * @throws io.netpulse.launcher.UserError when Kafka does not answer or the processor's group has no members
   */
  public static PipelineStack attach(KafkaConnection kafka, Topics topics, PrintStream log) {
    KafkaCheck.requireReachable(kafka);
    int members = ProcessorGroup.requireActive(kafka);
    PipelineStack stack = new PipelineStack(topics);
    stack.kafka = kafka;
    log.printf("kafka     %s: attached to the running processor (group %s, %d member(s)); no processor, store or "
        + "dashboard started%n", kafka.describe(), ProcessorApp.DEFAULT_APPLICATION_ID, members);
    return stack;
  }

  private void startAll(StackSettings o, PrintStream log) {
    long t0 = System.nanoTime();
    java.util.function.Supplier<String> took =
        () -> String.format(java.util.Locale.ROOT, " [%.1f s]", (System.nanoTime() - t0) / 1e9);
    Path dataDir = o.dataDir().toAbsolutePath().normalize();
    LocalResources.requireWritableDir(dataDir);
    // The store does not need Kafka: start both at once to be ready sooner.
    CompletableFuture<EmbeddedQuestDb> store = o.influxUrl() == null
        ? CompletableFuture.supplyAsync(() -> EmbeddedQuestDb.start(dataDir.resolve("questdb"), o.storePort()))
        : CompletableFuture.completedFuture(null);
    try {
      java.util.Optional<KafkaConnection> external = o.externalKafka();
      if (external.isEmpty()) {
        EmbeddedKafka embedded = EmbeddedKafka.start(dataDir, o.kafkaPort());
        started.push(embedded);
        kafka = embedded.connection();
        log.printf("kafka     embedded broker at %s (data in %s)%s%n", kafka.bootstrapServers(), embedded.logDir(),
            took.get());
      } else {
        kafka = external.get();
        KafkaCheck.requireReachable(kafka);
        log.printf("kafka     %s%s%n", kafka.describe(), took.get());
      }
      try {
        EmbeddedKafka.createTopics(kafka, topics, o.partitions(), (short) -1);
      } catch (IllegalStateException e) {
        UserError refused = KafkaCheck.refusal(kafka, e); // e.g. no ACL to create topics
        throw refused != null ? refused : e;
      }
    } finally {
      // whatever happened to Kafka, the store must be closed with the rest
      questDb = join(store);
      if (questDb != null) {
        started.push(questDb);
      }
    }
    if (questDb != null) {
      // InfluxDB overwrites a point written twice; make QuestDB do the same (replays after outages)
      QuestDbStoreSchema.apply(questDb::sql);
    }
    storeUrl = questDb != null ? questDb.url() : o.influxUrl();
    log.printf("store     %s%s%n", questDb != null
        ? "embedded QuestDB at " + storeUrl + " (InfluxDB v2 write API, SQL at " + storeUrl + "/exec)"
        : "InfluxDB at " + storeUrl, took.get());

    ProcessorApp processor = ProcessorApp.start(kafka, topics, dataDir.resolve("streams"),
        ProcessorApp.DEFAULT_APPLICATION_ID);
    started.push(processor);

    InfluxStore influx = new InfluxStore(storeUrl, o.influxToken(), o.influxOrg(), o.influxBucket());
    started.push(influx);
    StoreWriter writer = new StoreWriter(kafka, topics, influx);
    started.push(writer);
    writer.start();

    dashboard = Dashboard.start(new DashboardConfig(kafka, topics, o.dashboardHost(), o.dashboardPort(), o.dashboardToken()));
    started.push(dashboard);

    try {
      if (!processor.awaitRunning(Duration.ofSeconds(60))) {
        throw new UserError("the processor did not start within 60 s (state " + processor.state()
            + "); check that Kafka at " + kafka.bootstrapServers() + " is healthy", 1);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while starting", 1);
    }
    log.printf("processor running (Kafka Streams, exactly-once)%s%n", took.get());
  }

  public KafkaConnection kafka() {
    return kafka;
  }

  public Topics topics() {
    return topics;
  }

  public String storeUrl() {
    return storeUrl;
  }

  /** The embedded store, or null when writing to an external InfluxDB or attached. */
  public EmbeddedQuestDb questDb() {
    return questDb;
  }

  /** Null when attached. */
  public Dashboard dashboard() {
    return dashboard;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    while (!started.isEmpty()) {
      AutoCloseable c = started.pop();
      try {
        c.close();
      } catch (Exception e) {
        System.err.println("netpulse: while stopping " + c.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
  }

  private static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }
}
