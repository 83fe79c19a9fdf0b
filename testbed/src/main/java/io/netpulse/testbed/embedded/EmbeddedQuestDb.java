package io.netpulse.testbed.embedded;

import io.netpulse.common.questdb.QuestDbSqlClient;
import io.netpulse.common.questdb.QuestDbQueryException;

import io.questdb.Bootstrap;
import io.questdb.PropBootstrapConfiguration;
import io.questdb.ServerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QuestDB running in this JVM: the embedded time-series store (docs/store.md). It accepts
 * influxdb-client-java's v2 writes at {@code /api/v2/write} and answers SQL at {@code /exec}.
 *
 * <p>Only the HTTP server runs, bound to 127.0.0.1; PG wire, ILP over TCP/UDP, the min-HTTP health
 * server, telemetry and the web console files are off. QuestDB's own log goes to
 * {@code rootDir/log/questdb.log*} so it does not flood the console. Data persists in {@code rootDir}
 * across restarts.
 */
public final class EmbeddedQuestDb implements AutoCloseable {

  private static final String STORE_PORT_OPTION = "--store-port";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedQuestDb.class);
  private static final String LOOPBACK = "127.0.0.1";

  private final ServerMain server;
  private final int httpPort;
  private final long startupMillis;
  private final QuestDbSqlClient sqlClient;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedQuestDb(ServerMain server, int httpPort, long startupMillis) {
    this.server = server;
    this.httpPort = httpPort;
    this.startupMillis = startupMillis;
    this.sqlClient = new QuestDbSqlClient(url());
  }

  /**
   * Starts QuestDB on {@code rootDir} (created if missing) serving HTTP on 127.0.0.1.
   *
   * @param httpPort TCP port for HTTP, or 0 to pick a free one
   * @throws EmbeddedStartException with a one-line message saying what to change when the port is
   *     taken or the directory cannot be written
   */
  public static EmbeddedQuestDb start(Path rootDir, int httpPort) {
    // A port chosen free (port 0) can be taken by another process before QuestDB binds it; then take another. A port
    // the user chose is theirs: one attempt.
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(rootDir, httpPort);
      } catch (PortTakenException e) {
        if (httpPort != 0 || attempt >= 3) {
          throw LocalResources.portInUse(e.port, STORE_PORT_OPTION);
        }
        LOG.info("port {} was taken before the embedded QuestDB could bind it; trying another", e.port);
      }
    }
  }

  /** QuestDB could not bind its HTTP port. */
  private static final class PortTakenException extends Exception {
    private final int port;

    PortTakenException(int port) {
      super(null, null, false, false);
      this.port = port;
    }
  }

  private static EmbeddedQuestDb startOnce(Path rootDir, int httpPort) throws PortTakenException {
    Path root = rootDir.toAbsolutePath().normalize();
    LocalResources.requireWritableDir(root);
    int port = LocalResources.requireFreePort(httpPort, STORE_PORT_OPTION);
    long t0 = System.nanoTime();
    ServerMain server = null;
    try {
      QuestDbChatterFilter.install();
      QuestDbLogConfig.install(root);
      server = new ServerMain(new Bootstrap(new EmbeddedConfiguration(QuestDbSettings.env(port)),
          Bootstrap.getServerMainArgs(root.toString())));
      server.start();
    } catch (IOException e) {
      throw LocalResources.notWritable(root, e);
    } catch (RuntimeException | io.questdb.network.NetworkError e) { // NetworkError (a bind failure) is an Error
      if (server != null) {
        server.close(); // release what did start (threads, files) before reporting
      }
      // A port grabbed between our check and QuestDB's bind shows up here: as the bind's error, or as the port taken
      if (e instanceof io.questdb.network.NetworkError || !LocalResources.isFree(port)) {
        throw new PortTakenException(port);
      }
      throw new EmbeddedStartException("embedded QuestDB failed to start in " + root + ": " + e.getMessage(), e);
    }
    long startupMillis = (System.nanoTime() - t0) / 1_000_000;
    EmbeddedQuestDb db = new EmbeddedQuestDb(server, port, startupMillis);
    LOG.info("embedded QuestDB ready at {} (data {}, started in {} ms)", db.url(), root, startupMillis);
    return db;
  }

  public String url() {
    return "http://" + LOOPBACK + ":" + httpPort;
  }

  public int httpPort() {
    return httpPort;
  }

  /** Wall time {@link #start} spent inside QuestDB's bootstrap and server start, in milliseconds. */
  public long startupMillis() {
    return startupMillis;
  }

  /**
   * Runs one SQL statement over HTTP {@code /exec}; rows come back keyed by column name (values as
   * QuestDB's JSON gives them: numbers, strings, ISO-8601 timestamps). DDL and inserts return no rows.
   *
   * @throws QuestDbQueryException carrying QuestDB's own error message
   */
  public List<Map<String, Object>> sql(String query) {
    return sqlClient.query(query);
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.close();
      LOG.info("embedded QuestDB at {} stopped", url());
    }
  }

  /** QuestDB's bootstrap with our settings only (no process environment) and no web console files. */
  private static final class EmbeddedConfiguration extends PropBootstrapConfiguration {
    private final Map<String, String> env;

    EmbeddedConfiguration(Map<String, String> env) {
      this.env = env;
    }

    @Override
    public Map<String, String> getEnv() {
      return env;
    }

    @Override
    public boolean useSite() {
      return false;
    }
  }
}
