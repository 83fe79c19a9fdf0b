package io.netpulse.launcher.services;

import io.netpulse.testbed.embedded.LocalResources;
import io.netpulse.cli.Main;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * netpulse deployed as an operator runs it, every part an OS process of its own on fixed ports and data dirs: a Kafka
 * broker, QuestDB, {@code netpulse processor} (writing to that QuestDB through {@code --influx-url}) and
 * {@code netpulse collector agent} sampling this machine. Any part can be stopped and started again on the same data
 * dir; {@link #close()} stops all of them, whatever state they are in.
 */
final class PipelineSession implements AutoCloseable {

  static final String HOST = "accept-host";
  static final String APPLICATION_ID = "netpulse-processor";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Path dir;
  private final int kafkaPort = LocalResources.freePort();
  private final int storePort = LocalResources.freePort();
  private ChildJvm broker;
  private ChildJvm store;
  private ChildJvm processor;
  private ChildJvm collector;
  private int starts;
  /** How long the first processor took from its JVM's start to "processor running": the same-run baseline. */
  private Duration firstProcessorStart;
  /** Stops the children should the test JVM itself be stopped (a surefire timeout, Ctrl-C) before close(). */
  private final Thread stopOnExit = new Thread(this::stopAll, "pipeline-session-stop");

  private PipelineSession(Path dir) {
    this.dir = dir;
  }

  /** Broker and store at once, then the processor (it creates the topics), then the collector. */
  static PipelineSession start(Path dir) {
    PipelineSession s = new PipelineSession(dir);
    Runtime.getRuntime().addShutdownHook(s.stopOnExit);
    try {
      CompletableFuture<Void> store = CompletableFuture.runAsync(s::startStore);
      s.startBroker();
      store.join();
      long processorAt = System.nanoTime();
      s.startProcessor();
      s.awaitProcessorRunning();
      s.firstProcessorStart = Duration.ofNanos(System.nanoTime() - processorAt);
      s.startCollector();
      return s;
    } catch (RuntimeException | Error e) {
      s.close();
      throw e;
    }
  }

  /** The first processor's start, JVM to "processor running", on this machine at its load at the time. */
  Duration firstProcessorStart() {
    return firstProcessorStart;
  }

  String bootstrap() {
    return "127.0.0.1:" + kafkaPort;
  }

  String storeUrl() {
    return "http://127.0.0.1:" + storePort;
  }

  Path healthFile() {
    return dir.resolve("processor.health");
  }

  Path dir() {
    return dir;
  }

  ChildJvm processor() {
    return processor;
  }

  ChildJvm collector() {
    return collector;
  }

  ChildJvm store() {
    return store;
  }

  ChildJvm broker() {
    return broker;
  }

  void startBroker() {
    broker = child("broker", List.of("-Xmx512m"), BrokerChild.class.getName(),
        List.of(dir.resolve("broker").toString(), Integer.toString(kafkaPort)));
    broker.awaitLog("READY", START_TIMEOUT);
  }

  void startStore() {
    store = child("questdb", List.of("-Xmx384m"), StoreChild.class.getName(),
        List.of(dir.resolve("questdb").toString(), Integer.toString(storePort)));
    store.awaitLog("READY", START_TIMEOUT);
  }

  /** {@code netpulse processor} on the same data dir, health file and application id every time. */
  void startProcessor() {
    processor = child("processor", List.of("-Xmx512m"), Main.class.getName(), List.of("processor",
        "--bootstrap-servers", bootstrap(), "--influx-url", storeUrl(), "--health-file", healthFile().toString(),
        "--data-dir", dir.resolve("processor").toString(), "--application-id", APPLICATION_ID));
  }

  void awaitProcessorRunning() {
    processor.awaitLog("processor running", START_TIMEOUT);
  }

  /** {@code netpulse collector agent} (sar -n DEV 1, ss -s) on the same data dir every time. */
  void startCollector() {
    collector = child("collector", List.of("-Xmx256m"), Main.class.getName(), List.of("collector", "agent",
        "--bootstrap-servers", bootstrap(), "--data-dir", dir.resolve("collector").toString(), "--host", HOST));
    collector.awaitLog("collector agent", START_TIMEOUT);
  }

  private ChildJvm child(String name, List<String> heap, String main, List<String> args) {
    int n = ++starts;
    // small heaps: four of them and the test share two cores (ChildJvm adds the test JVMs' flags: C1, serial GC)
    return ChildJvm.start(name + " #" + n, dir.resolve("logs").resolve(String.format("%02d-%s.log", n, name)),
        heap, main, args);
  }

  /** Whatever was started, last first; every part is stopped even if another fails to stop. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException exiting) {
      // the hook is running or about to: it stops them
    }
    stopAll();
  }

  private synchronized void stopAll() {
    for (ChildJvm c : new ChildJvm[] {collector, processor, store, broker}) {
      if (c != null) {
        try {
          c.close();
        } catch (RuntimeException e) {
          System.err.println("could not stop " + c + ": " + e.getMessage());
        }
      }
    }
  }

  @Override
  public String toString() {
    return "session in " + dir + ": broker " + bootstrap() + ", store " + storeUrl() + ", " + processor + ", "
        + collector;
  }
}
