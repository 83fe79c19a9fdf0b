package io.netpulse.launcher.plan;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A validated plan: every host a test names exists, every default applied; {@code source} is the file as named;
 * {@code labels} what the plan says it measures on (instance_type, region, image, ...), in file order, travels with
 * its run events and results.
 */
public record Plan(
    Path source,
    String name,
    Map<String, HostSpec> hosts,
    int repetitions,
    Duration warmup,
    StopMode stop,
    SteadySpec steady,
    PrepareSpec prepare,
    List<TestSpec> tests,
    Map<String, String> labels) {

  public Plan {
    labels = labels == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(labels));
  }

  public HostSpec host(String name) {
    HostSpec h = hosts.get(name);
    if (h == null) {
      throw new IllegalArgumentException("no host '" + name + "' in plan " + this.name);
    }
    return h;
  }
}
