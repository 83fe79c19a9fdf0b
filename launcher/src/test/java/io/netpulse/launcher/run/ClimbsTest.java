package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.Json;
import io.netpulse.holder.ClimbEnd;
import io.netpulse.holder.ClimbLine;
import io.netpulse.launcher.run.Climbs.Output;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One verdict per repetition from its tools' lines: whose limit the figure is. */
@Tag("unit")
class ClimbsTest {

  private static String lines(ClimbLine climb) {
    return "connections: client server=198.18.0.2 ports=2000:4000:2000 block 2 (4) sources=kernel\n"
        + "connections: open=4000 cap=none failed=0 in_flight=0 rate=4000/s\n" + climb.line() + "\n"
        + "connections: summary ended_by=" + climb.end().code() + " opened=4000\n";
  }

  @Test
  void aClientsOwnLimitIsTheClientsNotTheSuts() {
    ClimbLine ports = new ClimbLine(ClimbEnd.CLIENT_PORTS, 4000, "the kernel's source address used its 1000 local "
        + "ports (40000-40999) toward each of the 4 server ports: add source addresses or server ports");
    RunEvent.Climb c = Climbs.of(List.of(new Output("sut", true, false, "connections: listening ports=x\n"),
        new Output("peer", false, false, lines(ports)))).orElseThrow();
    assertThat(c).isEqualTo(new RunEvent.Climb("client_ports", "client", "peer: client ports exhausted at 4000: "
        + ports.detail()));
  }

  @Test
  void theSutsOpenFilesOutrankTheTimeoutsTheClientsSawBecauseOfThem() {
    ClimbLine server = new ClimbLine(ClimbEnd.SUT_OPEN_FILES, 19_950, "Too many open files with 19950 connections "
        + "held (nofile 20000 for the server process)");
    ClimbLine timeouts = new ClimbLine(ClimbEnd.SYN_TIMEOUTS, 24_047, "1000 connects in a row unanswered");
    ClimbLine time = new ClimbLine(ClimbEnd.TIME_UP, 10, "still opening");
    RunEvent.Climb c = Climbs.of(List.of(new Output("sut", true, false, server.line()),
        new Output("peer", false, false, lines(timeouts)), new Output("peer2", false, false, lines(time))))
        .orElseThrow();
    assertThat(c.endedBy()).isEqualTo("sut_open_files");
    assertThat(c.side()).isEqualTo("sut");
    assertThat(c.detail()).isEqualTo("sut (server): open files on the SUT at 19950: " + server.detail()
        + "; peer: SYN timeouts at 24047: 1000 connects in a row unanswered; peer2: time up while still rising at 10: "
        + "still opening");
  }

  @Test
  void stillRisingSomewhereMakesTheFigureALowerBound() {
    RunEvent.Climb c = Climbs.of(List.of(
        new Output("peer", false, false, lines(new ClimbLine(ClimbEnd.CAP_REACHED, 5, "opened the cap of 5"))),
        new Output("peer2", false, false, lines(new ClimbLine(ClimbEnd.CLIENT_OPEN_FILES, 9, "nofile"))),
        new Output("peer3", false, false, lines(new ClimbLine(ClimbEnd.TIME_UP, 7, "still opening"))),
        new Output("peer4", false, false, "Exception in thread main\n"))).orElseThrow();
    assertThat(c.endedBy()).isEqualTo("time_up");
    assertThat(c.side()).isEqualTo("plan");
    assertThat(c.detail()).endsWith("; peer4: no climb line (the client ended before saying what ended its climb)");
    assertThat(Climbs.of(List.of(new Output("sut", true, false, "")))).isEmpty();
  }

  @Test
  void c1000kSaysItInItsErrorLines() {
    // c1000k's client: "connections: N, fd: F" every thousand, then "connections: N" and "error: strerror"
    String client = "connections: 999, fd: 1002\nconnections: 1999, fd: 2002\nconnections: 2047\n"
        + "error: Cannot assign requested address\n";
    String stillGoing = "connections: 999, fd: 1002\n";
    RunEvent.Climb c = Climbs.of(List.of(new Output("sut", true, true, "server listen on port: 2000\n"),
        new Output("peer", false, true, client), new Output("peer", false, true, client),
        new Output("peer2", false, true, stillGoing))).orElseThrow();
    assertThat(c.endedBy()).isEqualTo("time_up");
    assertThat(c.detail()).isEqualTo("peer: client ports exhausted at 4094: c1000k's client: Cannot assign requested "
        + "address (it then exits, closing its connections); peer2: time up while still rising at 999: c1000k's "
        + "client was still connecting when stopped");
    RunEvent.Climb server = Climbs.of(List.of(new Output("sut", true, true, "connections: 1019\nerror: Too many "
        + "open files\n"), new Output("peer", false, true, "connections: 5000\nerror: Connection timed out\n")))
        .orElseThrow();
    assertThat(server.endedBy()).isEqualTo("sut_open_files");
  }

  /** The run event's schema lists exactly the codes and sides the tools write. */
  @Test
  void theRunEventSchemaKnowsEveryCode() throws Exception {
    JsonNode schema;
    try (InputStream in = RunEvent.class.getResourceAsStream("/schemas/run-event.schema.json")) {
      schema = Json.mapper().readTree(in);
    }
    JsonNode climb = schema.path("properties").path("climb").path("properties");
    List<String> codes = new ArrayList<>();
    climb.path("endedBy").path("enum").forEach(n -> codes.add(n.asText()));
    assertThat(codes).containsExactlyInAnyOrderElementsOf(Arrays.stream(ClimbEnd.values()).map(ClimbEnd::code)
        .toList());
    List<String> sides = new ArrayList<>();
    climb.path("side").path("enum").forEach(n -> sides.add(n.asText()));
    assertThat(sides).containsExactlyInAnyOrderElementsOf(Arrays.stream(ClimbEnd.Side.values())
        .map(ClimbEnd.Side::code).toList());
  }
}
