package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Remote processes over real OpenSSH servers in the TestHosts namespaces: PIDs, output, stopping, lost sessions. */
@Tag("root")
class RemoteHostsTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Duration CONNECT = Duration.ofSeconds(5);
  private static final Pattern PID = Pattern.compile("pid=(\\d+)");

  private RemoteHosts hosts;

  static HostSpec spec(TestHosts testHosts, NetHost host) {
    return new HostSpec(host.name(), host.address(), testHosts.user(), TestHosts.SSH_PORT, testHosts.identity(),
        testHosts.knownHosts(), false, null);
  }

  @BeforeEach
  void connect() throws RemoteFailure {
    hosts = RemoteHosts.connect(List.of(spec(HOSTS, HOSTS.peer()), spec(HOSTS, HOSTS.sut())), CONNECT);
  }

  @AfterEach
  void close() {
    hosts.close();
  }

  /** "PID ARGS" lines of the processes in group {@code pgid}, as ps in the host sees them. */
  static String group(NetHost host, long pgid) {
    return group(HOSTS, host, pgid);
  }

  static String group(TestHosts testHosts, NetHost host, long pgid) {
    return testHosts.exec(host, "sh", "-c", "ps -o pid=,args= -g " + pgid + " || true").strip();
  }

  @Test
  void pidIsTheRemoteProcessAndStopLeavesNothingOfItsGroup() throws Exception {
    RemoteProcess sleep = hosts.host("sut").start("sleeper", RemoteCommand.of("sleep", "1000"), null);
    assertThat(sleep.pid()).isPositive();
    assertThat(HOSTS.exec(HOSTS.sut(), "ps", "-o", "args=", "-p", String.valueOf(sleep.pid())).strip())
        .isEqualTo("sleep 1000");
    assertThat(sleep.isAlive()).isTrue();
    assertThat(sleep.endedMillis()).isZero();
    assertThat(sleep.startedMillis()).isPositive();

    sleep.stop(Duration.ofSeconds(2));
    assertThat(sleep.isAlive()).isFalse();
    assertThat(sleep.endedMillis()).isGreaterThanOrEqualTo(sleep.startedMillis());
    await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), sleep.pid()).isEmpty());
    sleep.stop(Duration.ofSeconds(2)); // idempotent
  }

  @Test
  void shellLoopStreamsLinesAndTermReachesItsChildren() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    RemoteProcess loop = hosts.host("sut").start("loop",
        RemoteCommand.of("sh", "-c", "i=0; while true; do echo \"line $i\"; i=$((i+1)); sleep 0.2; done"), seen::add);
    await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() >= 3);
    assertThat(seen.subList(0, 3)).containsExactly("line 0", "line 1", "line 2");
    assertThat(group(HOSTS.sut(), loop.pid())).as("the loop's shell and its sleep share the group")
        .contains("sleep 0.2");

    loop.stop(Duration.ofSeconds(2));
    await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), loop.pid()).isEmpty());
    assertThat(loop.stdout()).startsWith("line 0\nline 1\nline 2\n").doesNotContain(RemoteProcess.PID_MARKER);
  }

  @Test
  void exitStatusStdoutAndStderrAreKept() throws Exception {
    RemoteProcess p = hosts.host("peer").start("short",
        RemoteCommand.of("sh", "-c", "echo out; echo 'it went wrong' >&2; sleep 0.5; exit 3"), null);
    OptionalInt exit = p.awaitExit(Duration.ofSeconds(10));
    assertThat(exit).hasValue(3);
    assertThat(p.stdout()).isEqualTo("out\n");
    assertThat(p.stderr()).isEqualTo("it went wrong\n");
    assertThat(p.endedMillis() - p.startedMillis()).isGreaterThanOrEqualTo(400);
  }

  @Test
  void signalIntEndsAProcessThatTrapsIt() throws Exception {
    RemoteProcess p = hosts.host("sut").start("trapper",
        RemoteCommand.of("sh", "-c", "trap 'echo got INT; exit 42' INT; echo trapping; while true; do sleep 0.1; done"), null);
    // signalled once the trap is set: before it, INT would end the shell (or, before the instance's signal reset, be
    // ignored) rather than show that it reaches the command
    await().atMost(Duration.ofSeconds(10)).until(() -> p.stdout().contains("trapping"));
    p.signal("INT");
    assertThat(p.awaitExit(Duration.ofSeconds(10))).hasValue(42);
    assertThat(p.stdout()).contains("got INT");
  }

  @Test
  void execRunsShortCommandsQuoted() throws Exception {
    CommandResult r = hosts.host("sut").exec(RemoteCommand.of("printf", "%s|", "a b", "it's", "$HOME"),
        Duration.ofSeconds(10));
    assertThat(r).isEqualTo(new CommandResult(0, "a b|it's|$HOME|", ""));
    CommandResult fail = hosts.host("sut").exec(RemoteCommand.of("ls", "/no/such/dir"), Duration.ofSeconds(10));
    assertThat(fail.exit()).isEqualTo(2);
    assertThat(fail.stderr()).contains("/no/such/dir");
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> hosts.host("sut").exec(RemoteCommand.of("sleep", "5"), Duration.ofMillis(500)))
        .isInstanceOf(RemoteFailure.class).hasMessageContaining("host sut").hasMessageContaining("within 500 ms");
  }

  @Test
  void stopAllFromAnotherThreadStopsEveryHostsProcessesAndCloseLeavesNothing() throws Exception {
    List<RemoteProcess> started = new java.util.ArrayList<>();
    for (String h : List.of("peer", "sut")) {
      for (int i = 0; i < 3; i++) {
        started.add(hosts.host(h).start("sleep-" + i, RemoteCommand.of("sleep", "1000"), null));
      }
    }
    // one that ignores TERM, so the KILL after the grace is needed
    RemoteProcess stubborn = hosts.host("sut").start("stubborn",
        RemoteCommand.of("sh", "-c", "trap '' TERM; while true; do sleep 0.1; done"), null);
    started.add(stubborn);
    Thread stopper = new Thread(() -> hosts.stopAll(Duration.ofMillis(800)));
    stopper.start();
    stopper.join(30_000);
    assertThat(started).noneMatch(RemoteProcess::isAlive);
    assertThat(stubborn.awaitExit(Duration.ZERO)).hasValue(-1); // killed: OpenSSH reports a signal, not a status
    for (RemoteProcess p : started) {
      NetHost host = p.host().equals("sut") ? HOSTS.sut() : HOSTS.peer();
      await().atMost(Duration.ofSeconds(5)).until(() -> group(host, p.pid()).isEmpty());
    }
    hosts.stopAll(Duration.ofMillis(100)); // idempotent

    RemoteProcess late = hosts.host("peer").start("late", RemoteCommand.of("sleep", "1000"), null);
    hosts.close();
    assertThat(late.isAlive()).isFalse();
    await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.peer(), late.pid()).isEmpty());
  }

  @Test
  void aLostSessionDoesNotLeaveTheProcessRunning() throws Exception {
    RemoteProcess sleep = hosts.host("sut").start("orphan-to-be", RemoteCommand.of("sleep", "1000"), null);
    assertThat(group(HOSTS.sut(), sleep.pid())).contains("sleep 1000");
    // cut the connection on the server side: the sshd processes serving it die, as when a network drops
    long sshd = listeningSshd(HOSTS.sut());
    ProcessHandle.of(sshd).orElseThrow().children().forEach(ProcessHandle::destroyForcibly);
    await().atMost(Duration.ofSeconds(10)).until(() -> group(HOSTS.sut(), sleep.pid()).isEmpty());
    await().atMost(Duration.ofSeconds(30)).until(() -> !sleep.isAlive());
  }

  @Test
  void ctrlCInTheLauncherStopsTheRemoteProcessFromTheShutdownHook() throws Exception {
    Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
    Process launcher = new ProcessBuilder(javaBin.toString(), "-cp", System.getProperty("java.class.path"),
        CtrlCProbe.class.getName(), HOSTS.sut().address(), HOSTS.identity().toString(), HOSTS.knownHosts().toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertThat(first).as("probe's first line").startsWith("pid=");
      long pid = Long.parseLong(first.substring(4));
      assertThat(group(HOSTS.sut(), pid)).contains("sleep 1000");
      // SIGINT, as Ctrl-C in a terminal delivers it
      assertThat(new ProcessBuilder("kill", "-INT", String.valueOf(launcher.pid())).start().waitFor()).isZero();
      assertThat(out.readLine()).isEqualTo("hook: alive=false exit=OptionalInt[-1]");
      assertThat(launcher.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), pid).isEmpty());
    } finally {
      launcher.destroyForcibly();
    }
  }

  private static long listeningSshd(NetHost host) {
    return listeningSshd(HOSTS, host);
  }

  /** PID of the sshd listening in {@code host}. */
  static long listeningSshd(TestHosts testHosts, NetHost host) {
    String ss = testHosts.exec(host, "ss", "-Htlnp", "sport = :" + TestHosts.SSH_PORT);
    Matcher m = PID.matcher(ss);
    assertThat(m.find()).as("sshd listening in " + host.name() + ": " + ss).isTrue();
    return Long.parseLong(m.group(1));
  }
}
