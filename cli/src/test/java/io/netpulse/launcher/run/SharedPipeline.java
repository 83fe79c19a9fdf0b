package io.netpulse.launcher.run;

import io.netpulse.cli.stack.PipelineStack;
import io.netpulse.cli.stack.StackSettings;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One pipeline per test JVM for the end-to-end tests that only need "a pipeline": an embedded broker under a temp dir
 * and a {@link PipelineStack} (processor, embedded QuestDB, store writer, dashboard) against it as an external Kafka,
 * started on first use and closed by a shutdown hook when the JVM ends. Each {@code netpulse run} then attaches to
 * it ({@link #runArgs}) instead of starting and closing a pipeline of its own (5-15 s each, more under load).
 *
 * <p>Tests that use it see other tests' executions on the topics and in the store: they read only their own
 * execution's or runs' records (TopicReader filters by run id) and their plan names are unique. Tests that stop,
 * restart or inspect the pipeline itself (its data dir, its dashboard port) start their own.
 */
final class SharedPipeline {

  /** Partitions of every topic: the commands' default. */
  static final int PARTITIONS = 3;

  private static SharedPipeline shared;

  private final Path dir;
  private final EmbeddedKafka kafka;
  private final PipelineStack stack;

  private SharedPipeline(Path dir, EmbeddedKafka kafka, PipelineStack stack) {
    this.dir = dir;
    this.kafka = kafka;
    this.stack = stack;
  }

  /** This JVM's pipeline, started by the first caller (the first test that needs it waits for the start-up). */
  static synchronized SharedPipeline get() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "shared-pipeline-shutdown"));
    }
    return shared;
  }

  private static SharedPipeline start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("netpulse-shared-pipeline");
    } catch (IOException e) {
      throw new IllegalStateException("cannot make the shared pipeline's temp dir", e);
    }
    long t0 = System.nanoTime();
    System.err.println("shared pipeline: starting under " + dir);
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    try {
      StackSettings settings = new StackSettings(dir, Optional.of(kafka.connection()), 0, PARTITIONS,
          new Topics("netpulse."), null, "netpulse".toCharArray(), "netpulse", "netpulse", 0, "127.0.0.1", 0, null);
      SharedPipeline started = new SharedPipeline(dir, kafka, PipelineStack.start(settings, System.err));
      // printed for whoever times a test class alone: its first test pays this once for the JVM
      System.err.printf(java.util.Locale.ROOT, "shared pipeline: started in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      return started;
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The embedded store the store writer writes to (InfluxDB v2 write API; SQL at /exec). */
  String storeUrl() {
    return stack.storeUrl();
  }

  EmbeddedQuestDb questDb() {
    return stack.questDb();
  }

  /** The arguments that make {@code netpulse run} attach to this pipeline, followed by {@code more}. */
  String[] runArgs(String... more) {
    List<String> args = new ArrayList<>(List.of("--attach", "--bootstrap-servers=" + bootstrapServers()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  private void close() {
    stack.close();
    kafka.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("shared pipeline: left " + dir + ": " + e.getMessage());
    }
  }
}
