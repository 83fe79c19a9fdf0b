package io.netpulse.common.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * One service's meters (processor, collector or dashboard): a Micrometer registry that renders the Prometheus text
 * format, with Micrometer's JVM binders (memory, GC, threads, class loading, CPU, uptime) bound. The service adds its
 * own meters and its Kafka clients' ({@code KafkaClientMetrics}, {@code KafkaStreamsMetrics}); binders that hold
 * resources are closed with it ({@link #closeWith(AutoCloseable)}).
 */
public final class ServiceMeters implements AutoCloseable {

  /** The Prometheus text format (version 0.0.4) that {@link #scrape()} writes. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final List<AutoCloseable> closeables = new ArrayList<>();
  // Micrometer holds the object a function counter or gauge reads weakly: a binder that is that object lives here
  private final List<MeterBinder> bound = new ArrayList<>();

  public ServiceMeters() {
    JvmGcMetrics gc = new JvmGcMetrics(); // listens to GC notifications until closed
    closeWith(gc);
    for (MeterBinder binder : List.of(new JvmMemoryMetrics(), gc, new JvmThreadMetrics(), new ClassLoaderMetrics(),
        new ProcessorMetrics(), new UptimeMetrics())) {
      binder.bindTo(registry);
    }
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Binds {@code binder}, keeps it, and closes it with this registry when it is {@link AutoCloseable}. */
  public synchronized <B extends MeterBinder> B bind(B binder) {
    binder.bindTo(registry);
    bound.add(binder);
    if (binder instanceof AutoCloseable c) {
      closeWith(c);
    }
    return binder;
  }

  public synchronized void closeWith(AutoCloseable resource) {
    closeables.add(resource);
  }

  /** Every meter now, in the Prometheus text format ({@link #CONTENT_TYPE}). */
  public String scrape() {
    return registry.scrape(CONTENT_TYPE);
  }

  @Override
  public synchronized void close() {
    for (AutoCloseable c : closeables) {
      try {
        c.close();
      } catch (Exception e) {
        // a binder that fails to close leaves nothing behind that matters once the registry is closed
      }
    }
    closeables.clear();
    registry.close();
  }
}
