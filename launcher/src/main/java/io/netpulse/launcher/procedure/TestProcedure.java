package io.netpulse.launcher.procedure;

import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.plan.IrqAffinity;
import io.netpulse.launcher.plan.TestSpec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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

  /** All commands in start order: samplers (the CPU samplers with them), servers, clients. */
  public List<HostCommand> commands() {
    return Stream.of(allSamplers(), servers, clients).flatMap(List::stream).toList();
  }

  /**
   * A CPU sampler ({@code /proc/stat}'s cpu lines every second, source {@code proc-stat}) on the SUT and on every other
   * host the test starts something on: each repetition records the CPU use of the SUT and the clients, so that a
   * figure made while a host was saturated can be told from one that was not. Derived, not a component: the
   * procedures need not each add it.
   */
  public List<HostCommand> cpuSamplers() {
    Set<String> hosts = new LinkedHashSet<>();
    hosts.add(test.sut());
    Stream.of(samplers, servers, clients).flatMap(List::stream).map(HostCommand::host).forEach(hosts::add);
    return hosts.stream().map(h -> HostCommand.sampler(h, ToolCommands.CPU_SOURCE, ToolCommands.cpuEverySecond()))
        .toList();
  }

  /** The samplers to start: the test's own, then the CPU samplers. */
  public List<HostCommand> allSamplers() {
    return Stream.of(samplers, cpuSamplers()).flatMap(List::stream).toList();
  }

  /** The SUT interface whose sar rows give a result; null when no result is read from sar. */
  public String sutIface() {
    return results.stream().map(ResultRule::iface).filter(java.util.Objects::nonNull).findFirst().orElse(null);
  }

  /**
   * One repetition's lifecycle event as the processor reads it: the test's name (results key
   * plan/name/metric), its type (which picks the processor's rules) and the SUT with its interface
   * (whose series the sar results are taken from).
   */
  public RunEvent runEvent(String run, String plan, int repetition, RunEvent.Phase phase, long ts, String reason) {
    return RunEvent.ofRepetition(run, plan, test.name(), repetition, phase, ts, reason, test.type().yamlName(),
        test.sut(), sutIface());
  }
}
