package io.netpulse.launcher.run;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.Procedures;
import io.netpulse.launcher.procedure.ResultRule;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.HostFacts;
import io.netpulse.launcher.remote.HostPreparation;
import io.netpulse.launcher.remote.JarShipper;
import io.netpulse.launcher.remote.Preflight;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One execution of a plan on its hosts: connect, preflight (tools, SUT interface and queues),
 * optional host preparation, every test's repetitions, the processor's results, and cleanup of
 * everything started, whatever happens. A host that cannot be reached or lacks a tool fails the
 * tests that need it; the others still run.
 */
public final class PlanExecution {

  /**
   * @param installTools   install missing tools with the host's package manager
   * @param connectTimeout SSH connect timeout per host
   * @param resultTimeout  how long to wait for the processor's result of a test after its last repetition
   * @param remoteJar      jar to put on hosts that run netpulse's own tools (null: the running jar, if any)
   */
  public record Settings(boolean installTools, Duration connectTimeout, Duration resultTimeout, Path remoteJar) {}

  static final String INTERRUPTED = "interrupted (SIGINT/SIGTERM, e.g. Ctrl-C): every process the run started was stopped";
  private static final Duration INTERRUPT_PUBLISH = Duration.ofSeconds(3);

  private final Plan plan;
  private final Settings settings;
  private final String bootstrapServers;
  private final Topics topics;
  private final RunProgress progress;
  /** Counted down when the Ctrl-C hook has stopped everything and sent its event. */
  private final java.util.concurrent.CountDownLatch interruptHandled = new java.util.concurrent.CountDownLatch(1);
  /** While set, a JVM shutdown runs the Ctrl-C hook. */
  private volatile Thread interruptHook;

  public PlanExecution(Plan plan, Settings settings, String bootstrapServers, Topics topics,
      java.io.PrintStream progressOut, boolean interactive) {
    this.plan = plan;
    this.settings = settings;
    this.bootstrapServers = bootstrapServers;
    this.topics = topics;
    this.progress = new RunProgress(progressOut, interactive);
  }

  /** Runs the plan; never throws for what happens on the hosts (that is in the report). */
  public ExecutionReport execute() {
    long t0 = System.currentTimeMillis();
    String execution = RunIds.execution(plan.name(), Instant.ofEpochMilli(t0));
    progress.message("netpulse run: plan " + plan.name() + ", execution " + execution);
    List<TestReport> reports = new ArrayList<>();
    Map<String, HostFacts> facts = new LinkedHashMap<>();
    List<HostPreparation> preparations = new ArrayList<>();
    try (RunPublisher publisher = new RunPublisher(bootstrapServers, topics);
         TopicFollower<SteadyEvent> steady = new TopicFollower<>(bootstrapServers, topics.steady(), SteadyEvent.class);
         TopicFollower<ResultEvent> results = new TopicFollower<>(bootstrapServers, topics.results(), ResultEvent.class);
         TopicFollower<RateEvent> rates = new TopicFollower<>(bootstrapServers, topics.rates(), RateEvent.class);
         ConnectedHosts hosts = ConnectedHosts.connect(plan, settings.connectTimeout());
         RunProgress view = progress) {
      rates.onRecord(view::onRate);
      AtomicReference<Lifecycle> current = new AtomicReference<>();
      Thread cleanup = new Thread(() -> onInterrupt(hosts, current, preparations), "netpulse-run-cleanup");
      Runtime.getRuntime().addShutdownHook(cleanup);
      interruptHook = cleanup;
      try {
        hosts.failures().forEach((host, why) -> view.message(aboutHost(host, why)));
        Map<String, String> hostProblems = new LinkedHashMap<>(hosts.failures());
        Map<String, Map<String, String>> missing = new LinkedHashMap<>();
        preflight(hosts, facts, hostProblems, missing);
        prepare(hosts, preparations, hostProblems);
        ExecutionContext ctx = new ExecutionContext(plan, execution, hosts, publisher, steady, view, current);
        for (TestSpec test : plan.tests()) {
          if (hosts.stopping()) {
            break; // Ctrl-C: the hook has stopped everything and is ending the JVM
          }
          reports.add(runTest(ctx, test, facts, hostProblems, missing, results));
        }
      } finally {
        hosts.stopAll(Duration.ofSeconds(3));
        preparations.forEach(HostPreparation::close);
        try {
          Runtime.getRuntime().removeShutdownHook(cleanup);
          interruptHook = null;
        } catch (IllegalStateException shuttingDown) {
          // the hook is running already (Ctrl-C): it does the same
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new ExecutionReport(plan.name(), execution, System.currentTimeMillis() - t0, facts, reports);
  }

  /**
   * The shutdown hook (Ctrl-C, SIGTERM): the repetition under way is marked FAILED on {@code runs} while every
   * remote process is stopped. The event is sent at the same time as the stop, before the repetition's own
   * thread sees its clients die and closes the producer; the broker gets {@link #INTERRUPT_PUBLISH} at most
   * (an embedded one is being closed by another hook at the same time, so this is best effort).
   */
  private void onInterrupt(ConnectedHosts hosts, AtomicReference<Lifecycle> current,
      List<HostPreparation> preparations) {
    try {
      stopAndReport(hosts, current, preparations);
    } finally {
      interruptHandled.countDown();
    }
  }

  /**
   * For another shutdown hook that must not take the pipeline away before this execution's Ctrl-C hook has
   * stopped the hosts and published its event (hooks run in no set order): waits for it, at most {@code max}.
   */
  public void awaitInterruptHandled(Duration max) {
    if (interruptHook == null) {
      return; // not running, or ended normally: no hook will run
    }
    try {
      interruptHandled.await(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopAndReport(ConnectedHosts hosts, AtomicReference<Lifecycle> current,
      List<HostPreparation> preparations) {
    Lifecycle running = current.get();
    CompletableFuture<Void> failed = running != null && running.claimEnd()
        ? CompletableFuture.runAsync(() -> running.failClaimed(INTERRUPTED, INTERRUPT_PUBLISH), daemon())
        : CompletableFuture.completedFuture(null);
    hosts.shutDown(Duration.ofSeconds(2));
    preparations.forEach(HostPreparation::close);
    try {
      failed.get(INTERRUPT_PUBLISH.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      progress.message("could not mark " + running.run() + " FAILED on " + topics.runs() + ": "
          + (e.getCause() == null ? e : e.getCause()).getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.util.concurrent.Executor daemon() {
    return task -> {
      Thread t = new Thread(task, "netpulse-run-interrupted");
      t.setDaemon(true);
      t.start();
    };
  }

  private TestReport runTest(ExecutionContext ctx, TestSpec test, Map<String, HostFacts> facts,
      Map<String, String> hostProblems, Map<String, Map<String, String>> missing, TopicFollower<ResultEvent> results)
      throws InterruptedException {
    Optional<String> problem = hostsOf(test).stream().filter(hostProblems::containsKey).findFirst()
        .map(h -> aboutHost(h, hostProblems.get(h)))
        .or(() -> missingTools(test, missing));
    if (problem.isPresent()) {
      progress.message(test.label() + ": not run: " + problem.get());
      Lifecycle.failAll(ctx, test, problem.get());
      return TestReport.notRun(test, problem.get());
    }
    HostFacts sut = facts.get(test.sut());
    TestProcedure procedure;
    try {
      procedure = Procedures.build(plan, test, new SutFacts(sut.iface(), sut.queues()));
    } catch (IllegalArgumentException e) {
      Lifecycle.failAll(ctx, test, e.getMessage());
      return TestReport.notRun(test, e.getMessage());
    }
    RepetitionRunner runner = new RepetitionRunner(ctx, procedure);
    ResultRule shown = procedure.results().get(0);
    List<RepetitionOutcome> outcomes = new ArrayList<>();
    for (int rep = 1; rep <= test.repetitions(); rep++) {
      progress.watch(new RunProgress.Watch(shown.host() == null ? test.sut() : shown.host(), shown.iface(),
          shown.sampleMetric()));
      outcomes.add(runner.run(rep));
    }
    return collectResults(test, procedure, outcomes, results);
  }

  /** Waits for the processor's result of each metric to include every repetition that ran to the end. */
  private TestReport collectResults(TestSpec test, TestProcedure procedure, List<RepetitionOutcome> outcomes,
      TopicFollower<ResultEvent> results) throws InterruptedException {
    Set<String> okRuns = new LinkedHashSet<>();
    outcomes.stream().filter(RepetitionOutcome::ok).forEach(o -> okRuns.add(o.run()));
    List<ResultEvent> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    if (!okRuns.isEmpty()) {
      for (ResultRule rule : procedure.results()) {
        Optional<ResultEvent> r = results.await(e -> plan.name().equals(e.plan()) && test.name().equals(e.test())
            && rule.metric().equals(e.metric()) && e.runs().containsAll(okRuns), settings.resultTimeout());
        if (r.isPresent()) {
          found.add(r.get());
        } else {
          missing.add(rule.metric());
        }
      }
    }
    return new TestReport(test, outcomes, found, null, missing);
  }

  /**
   * The first problem with a program this test starts (not installed, or netpulse's jar could not be put on
   * the host), as a message naming the host and what to do.
   */
  private Optional<String> missingTools(TestSpec test, Map<String, Map<String, String>> missing) {
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

  private void preflight(ConnectedHosts hosts, Map<String, HostFacts> facts, Map<String, String> problems,
      Map<String, Map<String, String>> missing) {
    Map<String, Set<String>> tools = new LinkedHashMap<>();
    Map<String, String> peerOf = new LinkedHashMap<>();
    for (TestSpec t : plan.tests()) {
      TestProcedure provisional = Procedures.build(plan, t, new SutFacts("eth0", 1));
      for (HostCommand c : provisional.commands()) {
        tools.computeIfAbsent(c.host(), h -> new LinkedHashSet<>()).addAll(programs(c));
      }
      String other = hostsOf(t).stream().filter(h -> !h.equals(t.sut())).findFirst().orElse(null);
      if (other != null) {
        peerOf.putIfAbsent(t.sut(), plan.host(other).address());
        for (String h : hostsOf(t)) {
          peerOf.putIfAbsent(h, plan.host(t.sut()).address());
        }
      }
    }
    for (RemoteHost h : hosts.all()) {
      String peer = peerOf.getOrDefault(h.name(), h.address());
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
            JarShipper.ship(h, remoteJar());
          } catch (RemoteFailure e) {
            lacking.put(java, e.getMessage());
          }
        }
        missing.put(h.name(), lacking);
        progress.message("host " + h.name() + ": " + describe(f));
      } catch (RemoteFailure e) {
        problems.put(h.name(), e.getMessage());
        progress.message(aboutHost(h.name(), e.getMessage()));
      }
    }
  }

  private void prepare(ConnectedHosts hosts, List<HostPreparation> preparations, Map<String, String> problems) {
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

  private Path remoteJar() throws RemoteFailure {
    if (settings.remoteJar() != null) {
      return settings.remoteJar();
    }
    try {
      Path self = Path.of(PlanExecution.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (self.toString().endsWith(".jar")) {
        return self;
      }
    } catch (java.net.URISyntaxException | RuntimeException e) {
      // fall through to the message below
    }
    throw new RemoteFailure("localhost", "netpulse is not running from its jar, so there is no jar to put on the "
        + "hosts for its connection tool; build it (mvn -DskipTests package) and use bin/netpulse");
  }

  /** "host NAME: message", unless the message names the host first already. */
  static String aboutHost(String host, String message) {
    return message.startsWith("host " + host) ? message : "host " + host + ": " + message;
  }

  private static Set<String> programs(HostCommand c) {
    Set<String> p = new LinkedHashSet<>();
    List<String> argv = c.command().argv();
    p.add(argv.get(0));
    if (argv.get(0).equals("prlimit") && argv.size() > 2) {
      p.add(argv.get(2)); // prlimit --nofile=N:N PROGRAM ...
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
        .append(" queue(s), nofile ").append(f.nofile());
    if (!f.toolVersions().isEmpty()) {
      b.append(", ").append(ResultTable.versions(f));
    }
    return b.toString();
  }
}
