package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.ArgumentCheck;

/**
 * What the launcher learns from the SUT before a test (over SSH, or {@code --queues} in a dry run):
 * the interface that carries traffic to the peer and its number of queues (combined channels).
 */
public record SutFacts(String iface, int queues) {

  public SutFacts {
    ArgumentCheck.require("interface name", iface, ArgumentCheck.ifaceProblem(iface));
    if (queues < 1) {
      throw new IllegalArgumentException("queue count must be at least 1, got " + queues);
    }
  }
}
