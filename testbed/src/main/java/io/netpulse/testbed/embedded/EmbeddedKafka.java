package io.netpulse.testbed.embedded;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka (KRaft, combined broker + controller) running in this JVM. Its log
 * directory lives under the given data dir, so a restart on the same dir keeps the topics and
 * their records.
 *
 * <p>On such a restart the controller may refuse its own registration once (NotControllerException: Kafka sends it
 * when the Raft leader, itself, is known but before the controller has replayed the metadata log, the likelier the
 * longer that log) and retry it successfully; Kafka logs the refusal as an ERROR of {@code kafka.server.ControllerApis}
 * with a stack trace, which netpulse's logging configuration turns off.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private static final String CONTROLLER = "CONTROLLER";
  /** Started and not yet closed, for the halt guard. */
  private static final Set<EmbeddedKafka> RUNNING = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final String saslBootstrapServers;
  private final String sslBootstrapServers;
  private final Path logDir;
  private boolean closed;

  private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers, String saslBootstrapServers,
      String sslBootstrapServers, Path logDir) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.saslBootstrapServers = saslBootstrapServers;
    this.sslBootstrapServers = sslBootstrapServers;
    this.logDir = logDir;
  }

  /**
   * Formats the log dir if it is new and starts the broker.
   *
   * @param dataDir netpulse data dir; the broker uses {@code dataDir/kafka}
   * @param port    client port on 127.0.0.1, 0 for a free one
   */
  public static EmbeddedKafka start(Path dataDir, int port) {
    return start(dataDir, port, new SecuredListeners(Map.of(), null, null));
  }

  /**
   * As {@link #start(Path, int)}, plus listeners on other free ports of 127.0.0.1 that require SASL and/or TLS, so
   * that clients configured like those of a secured cluster can be tried for real. The PLAINTEXT listener stays as
   * it is (the broker talks to itself there).
   */
  public static EmbeddedKafka startSecured(Path dataDir, int port, SecuredListeners secured) {
    return start(dataDir, port, secured);
  }

  private static EmbeddedKafka start(Path dataDir, int port, SecuredListeners secured) {
    HaltGuard.install();
    Path logDir = dataDir.resolve("kafka");
    LocalResources.requireWritableDir(dataDir);
    LocalResources.requireWritableDir(logDir);
    int brokerPort = LocalResources.requireFreePort(port, "--kafka-port");
    int controllerPort = LocalResources.freePort();
    Properties props = brokerProperties(logDir, brokerPort, controllerPort);
    int saslPort = secured.sasl() ? LocalResources.freePort() : 0;
    int sslPort = secured.ssl() ? LocalResources.freePort() : 0;
    secured.addTo(props, saslPort, sslPort);
    KafkaConfig config = new KafkaConfig(props, false);
    format(logDir, config);
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      safeShutdown(server);
      throw new EmbeddedStartException("embedded Kafka did not start in " + logDir + ": " + rootMessage(e), e);
    }
    EmbeddedKafka kafka = new EmbeddedKafka(server, "127.0.0.1:" + brokerPort,
        saslPort == 0 ? null : "127.0.0.1:" + saslPort, sslPort == 0 ? null : "127.0.0.1:" + sslPort, logDir);
    RUNNING.add(kafka);
    kafka.awaitReady();
    return kafka;
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The PLAINTEXT listener, as a connection. */
  public KafkaConnection connection() {
    return KafkaConnection.plain(bootstrapServers);
  }

  /** The SASL_PLAINTEXT listener's host:port, or null when started without one. */
  public String saslBootstrapServers() {
    return saslBootstrapServers;
  }

  /** The SSL listener's host:port, or null when started without one. */
  public String sslBootstrapServers() {
    return sslBootstrapServers;
  }

  public Path logDir() {
    return logDir;
  }

  /** Creates the topics (docs/topics.md) that do not exist yet; {@code results} is compacted. */
  public void createTopics(Topics topics, int partitions) {
    createTopics(connection(), topics, partitions, (short) 1);
  }

  /** Creates missing netpulse topics on any cluster, writable when this returns ({@link TopicCreation}). */
  public static void createTopics(KafkaConnection kafka, Topics topics, int partitions, short replication) {
    TopicCreation.create(kafka, topics, partitions, replication);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RUNNING.remove(this);
    safeShutdown(server);
  }

  /**
   * A broker whose log dir fails (deleted, disk full) halts its JVM: right for a broker process, wrong for an embedded
   * one, where the JVM is netpulse itself (which must still stop the processes it started on remote hosts) or a test
   * run. Kafka's own tests replace the halt the same way; here it stops the embedded brokers instead, and clients see
   * the broker gone.
   */
  private static final class HaltGuard {
    private static final java.util.concurrent.atomic.AtomicBoolean INSTALLED =
        new java.util.concurrent.atomic.AtomicBoolean();

    static void install() {
      if (INSTALLED.compareAndSet(false, true)) {
        org.apache.kafka.common.utils.internals.Exit.setHaltProcedure(HaltGuard::stopBrokers);
        org.apache.kafka.common.utils.internals.Exit.setExitProcedure(HaltGuard::stopBrokers);
      }
    }

    private static void stopBrokers(int status, String message) {
      System.err.println("netpulse: embedded Kafka failed (" + (message == null ? "status " + status : message)
          + "); stopping it");
      Thread stopper = new Thread(() -> List.copyOf(RUNNING).forEach(EmbeddedKafka::close), "embedded-kafka-halt");
      stopper.setDaemon(true);
      stopper.start();
    }
  }

  private void awaitReady() {
    try (Admin admin = Admin.create(connection().clientProperties())) {
      admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new EmbeddedStartException("interrupted while waiting for embedded Kafka", e);
    } catch (ExecutionException | TimeoutException e) {
      close();
      throw new EmbeddedStartException("embedded Kafka did not become ready: " + rootMessage(e), e);
    }
  }

  private static Properties brokerProperties(Path logDir, int brokerPort, int controllerPort) {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + "," + CONTROLLER + "://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", CONTROLLER);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    // One broker: internal topics must live with one replica, or exactly-once Streams never starts.
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "4");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "4");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("min.insync.replicas", "1");
    p.put("default.replication.factor", "1");
    p.put("num.partitions", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
    // The cleaner's dedupe buffer is 128 MiB on heap by default: too much for a laptop-sized JVM.
    p.put("log.cleaner.dedupe.buffer.size", String.valueOf(8L * 1024 * 1024));
    p.put("log.cleaner.threads", "1");
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "4");
    p.put("log.retention.hours", "168");
    p.put("log.segment.bytes", String.valueOf(64 * 1024 * 1024));
    return p;
  }

  private static void format(Path logDir, KafkaConfig config) {
    if (Files.exists(logDir.resolve("meta.properties"))) {
      return; // formatted by an earlier run: keep its data
    }
    try (PrintStream quiet = new PrintStream(OutputStream.nullOutputStream())) {
      new Formatter()
          .setPrintStream(quiet)
          .setNodeId(1)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toString()))
          .setMetadataLogDirectory(logDir.toString())
          .setControllerListenerName(CONTROLLER)
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
          .setUnstableFeatureVersionsEnabled(false)
          .setIgnoreFormatted(true)
          .run();
    } catch (Exception e) {
      throw new EmbeddedStartException("cannot format Kafka storage in " + logDir + ": " + rootMessage(e), e);
    }
  }

  private static void safeShutdown(KafkaRaftServer server) {
    try {
      server.shutdown();
      server.awaitShutdown();
    } catch (RuntimeException ignored) {
      // shutting down after a failed start: nothing more to release
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
