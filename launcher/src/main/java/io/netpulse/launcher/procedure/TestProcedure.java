package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.IrqAffinity;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything one repetition of a test starts, on which host, and how its result is read.
 *
 * @param toolSeconds how long clients run (warm-up included where the result is windowed from samples)
 * @param irqAffinity IRQ binding on the SUT for this test, applied before and restored after (null: none)
 */
public record TestProcedure(
    TestSpec test,
    int streams,
    long toolSeconds,
    List<HostCommand> samplers,
    List<HostCommand> servers,
    List<HostCommand> clients,
    List<ResultRule> results,
    IrqAffinity irqAffinity) {

  public TestProcedure {
    samplers = List.copyOf(samplers);
    servers = List.copyOf(servers);
    clients = List.copyOf(clients);
    results = List.copyOf(results);
  }

  /** All commands in start order: samplers, servers, clients. */
  public List<HostCommand> commands() {
    return Stream.of(samplers, servers, clients).flatMap(List::stream).toList();
  }
}
