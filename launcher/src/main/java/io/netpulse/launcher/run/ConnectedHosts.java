package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import io.netpulse.launcher.remote.RemoteHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The plan's hosts, each connected on its own (in parallel) so that one unreachable host fails only
 * the tests that use it; the others still run.
 */
final class ConnectedHosts implements AutoCloseable {

  private final Map<String, RemoteHosts> connected = new LinkedHashMap<>();
  private final Map<String, String> failures = new LinkedHashMap<>();
  /** Set on Ctrl-C: from then on nothing new is started, so the hook's stop is the last word. */
  private volatile boolean stopping;

  static ConnectedHosts connect(Plan plan, Duration timeout) {
    ConnectedHosts hosts = new ConnectedHosts();
    Map<String, CompletableFuture<Object>> attempts = new LinkedHashMap<>();
    for (HostSpec spec : plan.hosts().values()) {
      if (jumpOnly(plan, spec.name())) {
        continue; // a bastion no test uses: reached as a hop of the hosts behind it, never preflighted itself
      }
      attempts.put(spec.name(), CompletableFuture.supplyAsync(() -> {
        try {
          return RemoteHosts.connect(List.of(spec), timeout);
        } catch (RemoteFailure e) {
          return e;
        }
      }));
    }
    attempts.forEach((name, attempt) -> {
      Object result = attempt.join();
      if (result instanceof RemoteHosts h) {
        hosts.connected.put(name, h);
      } else {
        hosts.failures.put(name, ((RemoteFailure) result).getMessage());
      }
    });
    return hosts;
  }

  /** A host that other hosts' proxy_jump names and no test runs anything on. */
  static boolean jumpOnly(Plan plan, String name) {
    return plan.hosts().values().stream().anyMatch(h -> h.proxyJump().stream().anyMatch(j -> j.name().equals(name)))
        && plan.tests().stream().noneMatch(t -> HostChecks.hostsOf(t).contains(name));
  }

  RemoteHost host(String name) {
    if (stopping) {
      throw new IllegalStateException("the run is being stopped (interrupted); host " + name + " starts nothing more");
    }
    RemoteHosts h = connected.get(name);
    if (h == null) {
      throw new IllegalStateException("host " + name + " is not connected: " + failures.get(name));
    }
    return h.host(name);
  }

  /** Why the host could not be reached, or empty when it is connected. */
  Optional<String> failure(String name) {
    return Optional.ofNullable(failures.get(name));
  }

  List<RemoteHost> all() {
    List<RemoteHost> all = new ArrayList<>();
    connected.forEach((name, h) -> all.add(h.host(name)));
    return all;
  }

  Map<String, String> failures() {
    return failures;
  }

  /** Refuses further starts, then stops what runs (the Ctrl-C path). */
  void shutDown(Duration grace) {
    stopping = true;
    stopAll(grace);
  }

  boolean stopping() {
    return stopping;
  }

  void stopAll(Duration grace) {
    connected.values().parallelStream().forEach(h -> h.stopAll(grace));
  }

  @Override
  public void close() {
    connected.values().forEach(RemoteHosts::close);
  }
}
