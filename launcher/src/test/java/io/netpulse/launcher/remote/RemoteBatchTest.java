package io.netpulse.launcher.remote;

import static io.netpulse.launcher.remote.RemoteHostsTest.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many processes started by one remote command per host (RemoteBatch) over real OpenSSH servers in the TestHosts
 * namespaces: each keeps its own PID and process group, output, exit and stop, as a process started alone does; a
 * held batch starts nothing before its release; a lost channel leaves nothing running.
 */
@Tag("root")
class RemoteBatchTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Duration CONNECT = Duration.ofSeconds(5);

  @TempDir Path dir;
  private RemoteHosts hosts;

  @BeforeEach
  void connect() throws RemoteFailure {
    dirsBefore = batchDirs();
    hosts = RemoteHosts.connect(List.of(spec(HOSTS, HOSTS.peer()), spec(HOSTS, HOSTS.sut())), CONNECT);
  }

  @AfterEach
  void close() {
    hosts.close();
  }

  private static String group(NetHost host, long pgid) {
    return RemoteHostsTest.group(HOSTS, host, pgid);
  }

  private static Launch launch(String label, RemoteCommand command) {
    return new Launch(label, command, null);
  }

  @Test
  void eachInstanceHasItsOwnGroupOutputStderrAndExit() throws Exception {
    Map<String, List<String>> streamed = new ConcurrentHashMap<>();
    List<Launch> launches = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String label = "loop#" + i;
      streamed.put(label, new CopyOnWriteArrayList<>());
      launches.add(new Launch(label, RemoteCommand.of("sh", "-c",
          "n=0; while true; do echo \"" + label + " line $n\"; n=$((n+1)); sleep 0.2; done"), streamed.get(label)::add));
    }
    // it fails after the startup check (at most 3 s on a loaded host), so the batch starts
    launches.add(launch("short", RemoteCommand.of("sh", "-c", "echo out; echo 'it went wrong' >&2; sleep 4; exit 3")));
    RemoteBatch batch = hosts.host("sut").startBatch(launches, false);
    List<RemoteProcess> ps = batch.processes();
    assertThat(ps).extracting(RemoteProcess::label).containsExactly("loop#0", "loop#1", "loop#2", "short");
    assertThat(ps).allSatisfy(p -> assertThat(p.pid()).isPositive());
    assertThat(ps.stream().map(RemoteProcess::pid).distinct()).hasSize(4);

    await().atMost(Duration.ofSeconds(10)).until(() -> streamed.values().stream().allMatch(l -> l.size() >= 3));
    for (int i = 0; i < 3; i++) {
      assertThat(streamed.get("loop#" + i).subList(0, 3))
          .containsExactly("loop#" + i + " line 0", "loop#" + i + " line 1", "loop#" + i + " line 2");
      assertThat(group(HOSTS.sut(), ps.get(i).pid())).as("the loop's shell and its sleep share its own group")
          .contains("sleep 0.2").doesNotContain("loop#" + ((i + 1) % 3));
    }
    RemoteProcess shortOne = ps.get(3);
    assertThat(shortOne.awaitExit(Duration.ofSeconds(10))).hasValue(3);
    assertThat(shortOne.stdout()).isEqualTo("out\n");
    assertThat(shortOne.stderr()).isEqualTo("it went wrong\n");
    assertThat(shortOne.endedMillis() - shortOne.startedMillis()).isGreaterThanOrEqualTo(3_000);

    // one instance stopped alone: the others run on
    ps.get(1).stop(Duration.ofSeconds(2));
    assertThat(ps.get(1).isAlive()).isFalse();
    await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), ps.get(1).pid()).isEmpty());
    assertThat(ps.get(0).isAlive()).isTrue();
    int before = streamed.get("loop#0").size();
    await().atMost(Duration.ofSeconds(10)).until(() -> streamed.get("loop#0").size() > before + 2);
    assertThat(ps.get(0).stdout()).doesNotContain("loop#1").doesNotContain("netpulse");

    hosts.host("sut").stopAll(Duration.ofSeconds(2));
    assertThat(ps).noneMatch(RemoteProcess::isAlive);
    assertThat(ps.get(0).awaitExit(Duration.ZERO)).hasValue(-1); // stopped by a signal, as OpenSSH reports it
    for (RemoteProcess p : ps) {
      await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), p.pid()).isEmpty());
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertNoBatchLeft(HOSTS.sut()));
  }

  @Test
  void planValuesReachTheCommandAsSingleWords() throws Exception {
    List<String> odd = List.of("a b", "it's", "$HOME", "`id`", "x;y", "two\nlines", "\\", "netpulse-batch=1", "-");
    RemoteBatch batch = hosts.host("peer").startBatch(List.of(
        launch("printf#0", new RemoteCommand(Map.of("NETPULSE_V", "it's $x"), concat(List.of("printf", "[%s]"), odd))),
        launch("env#1", new RemoteCommand(Map.of("NETPULSE_V", "it's $x"), List.of("sh", "-c", "echo \"$NETPULSE_V\"")))),
        false);
    RemoteProcess printf = batch.processes().get(0);
    assertThat(printf.awaitExit(Duration.ofSeconds(10))).hasValue(0);
    StringBuilder expected = new StringBuilder();
    odd.forEach(v -> expected.append('[').append(v).append(']'));
    assertThat(printf.stdout()).isEqualTo(expected + "\n");
    RemoteProcess env = batch.processes().get(1);
    assertThat(env.awaitExit(Duration.ofSeconds(10))).hasValue(0);
    assertThat(env.stdout()).isEqualTo("it's $x\n");
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @Test
  void aHeldBatchStartsNothingBeforeItsReleaseAndEverythingAfter() throws Exception {
    Path marks = Files.createDirectories(dir.resolve("marks"));
    int n = 40;
    List<Launch> launches = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      launches.add(launch("mark#" + i, RemoteCommand.of("sh", "-c", "touch \"$0\"; exec sleep 1000",
          marks.resolve("m" + i).toString())));
    }
    RemoteHost peer = hosts.host("peer");
    RemoteBatch batch = peer.startBatch(launches, true);
    assertThat(batch.processes()).allSatisfy(p -> assertThat(p.pid()).isPositive());
    assertThat(peer.connections()).as("one channel carries all 40").isEqualTo(1);
    Thread.sleep(1_000); // nothing may start, however long the wait
    try (var files = Files.list(marks)) {
      assertThat(files).as("commands run before the release").isEmpty();
    }
    assertThat(batch.startSpanMillis()).isEmpty();

    batch.release();
    batch.checkStarted();
    await().atMost(Duration.ofSeconds(20)).until(() -> {
      try (var files = Files.list(marks)) {
        return files.count() == n;
      }
    });
    assertThat(batch.awaitStartSpan(Duration.ofSeconds(10))).isPresent();
    System.out.println("REMOTE-BATCH 40 instances released, started within " + batch.startSpanMillis().getAsLong()
        + " ms (host uptime stamps)");
    assertThat(batch.processes()).allMatch(RemoteProcess::isAlive);
    assertThat(group(HOSTS.peer(), batch.processes().get(7).pid())).contains("sleep 1000");
  }

  @Test
  void aLostChannelLeavesNothingRunningHeldOrReleased() throws Exception {
    List<Launch> launches = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      launches.add(launch("sleep#" + i, RemoteCommand.of("sleep", "1000")));
    }
    RemoteHost sut = hosts.host("sut");
    RemoteBatch running = sut.startBatch(launches, true);
    running.release();
    running.checkStarted();
    RemoteBatch held = sut.startBatch(launches, true); // never released
    List<RemoteProcess> all = new ArrayList<>(running.processes());
    all.addAll(held.processes());
    for (RemoteProcess p : all) {
      assertThat(group(HOSTS.sut(), p.pid())).as(p.toString()).isNotEmpty();
    }
    // cut the connections on the server side: the sshd processes serving them die, as when a network drops
    long sshd = RemoteHostsTest.listeningSshd(HOSTS, HOSTS.sut());
    ProcessHandle.of(sshd).orElseThrow().children().forEach(ProcessHandle::destroyForcibly);
    for (RemoteProcess p : all) {
      await().atMost(Duration.ofSeconds(10)).until(() -> group(HOSTS.sut(), p.pid()).isEmpty());
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().noneMatch(RemoteProcess::isAlive));
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertNoBatchLeft(HOSTS.sut()));
  }

  @Test
  void aHeldBatchNeverReleasedIsStoppedLikeAnyProcess() throws Exception {
    RemoteHost peer = hosts.host("peer");
    RemoteBatch held = peer.startBatch(List.of(launch("a#0", RemoteCommand.of("sleep", "1000")),
        launch("a#1", RemoteCommand.of("sleep", "1000"))), true);
    peer.stop(held.processes(), Duration.ofSeconds(2));
    assertThat(held.processes()).noneMatch(RemoteProcess::isAlive);
    for (RemoteProcess p : held.processes()) {
      await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.peer(), p.pid()).isEmpty());
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertNoBatchLeft(HOSTS.peer()));
  }

  @Test
  void sigintReachesAnInstanceDespiteItsBackgroundStart() throws Exception {
    RemoteBatch batch = hosts.host("sut").startBatch(List.of(launch("trapper#0", RemoteCommand.of("sh", "-c",
        "trap 'echo got INT; exit 42' INT; echo trapping; while true; do sleep 0.1; done"))), false);
    RemoteProcess p = batch.processes().get(0);
    // signalled once the trap is set: before it, INT would end the shell (or, before the instance's signal reset, be
    // ignored) rather than show that it reaches the command
    await().atMost(Duration.ofSeconds(10)).until(() -> p.stdout().contains("trapping"));
    p.signal("INT");
    assertThat(p.awaitExit(Duration.ofSeconds(10))).hasValue(42);
    assertThat(p.stdout()).contains("got INT");
  }

  @Test
  void aFailedStartIsNamedWithItsCauseAndTheOthersAreStopped() throws Exception {
    RemoteHost sut = hosts.host("sut");
    List<Launch> launches = List.of(launch("sleep#0", RemoteCommand.of("sleep", "1000")),
        launch("server#1", RemoteCommand.of("netpulse-no-such-tool", "-s")));
    RemoteBatch batch = sut.startBatch(launches, false);
    assertThatThrownBy(batch::checkStarted).isInstanceOf(RemoteFailure.class)
        .hasMessageStartingWith("host sut: server#1 (netpulse-no-such-tool) failed at start, exit 127: ")
        .hasMessageEndingWith("; netpulse-no-such-tool is not installed or not on PATH on sut: check with "
            + "preflight or run with --install-tools");
    List<RemoteProcess> sleeps = sut.processes().stream().filter(p -> p.label().equals("sleep#0")).toList();
    assertThat(sleeps).hasSize(1).allMatch(RemoteProcess::isAlive); // the start failed, not the others
    sut.stopAll(Duration.ofSeconds(2)); // as a repetition does when a start fails
    assertThat(sleeps).noneMatch(RemoteProcess::isAlive);
    await().atMost(Duration.ofSeconds(5)).until(() -> group(HOSTS.sut(), sleeps.get(0).pid()).isEmpty());
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertNoBatchLeft(HOSTS.sut()));
  }

  @Test
  void hundredsOfInstancesStartOverOneChannel() throws Exception {
    int n = 300;
    List<Launch> launches = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      launches.add(launch("sleep#" + i, RemoteCommand.of("sleep", "1000")));
    }
    RemoteHost peer = hosts.host("peer");
    RemoteBatch batch = peer.startBatch(launches, true);
    batch.release();
    batch.checkStarted();
    assertThat(peer.connections()).isEqualTo(1);
    assertThat(batch.processes().stream().map(RemoteProcess::pid).distinct()).hasSize(n);
    assertThat(peer.load().cpus()).as(peer.load().toString()).isPositive();
    peer.stopAll(Duration.ofSeconds(2));
    assertThat(batch.processes()).noneMatch(RemoteProcess::isAlive);
    await().atMost(Duration.ofSeconds(10)).until(() -> group(HOSTS.peer(), batch.processes().get(n - 1).pid()).isEmpty());
  }

  /** No batch shell, monitor or watchdog is left in the host, nor the temporary directory of one. */
  static void assertNoBatchLeft(NetHost host) throws Exception {
    List<String> left = new ArrayList<>();
    Process pids = new ProcessBuilder("ip", "netns", "pids", host.namespace()).redirectErrorStream(true).start();
    for (String pid : new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\\s+")) {
      try {
        String args = Files.readString(Path.of("/proc", pid, "cmdline")).replace('\0', ' ');
        if (args.contains("netpulse-batch") || args.contains("netpulse-watchdog")) {
          left.add(pid + " " + args);
        }
      } catch (java.io.IOException | java.nio.file.InvalidPathException gone) {
        // exited meanwhile, or a blank
      }
    }
    pids.waitFor();
    assertThat(left).as("batch processes left in " + host.name()).isEmpty();
    try (var dirs = Files.list(Path.of("/tmp"))) {
      assertThat(dirs.map(Path::getFileName).map(Path::toString).filter(n -> n.startsWith("netpulse-batch."))
          .filter(n -> !dirsBefore.contains(n))).as("batch directories left in /tmp").isEmpty();
    }
  }

  /** Taken before each test: a batch directory another test class left to its watchdog is not this test's. */
  private static java.util.Set<String> dirsBefore = java.util.Set.of();

  private static java.util.Set<String> batchDirs() {
    try (var dirs = Files.list(Path.of("/tmp"))) {
      return dirs.map(Path::getFileName).map(Path::toString).filter(n -> n.startsWith("netpulse-batch."))
          .collect(java.util.stream.Collectors.toSet());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
