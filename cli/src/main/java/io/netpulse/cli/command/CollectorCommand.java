package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.cli.options.OptionChecks;
import io.netpulse.launcher.UserError;
import io.netpulse.launcher.KafkaCheck;

import io.netpulse.collector.AgentlessCollector;
import io.netpulse.collector.CollectorAgent;
import io.netpulse.collector.CollectorMetrics;
import io.netpulse.collector.DataDirLock;
import io.netpulse.collector.Inventory;
import io.netpulse.collector.InventoryException;
import io.netpulse.collector.KafkaLineSink;
import io.netpulse.collector.LineSink;
import io.netpulse.collector.CollectorMeters;
import io.netpulse.collector.MetricsLog;
import io.netpulse.tools.Sampler;
import io.netpulse.collector.SequenceStore;
import io.netpulse.collector.SinkSettings;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.common.metrics.MetricsServer;
import io.netpulse.common.metrics.ServiceMeters;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "collector", mixinStandardHelpOptions = true,
    description = {
      "Streams sampler output (sar -n DEV 1, ss -s every second) line by line into Kafka's lines topic.",
      "'agent' samples the host it runs on; 'ssh' drives many hosts over SSH with nothing installed on them.",
      "While Kafka is unreachable lines wait in memory, then in a bounded spool under --data-dir."},
    subcommands = {CollectorCommand.Agent.class, CollectorCommand.Ssh.class})
public final class CollectorCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command: choose 'agent' or 'ssh'");
  }

  /** Options and the run loop shared by both modes. */
  abstract static class Mode implements Callable<Integer> {

    @Mixin ClusterOptions kafkaOptions = new ClusterOptions();

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
        description = "Where the collector keeps its spool (DIR/spool: lines waiting for Kafka, kept across "
            + "restarts) and its lock: one collector per DIR (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--run", paramLabel = "ID", defaultValue = "${env:NETPULSE_RUN}",
        description = "Run id put on every line (default: none, monitoring).")
    String run;

    @Option(names = "--memory-lines", paramLabel = "N",
        defaultValue = "${env:NETPULSE_MEMORY_LINES:-" + SinkSettings.DEFAULT_MEMORY_LINES + "}",
        description = "Lines kept in memory while Kafka is behind before they go to the spool (default: ${DEFAULT-VALUE}).")
    int memoryLines;

    @Option(names = "--spool-max-bytes", paramLabel = "SIZE", defaultValue = "${env:NETPULSE_SPOOL_MAX_BYTES:-256m}",
        description = "Bound of the disk spool (DATA_DIR/spool), suffix k, m or g; beyond it the oldest lines are "
            + "dropped and counted (default: ${DEFAULT-VALUE}).")
    String spoolMaxBytes;

    @Option(names = "--metrics-interval", paramLabel = "DURATION",
        defaultValue = "${env:NETPULSE_METRICS_INTERVAL:-60s}", converter = DurationOption.Seconds.class,
        description = "Log each source's read/sent/spooled/dropped counters this often; a bare number is seconds "
            + "(default: ${DEFAULT-VALUE}).")
    Duration metricsInterval;

    @Option(names = "--batch-linger", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_BATCH_LINGER:-500ms}",
        converter = DurationOption.Millis.class,
        description = "Once a line waits, gather more for this long before one Kafka request: lines reach Kafka up to "
            + "this much later, for fewer requests and less CPU; at most 10s, a bare number is milliseconds "
            + "(default: ${DEFAULT-VALUE}; figures in "
            + "docs/measurements/2026-11-30-collector.md).")
    Duration batchLinger;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_DURATION:-0s}",
        converter = DurationOption.Seconds.class,
        description = "Stop after this long, e.g. 90s or 2h; a bare number is seconds (default: 0s, run until stopped).")
    Duration duration;

    @Mixin MetricsOptions metricsOptions = new MetricsOptions();

    abstract AutoCloseable startSampling(SequenceStore sequences, LineSink sink, CollectorMetrics metrics)
        throws Exception;

    abstract String describe();

    @Override
    public Integer call() throws Exception {
      // the launcher logs at warn; the collector's counters and reconnections are its output
      if (System.getProperty("org.slf4j.simpleLogger.log.io.netpulse.collector") == null) {
        System.setProperty("org.slf4j.simpleLogger.log.io.netpulse.collector", "info");
      }
      kafkaOptions.validate();
      OptionChecks.requireRange(metricsInterval, Duration.ofSeconds(1), null, "--metrics-interval");
      OptionChecks.requireRange(memoryLines, 1, Integer.MAX_VALUE, "--memory-lines");
      OptionChecks.requireRange(batchLinger, Duration.ZERO, Duration.ofSeconds(10), "--batch-linger");
      KafkaConnection kafka = kafkaOptions.requireExternalKafka("collector", ": the Kafka cluster to send lines to");
      InetSocketAddress metricsAddress = metricsOptions.address();
      SinkSettings settings = SinkSettings.spooled(kafka, kafkaOptions.topics().lines(),
          dataDir).withMemoryLines(memoryLines).withSpool(spoolDir(), parseSize(spoolMaxBytes))
          .withBatchLinger(batchLinger);
      if (kafka.settingsFile() != null) {
        KafkaCheck.requireNotRefused(kafka); // an unreachable Kafka is waited for (spooled); wrong credentials not
      }
      CollectorMetrics metrics = new CollectorMetrics();
      CountDownLatch stop = new CountDownLatch(1);
      CountDownLatch stopped = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        stop.countDown();
        try {
          stopped.await(20, TimeUnit.SECONDS); // let the sink drain or spool before the JVM goes
        } catch (InterruptedException ignored) {
          Thread.currentThread().interrupt();
        }
      }, "netpulse-collector-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      // closed in reverse: the samplers stop before the sequence state is written a last time, and that before
      // the data dir is unlocked
      try (DataDirLock lock = lockDataDir();
          SequenceStore sequences = openSequences();
          MetricsLog log = new MetricsLog(metrics, metricsInterval);
          KafkaLineSink sink = new KafkaLineSink(settings, metrics);
          ServiceMeters meters = metricsAddress == null ? null : new ServiceMeters();
          MetricsServer endpoint = serveMetrics(metricsAddress, meters, metrics, sink);
          AutoCloseable sampling = startSampling(sequences, sink, metrics)) {
        System.err.println("collector " + describe() + " -> " + settings.topic() + " at "
            + kafka.describe() + "; spool " + settings.spoolDir());
        if (endpoint != null) {
          System.err.println("metrics " + endpoint.url());
        }
        CollectorKafkaProbe.startInBackground(kafka, settings.topic(), settings.spoolDir());
        if (!duration.isZero()) {
          stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } else {
          stop.await();
        }
      } finally {
        stopped.countDown();
        ShutdownHooks.remove(hook); // a running hook waits for stopped, counted down above
      }
      return 0;
    }

    private DataDirLock lockDataDir() {
      try {
        return DataDirLock.acquire(dataDir);
      } catch (DataDirLock.DataDirUnavailableException e) {
        throw new UserError(e.getMessage());
      }
    }

    private SequenceStore openSequences() {
      try {
        return SequenceStore.open(dataDir);
      } catch (IOException e) {
        throw new UserError("cannot write the sequence state in data dir " + dataDir + ": " + e.getMessage());
      }
    }

    private MetricsServer serveMetrics(InetSocketAddress address, ServiceMeters meters, CollectorMetrics metrics,
        KafkaLineSink sink) {
      if (address == null) {
        return null;
      }
      CollectorMeters sources = meters.bind(new CollectorMeters(metrics));
      meters.bind(sink.producerMetrics());
      // /health: up while the agent runs (its samplers restart themselves; their gaps are in /metrics)
      return metricsOptions.serve("collector", address, () -> {
        sources.refresh();
        return meters.scrape();
      }, () -> new MetricsServer.Health(true, "UP"));
    }

    private Path spoolDir() {
      return dataDir.resolve("spool");
    }

    static long parseSize(String text) {
      String t = text.strip().toLowerCase(Locale.ROOT);
      long unit = 1;
      if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
        unit = switch (t.charAt(t.length() - 1)) {
          case 'k' -> 1L << 10;
          case 'm' -> 1L << 20;
          default -> 1L << 30;
        };
        t = t.substring(0, t.length() - 1);
      }
      try {
        long bytes = Long.parseLong(t) * unit;
        if (bytes < 64 * 1024) {
          throw new UserError(OptionChecks.named("--spool-max-bytes") + " must be at least 64k, got " + text);
        }
        return bytes;
      } catch (NumberFormatException e) {
        throw new UserError(OptionChecks.named("--spool-max-bytes") + " must be a size such as 512m or 2g, got '"
            + text + "'");
      }
    }
  }

  @Command(name = "agent", mixinStandardHelpOptions = true,
      description = {"Samples this host with local processes (restarted when they die) until stopped.",
        "Without sysstat, sar-dev becomes proc-net-dev (/proc/net/dev every second)."})
  static final class Agent extends Mode {

    @Option(names = "--host", paramLabel = "NAME", defaultValue = "${env:NETPULSE_HOST}",
        description = "Host name keying the lines (default: this host's name).")
    String host;

    @Option(names = "--samplers", paramLabel = "SAMPLER,...", split = ",", defaultValue = "${env:NETPULSE_SAMPLERS:-sar-dev,ss-summary}",
        description = "Samplers to run: sar-dev, ss-summary, proc-net-dev, proc-stat (default: ${DEFAULT-VALUE}).")
    List<String> samplers;

    @Override
    AutoCloseable startSampling(SequenceStore sequences, LineSink sink, CollectorMetrics metrics) throws Exception {
      List<Sampler> chosen;
      try {
        chosen = samplers.stream().map(String::strip).map(Sampler::named).toList();
      } catch (IllegalArgumentException e) {
        throw new UserError("--samplers: " + e.getMessage());
      }
      return new CollectorAgent(hostName(), chosen, run, sequences, sink, metrics).start();
    }

    private String hostName() throws java.net.UnknownHostException {
      return host != null ? host : InetAddress.getLocalHost().getHostName();
    }

    @Override
    String describe() {
      return "agent on " + (host != null ? host : "this host") + " sampling " + samplers;
    }
  }

  @Command(name = "ssh", mixinStandardHelpOptions = true,
      description = {"Samples the hosts of an inventory over SSH (one connection per host, one exec channel per",
        "sampler), reconnecting with backoff and reporting gaps, until stopped. Host keys are checked against",
        "known_hosts; set host_key_policy: accept-new in the inventory to record unknown hosts."})
  static final class Ssh extends Mode {

    @Option(names = "--inventory", paramLabel = "FILE", required = true, defaultValue = "${env:NETPULSE_INVENTORY}",
        description = "YAML inventory: defaults (user, port, identity, known_hosts, host_key_policy, samplers, "
            + "connect_timeout) and hosts (name, address and any of those).")
    Path inventoryFile;

    private Inventory inventory;

    @Override
    public Integer call() throws Exception {
      try {
        inventory = Inventory.load(inventoryFile); // before anything starts: a bad file is a usage error
      } catch (InventoryException e) {
        throw new UserError(e.getMessage());
      }
      return super.call();
    }

    @Override
    AutoCloseable startSampling(SequenceStore sequences, LineSink sink, CollectorMetrics metrics) {
      return new AgentlessCollector(inventory, run, sequences, sink, metrics).start();
    }

    @Override
    String describe() {
      return "ssh for " + inventory.hosts().size() + " hosts of " + inventoryFile;
    }
  }
}
