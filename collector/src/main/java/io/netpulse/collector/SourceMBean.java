package io.netpulse.collector;

import java.lang.management.ManagementFactory;
import java.util.regex.Pattern;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source's counters in the platform MBeanServer, from the source's start to its close. Reads the live counters, so
 * JMX clients (jconsole, a JMX exporter) always see the current values.
 */
public final class SourceMBean implements SourceCountersMXBean, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SourceMBean.class);
  // characters that an unquoted ObjectName value may not hold
  private static final Pattern NEEDS_QUOTING = Pattern.compile("[,=:\"*?\\\\\\n]");

  private final CollectorMetrics.Counters counters;
  private final ObjectName name;
  private volatile boolean registered;

  private SourceMBean(ObjectName name, CollectorMetrics.Counters counters) {
    this.name = name;
    this.counters = counters;
  }

  /**
   * Registers the counters of {@code host}/{@code source}. When another source of the same name is registered already
   * (same host and format in one JVM) the first one stays and this one is a no-op: JMX names must be unique.
   */
  public static SourceMBean register(String host, String source, CollectorMetrics.Counters counters) {
    SourceMBean bean = new SourceMBean(objectName(host, source), counters);
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      server.registerMBean(bean, bean.name);
      bean.registered = true;
    } catch (InstanceAlreadyExistsException e) {
      LOG.debug("{} is registered already; keeping the first", bean.name);
    } catch (JMException e) {
      LOG.warn("cannot register {} in JMX: {}", bean.name, e.getMessage());
    }
    return bean;
  }

  /** {@code io.netpulse:type=collector,host=H,source=S}, values quoted when they hold ObjectName metacharacters. */
  public static ObjectName objectName(String host, String source) {
    try {
      return new ObjectName("io.netpulse:type=collector,host=" + value(host) + ",source=" + value(source));
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException("cannot name source " + host + "/" + source + " in JMX: " + e.getMessage(), e);
    }
  }

  private static String value(String v) {
    return v.isEmpty() || NEEDS_QUOTING.matcher(v).find() ? ObjectName.quote(v) : v;
  }

  public ObjectName name() {
    return name;
  }

  /** False when another source held the name at registration. */
  public boolean isRegistered() {
    return registered;
  }

  @Override
  public long getLinesRead() {
    return counters.read.sum();
  }

  @Override
  public long getLinesSent() {
    return counters.sent.sum();
  }

  @Override
  public long getLinesSpooled() {
    return counters.spooled.sum();
  }

  @Override
  public long getLinesDropped() {
    return counters.dropped.sum();
  }

  @Override
  public long getRestarts() {
    return counters.restarts.sum();
  }

  @Override
  public long getGaps() {
    return counters.gaps.sum();
  }

  @Override
  public long getGapMillis() {
    return counters.gapMillis.sum();
  }

  @Override
  public long getRestartGaps() {
    return counters.restartGaps.sum();
  }

  @Override
  public long getRestartGapMillis() {
    return counters.restartGapMillis.sum();
  }

  /** Unregisters; idempotent. */
  @Override
  public synchronized void close() {
    if (!registered) {
      return;
    }
    registered = false;
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    } catch (InstanceNotFoundException e) {
      // unregistered by someone else already: nothing left to do
    } catch (JMException e) {
      LOG.warn("cannot unregister {} from JMX: {}", name, e.getMessage());
    }
  }
}
