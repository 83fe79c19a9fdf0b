package io.netpulse.launcher.run;

import io.netpulse.common.Topics;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.Procedures;
import io.netpulse.launcher.procedure.ResultRule;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.HostFacts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
   * @param remoteJar      the connection holder's jar to put on hosts that run it (null: found by HolderJar)
   */
  public record Settings(boolean installTools, Duration connectTimeout, Duration resultTimeout, Path remoteJar) {}

  private static final Duration INTERRUPT_PUBLISH = Duration.ofSeconds(3);
  /**
   * Interrupted, how long the interrupted test's final result (and its CPU figures) may take to come from the
   * processor: the pipeline is closing, so less than --result-timeout.
   */
  private static final Duration INTERRUPTED_RESULT_WAIT = Duration.ofSeconds(15);
  /**
   * How long, after the Ctrl-C hook stopped the hosts, the execution may take to end (the repetition under way sees its
   * tools die), collect the interrupted test's final result and print its report; a pipeline in this JVM is
   * kept up for it as long.
   */
  public static final Duration INTERRUPTED_REPORT_WAIT = INTERRUPTED_RESULT_WAIT.multipliedBy(2).plusSeconds(15);
  /** A result is taken once no newer version of it has come for this long. */
  private static final Duration RESULT_QUIET = Duration.ofSeconds(2);

  private final Plan plan;
  private final Settings settings;
  private final KafkaConnection kafka;
  private final Topics topics;
  private final RunProgress progress;
  /** Counted down when the Ctrl-C hook has stopped everything and sent its event. */
  private final java.util.concurrent.CountDownLatch interruptHandled = new java.util.concurrent.CountDownLatch(1);
  /** While set, a JVM shutdown runs the Ctrl-C hook. */
  private volatile Thread interruptHook;

  public PlanExecution(Plan plan, Settings settings, KafkaConnection kafka, Topics topics,
      java.io.PrintStream progressOut, boolean interactive) {
    this.plan = plan;
    this.settings = settings;
    this.kafka = kafka;
    this.topics = topics;
    this.progress = new RunProgress(progressOut, interactive);
  }

  /** Runs the plan; never throws for what happens on the hosts (that is in the report). */
  public ExecutionReport execute() {
    long t0 = System.currentTimeMillis();
    String execution = RunIds.execution(plan.name(), Instant.ofEpochMilli(t0));
    progress.message("netpulse run: plan " + plan.name() + ", execution " + execution
        + (plan.labels().isEmpty() ? "" : ", labels " + ResultTable.labels(plan.labels())));
    List<TestReport> reports = new ArrayList<>();
    HostChecks checks = new HostChecks(plan, settings, progress);
    boolean interrupted = false;
    try (RunPublisher publisher = new RunPublisher(kafka, topics);
         TopicFollower<SteadyEvent> steady = new TopicFollower<>(kafka, topics.steady(), SteadyEvent.class);
         TopicFollower<ResultEvent> results = new TopicFollower<>(kafka, topics.results(), ResultEvent.class);
         TopicFollower<WideSample> metrics = new TopicFollower<>(kafka, topics.metrics(), WideSample.class);
         TopicFollower<CpuUse> cpu = new TopicFollower<>(kafka, topics.cpu(), CpuUse.class);
         ConnectedHosts hosts = ConnectedHosts.connect(plan, settings.connectTimeout());
         RunProgress view = progress) {
      metrics.onRecord(view::onMetric);
      AtomicReference<Lifecycle> current = new AtomicReference<>();
      Thread cleanup = new Thread(() -> onInterrupt(hosts, current, checks), "netpulse-run-cleanup");
      Runtime.getRuntime().addShutdownHook(cleanup);
      interruptHook = cleanup;
      try {
        checks.run(hosts);
        Colocation colocation = Colocation.of(checks.facts());
        if (colocation.warning() != null) {
          progress.message(colocation.warning());
        }
        ExecutionContext ctx = new ExecutionContext(plan, execution, hosts, publisher, steady, view, current,
            colocation, java.util.Map.copyOf(checks.facts()));
        // a test's results are awaited while the next test runs: the processor's last value of a test and the quiet
        // time after it (RESULT_QUIET) need no hosts, and waited for in turn they added seconds to every test
        List<CompletableFuture<TestReport>> pending = new ArrayList<>();
        for (TestSpec test : plan.tests()) {
          if (hosts.stopping()) {
            break; // Ctrl-C: the hook has stopped everything and is ending the JVM
          }
          pending.add(runTest(ctx, test, checks, results, cpu));
        }
        for (CompletableFuture<TestReport> report : pending) {
          reports.add(awaitReport(report));
        }
      } finally {
        interrupted = hosts.stopping();
        hosts.stopAll(Duration.ofSeconds(3));
        checks.restore();
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
    return new ExecutionReport(plan.name(), execution, System.currentTimeMillis() - t0, checks.facts(), reports,
        plan.labels(), interrupted);
  }

  /**
   * The shutdown hook (Ctrl-C, SIGTERM): the repetition under way is marked FAILED on {@code runs}, with stopReason
   * "interrupted", while every remote process is stopped; the broker gets {@link #INTERRUPT_PUBLISH} at most. The
   * event is sent at the same time as the stop, before the repetition's own thread sees its clients die. That thread
   * then ends the test (between two repetitions it marks the next one instead), waits for the processor's final
   * result, which the event makes, and the report is printed; the pipeline's hook waits for that
   * ({@link #INTERRUPTED_REPORT_WAIT}).
   */
  private void onInterrupt(ConnectedHosts hosts, AtomicReference<Lifecycle> current, HostChecks checks) {
    try {
      stopAndReport(hosts, current, checks);
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

  private void stopAndReport(ConnectedHosts hosts, AtomicReference<Lifecycle> current, HostChecks checks) {
    Lifecycle running = current.get();
    CompletableFuture<Void> failed = running != null && running.claimEnd()
        ? CompletableFuture.runAsync(() -> running.interruptClaimed(INTERRUPT_PUBLISH), daemon())
        : CompletableFuture.completedFuture(null);
    hosts.shutDown(Duration.ofSeconds(2));
    checks.restore();
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

  private static TestReport awaitReport(CompletableFuture<TestReport> report) throws InterruptedException {
    try {
      return report.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof InterruptedException ie) {
        throw ie;
      }
      throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }
  }

  /** Runs the test's repetitions here; its report is made (its results awaited) on another thread. */
  private CompletableFuture<TestReport> runTest(ExecutionContext ctx, TestSpec test, HostChecks checks,
      TopicFollower<ResultEvent> results, TopicFollower<CpuUse> cpu) {
    Optional<String> problem = checks.problemFor(test);
    if (problem.isPresent()) {
      progress.message(test.label() + ": not run: " + problem.get());
      Lifecycle.failAll(ctx, test, problem.get());
      return CompletableFuture.completedFuture(TestReport.notRun(test, problem.get()));
    }
    HostFacts sut = checks.facts().get(test.sut());
    TestProcedure procedure;
    try {
      procedure = Procedures.build(plan, test, new SutFacts(sut.iface(), sut.queues()));
    } catch (IllegalArgumentException e) {
      Lifecycle.failAll(ctx, test, e.getMessage());
      return CompletableFuture.completedFuture(TestReport.notRun(test, e.getMessage()));
    }
    RepetitionRunner runner = new RepetitionRunner(ctx, procedure);
    ResultRule shown = procedure.results().get(0);
    List<RepetitionOutcome> outcomes = new ArrayList<>();
    boolean interruptSaid = false;
    for (int rep = 1; rep <= test.repetitions(); rep++) {
      if (ctx.hosts().stopping()) {
        if (!interruptSaid && !outcomes.isEmpty()) {
          // Ctrl-C between two repetitions: the next one is marked instead, so that the test's result is final
          Lifecycle.interruptBefore(ctx, procedure, rep);
        }
        break;
      }
      progress.watch(new RunProgress.Watch(Sources.measurementOf(shown.source()),
          shown.host() == null ? test.sut() : shown.host(), shown.iface(), shown.sampleMetric()));
      outcomes.add(runner.run(rep));
      interruptSaid = runner.lastInterrupted();
    }
    boolean interrupted = ctx.hosts().stopping();
    if (interrupted && outcomes.stream().anyMatch(RepetitionOutcome::ok)) {
      progress.message(test.label() + ": interrupted after " + outcomes.stream().filter(RepetitionOutcome::ok).count()
          + " of " + test.repetitions() + " repetition(s); waiting up to " + INTERRUPTED_RESULT_WAIT.toSeconds()
          + " s for its final result");
    }
    List<String> cpuHosts = procedure.cpuSamplers().stream().map(io.netpulse.launcher.procedure.HostCommand::host)
        .toList();
    CompletableFuture<TestReport> report = new CompletableFuture<>();
    Thread collector = new Thread(() -> {
      try {
        TestReport r = collectResults(ctx.execution(), test, procedure, outcomes, results, interrupted);
        report.complete(new TestReport(test, r.repetitions(), r.results(), r.failure(), r.missing(),
            RepetitionCpu.collect(cpu, outcomes, cpuHosts, resultWait(interrupted)), ctx.colocation().of(test)));
      } catch (InterruptedException | RuntimeException e) {
        report.completeExceptionally(e);
      }
    }, "netpulse-results-" + test.name());
    collector.setDaemon(true);
    collector.start();
    return report;
  }

  private Duration resultWait(boolean interrupted) {
    return interrupted && INTERRUPTED_RESULT_WAIT.compareTo(settings.resultTimeout()) < 0 ? INTERRUPTED_RESULT_WAIT
        : settings.resultTimeout();
  }

  /**
   * Waits for the processor's result of each metric to include every repetition that ran to the end; interrupted,
   * for the final one (the processor makes it final on the interrupted repetition's FAILED event).
   */
  private TestReport collectResults(String execution, TestSpec test, TestProcedure procedure, List<RepetitionOutcome> outcomes,
      TopicFollower<ResultEvent> results, boolean interrupted) throws InterruptedException {
    Set<String> okRuns = new LinkedHashSet<>();
    outcomes.stream().filter(RepetitionOutcome::ok).forEach(o -> okRuns.add(o.run()));
    List<ResultEvent> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    if (!okRuns.isEmpty()) {
      long deadline = System.nanoTime() + resultWait(interrupted).toNanos();
      java.util.Map<String, java.util.function.Predicate<ResultEvent>> arrived = new java.util.LinkedHashMap<>();
      for (ResultRule rule : procedure.results()) {
        // results holds every execution's: this one's only
        java.util.function.Predicate<ResultEvent> complete = e -> plan.name().equals(e.plan())
            && execution.equals(e.execution()) && test.name().equals(e.test()) && rule.metric().equals(e.metric())
            && e.runs().containsAll(okRuns) && (!interrupted || e.finalResult());
        // one deadline for all: the processor computes a test's metrics together
        if (results.await(complete, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))).isPresent()) {
          arrived.put(rule.metric(), complete);
        } else {
          missing.add(rule.metric());
        }
      }
      // a figure or sample that reached the processor late corrects a value: take the last ones once quiet
      if (!arrived.isEmpty()) {
        results.awaitQuietAll(arrived, RESULT_QUIET).values().forEach(r -> r.ifPresent(found::add));
      }
    }
    return new TestReport(test, outcomes, found, null, missing);
  }

}
