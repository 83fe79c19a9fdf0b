package io.netpulse.tools.ss;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.tools.Fixtures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code ss -Hlntup} as the launcher reads it to see servers up (fixture: see the fixtures' README). */
@Tag("unit")
class ListeningSocketsTest {

  @Test
  void everyServerThatListensOrIsBoundIsFoundByItsPid() {
    // netserver 14938, iperf3 14940, sockperf (UDP) 14942, qperf 14944, iperf 14946, iperf -u (UDP) 14948; port 2024
    // is another user's listener, listed without its process
    assertThat(ListeningSockets.pids(Fixtures.text("ss/ss-listening-servers.txt")))
        .containsExactlyInAnyOrder(14938L, 14940L, 14942L, 14944L, 14946L, 14948L);
  }

  @Test
  void nothingListedNothingFound() {
    assertThat(ListeningSockets.pids("")).isEmpty();
  }

  @Test
  void aSocketSharedByTwoProcessesCountsForBoth() {
    // a listener inherited across fork: ss lists every process holding it
    String line = "tcp LISTEN 0 5 *:19765 *:* users:((\"qperf\",pid=200,fd=4),(\"qperf\",pid=201,fd=4))";
    assertThat(ListeningSockets.pids(line)).containsExactlyInAnyOrder(200L, 201L);
  }
}
