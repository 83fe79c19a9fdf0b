package io.netpulse.launcher.remote;

import com.jcraft.jsch.JSchException;
import io.netpulse.collector.SshConnection;
import io.netpulse.collector.SshTarget;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** All hosts of a plan, connected in parallel; close() stops every process still running, then disconnects. */
public final class RemoteHosts implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteHosts.class);
  private static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

  private final Map<String, RemoteHost> hosts;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RemoteHosts(Map<String, RemoteHost> hosts) {
    this.hosts = hosts;
  }

  /** Connects to every host of the plan at once; one line per unreachable host, all in the exception message. */
  public static RemoteHosts connect(Plan plan, Duration connectTimeout) throws RemoteFailure {
    return connect(plan.hosts().values(), connectTimeout);
  }

  public static RemoteHosts connect(Collection<HostSpec> specs, Duration connectTimeout) throws RemoteFailure {
    Map<String, SshConnection> connections = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    List<String> failedHosts = new ArrayList<>();
    for (HostSpec spec : specs) {
      List<SshTarget> jumps = new ArrayList<>();
      String missing = null;
      for (HostSpec hop : spec.proxyJump()) {
        SshTarget t = target(hop, connectTimeout, List.of());
        if (t == null) {
          missing = "jump host " + hop.name();
        }
        jumps.add(t);
      }
      SshTarget target = missing == null ? target(spec, connectTimeout, jumps) : null;
      if (target == null) {
        failedHosts.add(spec.name());
        failures.add("host " + spec.name() + (missing == null ? "" : ": " + missing) + ": no identity given, none "
            + "of ~/.ssh/" + String.join(", ", DEFAULT_KEYS) + " exists and no ssh-agent (SSH_AUTH_SOCK is unset); set "
            + "identity: in the plan (or IdentityFile in ~/.ssh/config), or start ssh-agent and ssh-add a key");
        continue;
      }
      connections.put(spec.name(), new SshConnection(target));
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(16, connections.size())), r -> {
      Thread t = new Thread(r, "ssh-connect");
      t.setDaemon(true);
      return t;
    });
    Map<String, RemoteHost> connected = new LinkedHashMap<>();
    try {
      Map<String, Future<?>> attempts = new LinkedHashMap<>();
      connections.forEach((name, c) -> attempts.put(name, pool.submit(() -> {
        c.session();
        return null;
      })));
      for (Map.Entry<String, Future<?>> a : attempts.entrySet()) {
        SshConnection c = connections.get(a.getKey());
        try {
          a.getValue().get();
          connected.put(a.getKey(), new RemoteHost(a.getKey(), c));
        } catch (ExecutionException e) {
          c.close();
          failedHosts.add(a.getKey());
          failures.add(connectProblem(c.target(), e.getCause()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failedHosts.add(a.getKey());
          failures.add("host " + a.getKey() + ": interrupted while connecting");
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (!failures.isEmpty()) {
      connected.values().forEach(RemoteHost::close);
      connections.values().forEach(SshConnection::close);
      String message = failures.size() == 1 ? failures.get(0)
          : "cannot connect to " + failures.size() + " hosts:\n  " + String.join("\n  ", failures);
      throw new RemoteFailure(String.join(", ", failedHosts), message);
    }
    return new RemoteHosts(connected);
  }

  /**
   * The SSH target of a plan host or of one of its hops: its identity, else the first default key file, then the
   * agent's keys; null when there is neither a key file nor an agent.
   */
  private static SshTarget target(HostSpec spec, Duration connectTimeout, List<SshTarget> jumps) {
    Path identity = spec.identity() != null ? spec.identity() : defaultIdentity();
    return identity == null && spec.agent() == null ? null : new SshTarget(spec.name(), spec.address(), spec.port(),
        spec.user(), identity, spec.knownHosts(), spec.acceptNewHostKeys() ? SshTarget.HostKeyPolicy.ACCEPT_NEW
            : SshTarget.HostKeyPolicy.STRICT, connectTimeout, jumps, spec.agent());
  }

  /** A Java exception's class name before its message, which a user's one-line failure does without. */
  private static final java.util.regex.Pattern JAVA_EXCEPTION_PREFIX =
      java.util.regex.Pattern.compile("^(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ");

  /** One line: host, address, what happened and what to check. SshConnection's text already names the target. */
  static String connectProblem(SshTarget target, Throwable cause) {
    String text = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    // jsch wraps a socket's failure as its toString(): "java.net.NoRouteToHostException: No route to host"
    text = JAVA_EXCEPTION_PREFIX.matcher(text).replaceFirst("");
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.contains("auth fail")) {
      // jsch 2.x says "Auth fail for methods 'publickey'", which SshConnection does not translate
      text = target + ": " + SshConnection.keysRefused(target);
      lower = "refused for user";
    }
    String hint = "";
    if (lower.contains("timeout") || lower.contains("timed out")) {
      hint = "; no answer within " + target.connectTimeout().toMillis() + " ms: check the address, port "
          + target.port() + ", firewalls and that the host is up";
    } else if (lower.contains("connection refused")) {
      hint = "; nothing listens on port " + target.port() + ": is sshd running?";
    } else if (lower.contains("refused for user")) {
      hint = target.jumps().isEmpty() ? ": add the public key of " + (target.identity() == null ? "one of "
          + "the agent's keys (ssh-add -L)" : target.identity()) + " to ~" + target.user()
          + "/.ssh/authorized_keys on the host" : ": add that key's public half to the user's ~/.ssh/authorized_keys "
          + "on the host that refused it";
    } else if (lower.contains("no route") || lower.contains("unreachable")) {
      hint = "; the address is not reachable from here: check routing and the address";
    }
    if (!(cause instanceof JSchException) || !text.startsWith(target.toString())) {
      text = target + ": " + text;
    }
    return "host " + text + hint;
  }

  private static Path defaultIdentity() {
    Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
    return DEFAULT_KEYS.stream().map(ssh::resolve).filter(Files::isReadable).findFirst().orElse(null);
  }

  public RemoteHost host(String planHostName) {
    RemoteHost h = hosts.get(planHostName);
    if (h == null) {
      throw new IllegalArgumentException("no connected host '" + planHostName + "' (hosts: "
          + String.join(", ", hosts.keySet()) + ")");
    }
    return h;
  }

  public Collection<RemoteHost> all() {
    return List.copyOf(hosts.values());
  }

  /**
   * Stops every process started through any host and still alive, hosts in parallel; safe from a shutdown hook
   * (uses the open sessions only) and idempotent.
   */
  public void stopAll(Duration grace) {
    List<Thread> stoppers = new ArrayList<>();
    for (RemoteHost h : hosts.values()) {
      Thread t = new Thread(() -> {
        try {
          h.stopAll(grace);
        } catch (RuntimeException e) {
          LOG.warn("{}: stopping processes failed: {}", h.name(), e.toString());
        }
      }, "stop-" + h.name());
      t.setDaemon(true);
      t.start();
      stoppers.add(t);
    }
    for (Thread t : stoppers) {
      try {
        t.join(grace.toMillis() + 20_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Stops what still runs (2 s grace), then disconnects every host. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    stopAll(Duration.ofSeconds(2));
    hosts.values().forEach(RemoteHost::close);
  }
}
