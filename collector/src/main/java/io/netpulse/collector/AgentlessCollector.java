package io.netpulse.collector;

import io.netpulse.tools.Sampler;

import com.jcraft.jsch.JSchException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agentless mode: one process samples many hosts over SSH, nothing installed on them. One connection per host, one
 * exec channel per sampler. Each host is brought up in its own thread (connect with backoff, probe for sar, start
 * the samplers) so that an unreachable host delays only itself.
 */
public final class AgentlessCollector implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AgentlessCollector.class);

  private final Inventory inventory;
  private final String run;
  private final LineSink sink;
  private final CollectorMetrics metrics;
  private final SequenceStore sequences;
  private final List<SshConnection> connections = new CopyOnWriteArrayList<>();
  private final List<SshLineSource> sources = new CopyOnWriteArrayList<>();
  private final List<Thread> starters = new ArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  /** @param sequences numbering that goes on from the previous start on the same data dir */
  public AgentlessCollector(Inventory inventory, String run, SequenceStore sequences, LineSink sink,
      CollectorMetrics metrics) {
    this.inventory = inventory;
    this.run = run;
    this.sequences = sequences;
    this.sink = sink;
    this.metrics = metrics;
  }

  public AgentlessCollector start() {
    for (Inventory.Host host : inventory.hosts()) {
      Thread t = new Thread(() -> bringUp(host), "collector-ssh-start-" + host.target().name());
      t.setDaemon(true);
      starters.add(t);
      t.start();
    }
    return this;
  }

  /** Samplers running (started and not closed). */
  public int sourcesStarted() {
    return sources.size();
  }

  private void bringUp(Inventory.Host host) {
    SshConnection connection = new SshConnection(host.target());
    connections.add(connection);
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60));
    boolean hasSar = false;
    while (closed.getCount() > 0) {
      try {
        hasSar = !host.samplers().contains(Sampler.SAR_DEV) || connection.run("command -v sar >/dev/null") == 0;
        break;
      } catch (JSchException | IOException e) {
        long delay = backoff.next();
        LOG.warn("{}: cannot connect: {}; trying again in {} s", host.target(), e.getMessage(), delay / 1000);
        try {
          if (closed.await(delay, TimeUnit.MILLISECONDS)) {
            return;
          }
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
    for (Sampler wanted : host.samplers()) {
      Sampler sampler = wanted == Sampler.SAR_DEV && !hasSar ? Sampler.PROC_NET_DEV : wanted;
      if (sampler != wanted) {
        LOG.warn("{}: sar (sysstat) not installed; sampling /proc/net/dev instead", host.target());
      }
      synchronized (this) {
        if (closed.getCount() == 0) {
          return;
        }
        sources.add(new SshLineSource(connection, sampler.source(), run, sampler.shellCommand(), sequences, sink,
            metrics, Duration.ofSeconds(30)).start());
      }
    }
    LOG.info("{}: sampling {}", host.target(), host.samplers().stream().map(Sampler::source).toList());
  }

  @Override
  public void close() {
    synchronized (this) {
      closed.countDown();
    }
    for (Thread t : starters) {
      try {
        t.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    sources.forEach(SshLineSource::close);
    connections.forEach(SshConnection::close);
  }
}
