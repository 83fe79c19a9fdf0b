package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHosts;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import io.netpulse.tools.iperf3.Iperf3Commands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clients that flood a capped path, set up one at a time over real SSH in the TestHosts namespaces: seed 000's iperf3
 * UDP clients through a 4 Mbit/s tbf in front of the SUT each set up within a moment of the one before and run to
 * their end. Released together, one set up behind another's flood waited seconds for its retransmitted setup, or
 * failed after 30 s when its UDP hello was dropped.
 */
@Tag("root")
class StagedStartsTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final int BASE_PORT = 5301;

  private RemoteHosts hosts;
  private final List<String> notes = new CopyOnWriteArrayList<>();

  @BeforeEach
  void connect() throws RemoteFailure {
    hosts = RemoteHosts.connect(List.of(spec(HOSTS.peer()), spec(HOSTS.sut())), Duration.ofSeconds(5));
  }

  @AfterEach
  void close() {
    hosts.close();
  }

  private static HostSpec spec(NetHost host) {
    return new HostSpec(host.name(), host.address(), HOSTS.user(), TestHosts.SSH_PORT, HOSTS.identity(),
        HOSTS.knownHosts(), false, null);
  }

  @Test
  void iperf3UdpFloodsThroughACapEachSetUpAndRunToTheirEnd() throws Exception {
    int clients = 3;
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), "4mbit")) {
      for (int i = 0; i < clients; i++) {
        hosts.host("sut").start("iperf3-server#" + i, new RemoteCommand(Map.of(), Iperf3Commands.server(BASE_PORT + i)), null);
        HOSTS.awaitListening(HOSTS.sut(), BASE_PORT + i);
      }
      // three rounds: released together, a client set up behind another's flood took seconds (8-18 s for -t 4)
      for (int round = 0; round < 3; round++) {
        List<HostCommand> commands = new ArrayList<>();
        Map<Integer, Long> setUpAt = new java.util.concurrent.ConcurrentHashMap<>();
        for (int i = 0; i < clients; i++) {
          commands.add(HostCommand.floodingClient("peer", "iperf3", i, new RemoteCommand(Map.of(),
              Iperf3Commands.udpClient(HOSTS.sut().address(), "0M", 4, 64, BASE_PORT + i)), Iperf3Commands.UDP_SET_UP));
        }
        Map<HostCommand, RemoteProcess> started = new LinkedHashMap<>();
        long before = System.currentTimeMillis();
        long resumed = StagedStarts.start(hosts::host, commands, c -> c.tool() + "#" + c.instance(),
            c -> line -> {
              if (line.contains(Iperf3Commands.UDP_SET_UP)) {
                setUpAt.putIfAbsent(c.instance(), System.currentTimeMillis());
              }
            }, started, notes::add);
        assertThat(resumed).isBetween(before, System.currentTimeMillis());
        assertThat(started.keySet()).containsExactlyElementsOf(commands);
        // one after the other, each while the others sent nothing: a setup is a few round trips, not seconds of
        // retransmissions behind a full queue
        long previous = before;
        for (int i = 0; i < clients; i++) {
          assertThat(setUpAt).as("round " + round).containsKey(i);
          assertThat(setUpAt.get(i) - previous).as("client " + i + " set up after the one before it, round " + round)
              .isBetween(0L, i == 0 ? 10_000L : 1_500L); // the first: after every batch's SSH start
          System.out.println("round " + round + " client " + i + " set up " + (setUpAt.get(i) - previous) + " ms after"
              + (i == 0 ? " the start" : " the one before"));
          previous = setUpAt.get(i);
        }
        assertThat(resumed).as("resumed once the last had set up").isGreaterThanOrEqualTo(previous);
        for (RemoteProcess p : started.values()) {
          OptionalInt exit = p.awaitExit(Duration.ofSeconds(30));
          assertThat(exit).as(p.label() + " in round " + round + ": " + p.stdout() + p.stderr()).hasValue(0);
          // the sender's summary: it ran to its end after its pause
          assertThat(p.stdout()).as(p.label()).contains("sender", "iperf Done.");
        }
      }
      // the cap was hit: the clients flooded it
      java.util.regex.Matcher dropped = java.util.regex.Pattern.compile("dropped (\\d+)").matcher(cap.stats());
      assertThat(dropped.find()).as(cap.stats()).isTrue();
      assertThat(Long.parseLong(dropped.group(1))).as(cap.stats()).isPositive();
    }
  }

  @Test
  void aClientThatNeverSetsUpFailsTheStartNamingItAndLeavesNoneStopped() throws Exception {
    RemoteCommand ready = RemoteCommand.of("sh", "-c", "echo set up; exec sleep 60");
    List<HostCommand> commands = List.of(
        HostCommand.floodingClient("peer", "fake", 0, ready, "set up"),
        HostCommand.floodingClient("sut", "fake", 1, ready, "set up"),
        HostCommand.floodingClient("peer", "fake", 2, RemoteCommand.of("sh", "-c", "echo connecting; exec sleep 60"),
            "set up"));
    Map<HostCommand, RemoteProcess> started = new LinkedHashMap<>();
    try {
      // a second to set up, not 5 (times the load: 40 s of waiting for nothing on a loaded CI machine)
      assertThatThrownBy(() -> StagedStarts.start(hosts::host, commands, c -> c.tool() + "#" + c.instance(),
          c -> null, started, notes::add, Duration.ofSeconds(1)))
          .isInstanceOf(RemoteFailure.class)
          .hasMessageContaining("fake#2 did not set up within")
          .hasMessageContaining("with the 2 clients before it paused")
          .hasMessageContaining("'connecting'");
      assertThat(started).hasSize(3);
      for (Map.Entry<HostCommand, RemoteProcess> e : started.entrySet()) {
        NetHost host = HOSTS.host(e.getKey().host());
        // resumed: state S (sleeping), not T (stopped), so that the TERM that stops it acts
        String state = HOSTS.exec(host, "ps", "-o", "stat=", "-p", String.valueOf(e.getValue().pid())).strip();
        assertThat(state).as(e.getValue().label()).startsWith("S");
      }
    } finally {
      started.values().forEach(p -> p.stop(Duration.ofSeconds(2)));
    }
    assertThat(started.values()).noneMatch(RemoteProcess::isAlive);
  }
}
