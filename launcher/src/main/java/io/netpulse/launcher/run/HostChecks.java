package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.Procedures;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.HostFacts;
import io.netpulse.launcher.remote.HolderJar;
import io.netpulse.launcher.remote.HostPreparation;
import io.netpulse.launcher.remote.JarShipper;
import io.netpulse.launcher.remote.Preflight;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a run learns about its hosts before the first test: which could not be reached, the tools each
 * has (with versions) or lacks, the SUT's interface and queues, and the host preparation it applied
 * (restored by {@link #restore}). Tells each test whether it can run, and if not, why.
 */
final class HostChecks {

  private final Plan plan;
  private final PlanExecution.Settings settings;
  private final RunProgress progress;
  private final Map<String, HostFacts> facts = new LinkedHashMap<>();
  /** Host → why it cannot be used at all (unreachable, refused, preflight failed). */
  private final Map<String, String> problems = new LinkedHashMap<>();
  /** Host → program → why it cannot be started there. */
  private final Map<String, Map<String, String>> missing = new LinkedHashMap<>();
  private final List<HostPreparation> preparations = new java.util.concurrent.CopyOnWriteArrayList<>();

  HostChecks(Plan plan, PlanExecution.Settings settings, RunProgress progress) {
    this.plan = plan;
    this.settings = settings;
    this.progress = progress;
  }

  /** Connect failures, preflight and the plan's host preparation. */
  void run(ConnectedHosts hosts) {
    hosts.failures().forEach((host, why) -> progress.message(aboutHost(host, why)));
    problems.putAll(hosts.failures());
    preflight(hosts);
    prepare(hosts);
  }

  Map<String, HostFacts> facts() {
    return facts;
  }

  /** Why {@code test} cannot run: a host it uses is unusable or lacks a program it starts; empty when it can. */
  Optional<String> problemFor(TestSpec test) {
    return hostsOf(test).stream().filter(problems::containsKey).findFirst()
        .map(h -> aboutHost(h, problems.get(h)))
        .or(() -> missingTools(test));
  }

  /** Puts back what the preparation changed; safe to call twice (from the end of the run and a Ctrl-C hook). */
  void restore() {
    List<HostPreparation> done = new ArrayList<>(preparations);
    preparations.removeAll(done);
    done.forEach(HostPreparation::close);
  }

  /**
   * The first problem with a program this test starts (not installed, or the connection holder's jar could not be
   * put on the host), as a message naming the host and what to do.
   */
  private Optional<String> missingTools(TestSpec test) {
    TestProcedure provisional = Procedures.build(plan, test, new SutFacts("eth0", 1));
    for (HostCommand c : provisional.commands()) {
      for (String program : programs(c)) {
        String why = missing.getOrDefault(c.host(), Map.of()).get(program);
        if (why != null) {
          return Optional.of(aboutHost(c.host(), why));
        }
      }
    }
    return Optional.empty();
  }

  private void preflight(ConnectedHosts hosts) {
    Map<String, Set<String>> tools = new LinkedHashMap<>();
    Map<String, String> peerOf = new LinkedHashMap<>();
    for (TestSpec t : plan.tests()) {
      TestProcedure provisional = Procedures.build(plan, t, new SutFacts("eth0", 1));
      for (HostCommand c : provisional.commands()) {
        tools.computeIfAbsent(c.host(), h -> new LinkedHashSet<>()).addAll(programs(c));
      }
      String other = hostsOf(t).stream().filter(h -> !h.equals(t.sut())).findFirst().orElse(null);
      if (other != null) {
        peerOf.putIfAbsent(t.sut(), plan.host(other).testAddress());
        for (String h : hostsOf(t)) {
          peerOf.putIfAbsent(h, plan.host(t.sut()).testAddress());
        }
      }
    }
    for (RemoteHost h : hosts.all()) {
      String peer = peerOf.getOrDefault(h.name(), plan.host(h.name()).testAddress());
      Set<String> needed = tools.getOrDefault(h.name(), Set.of());
      try {
        HostFacts f = Preflight.check(h, needed, peer);
        if (!f.missingTools().isEmpty() && settings.installTools()) {
          progress.message("host " + h.name() + ": installing " + String.join(", ", f.missingTools()));
          Preflight.install(h, f.missingTools());
          f = Preflight.check(h, needed, peer);
        }
        facts.put(h.name(), f);
        Map<String, String> lacking = new LinkedHashMap<>();
        for (String tool : f.missingTools()) {
          lacking.put(tool, tool + " not found; install it (Debian: netperf is in non-free) or run with --install-tools");
        }
        // the host's java may be a path of its own (hosts: NAME: java:), which is what the commands start
        String java = plan.host(h.name()).java() == null ? "java" : plan.host(h.name()).java();
        if (needed.contains(java) && !lacking.containsKey(java)) {
          try {
            JarShipper.ship(h, HolderJar.locate(settings.remoteJar()));
          } catch (RemoteFailure e) {
            lacking.put(java, e.getMessage());
          }
        }
        missing.put(h.name(), lacking);
        progress.message("host " + h.name() + ": " + describe(f));
        if (f.machine() != null && f.machine().offloadsNote() != null) {
          progress.message("host " + h.name() + ": " + f.machine().offloadsNote()); // a fact missing, not a fault
        }
      } catch (RemoteFailure e) {
        problems.put(h.name(), e.getMessage());
        progress.message(aboutHost(h.name(), e.getMessage()));
      }
    }
  }

  private void prepare(ConnectedHosts hosts) {
    if (plan.prepare().isEmpty()) {
      return;
    }
    for (RemoteHost h : hosts.all()) {
      if (problems.containsKey(h.name())) {
        continue;
      }
      try {
        HostPreparation p = HostPreparation.apply(h, plan.prepare());
        preparations.add(p);
        if (!p.changes().isEmpty()) {
          progress.message("host " + h.name() + ": prepared for the run: " + String.join(", ", p.changes()));
        }
      } catch (RemoteFailure e) {
        problems.put(h.name(), "cannot prepare: " + e.getMessage());
      }
    }
  }

  /** "host NAME: message", unless the message names the host first already. */
  static String aboutHost(String host, String message) {
    return message.startsWith("host " + host) ? message : "host " + host + ": " + message;
  }

  private static Set<String> programs(HostCommand c) {
    Set<String> p = new LinkedHashSet<>();
    List<String> argv = c.command().argv();
    if (!argv.get(0).equals("sh")) { // the preflight probe itself runs in sh: nothing more to check, or to list
      p.add(argv.get(0));
    }
    String wrapped = c.command().wrappedProgram(); // prlimit --nofile=N:N PROGRAM ..., stdbuf -oL PROGRAM ...
    if (!wrapped.equals(argv.get(0))) {
      p.add(wrapped);
    }
    return p;
  }

  /** Every host a test uses. */
  static Set<String> hostsOf(TestSpec t) {
    Set<String> hs = new LinkedHashSet<>();
    hs.add(t.sut());
    if (t.peer() != null) {
      hs.add(t.peer());
    }
    if (t.clients() != null) {
      hs.addAll(t.clients());
    }
    if (t.senders() != null) {
      hs.addAll(t.senders());
    }
    if (t.server() != null) {
      hs.add(t.server());
    }
    return hs;
  }

  private static String describe(HostFacts f) {
    StringBuilder b = new StringBuilder();
    b.append("kernel ").append(f.kernel()).append(", ").append(f.iface()).append(" with ").append(f.queues())
        .append(" queue(s), nofile ").append(f.nofile()).append(ResultTable.machine(f.info()));
    if (!f.toolVersions().isEmpty()) {
      b.append(", ").append(ResultTable.versions(f));
    }
    return b.toString();
  }
}
