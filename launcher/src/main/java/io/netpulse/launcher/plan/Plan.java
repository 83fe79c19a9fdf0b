package io.netpulse.launcher.plan;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A validated plan: every host a test names exists, every default applied; {@code source} is the file as named. */
public record Plan(
    Path source,
    String name,
    Map<String, HostSpec> hosts,
    int repetitions,
    Duration warmup,
    StopMode stop,
    SteadySpec steady,
    PrepareSpec prepare,
    List<TestSpec> tests) {

  public HostSpec host(String name) {
    HostSpec h = hosts.get(name);
    if (h == null) {
      throw new IllegalArgumentException("no host '" + name + "' in plan " + this.name);
    }
    return h;
  }
}
