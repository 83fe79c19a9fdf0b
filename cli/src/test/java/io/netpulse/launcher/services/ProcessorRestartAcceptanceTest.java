package io.netpulse.launcher.services;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link RestartAcceptance}: the processor stopped (SIGTERM) and killed (SIGKILL), each restarted. */
@Tag("kafka")
class ProcessorRestartAcceptanceTest extends RestartAcceptance {

  @Test
  @Order(1)
  void processorSigterm() {
    SoftAssertions soft = new SoftAssertions();
    long since = beforeFault();
    ChildJvm old = session.processor();
    long faultAt = mark("SIGTERM " + old.name());
    old.sigterm();
    soft.assertThat(old.awaitExit(STOP_WITHIN))
        .as("[protects: a clean stop, as docker stop/systemd expect] %s exits within %d s of SIGTERM", old,
            STOP_WITHIN.toSeconds()).isTrue();
    old.close();
    Map<String, List<String>> members =
        checks.groupMembers(List.of(PipelineSession.APPLICATION_ID, PipelineChecks.STORE_GROUP));
    soft.assertThat(members.values().stream().allMatch(List::isEmpty))
        .as("[protects: a clean stop: the restart need not wait out a session timeout] after SIGTERM the processor "
            + "left its consumer groups (Kafka Streams' and the store writer's); members left behind: %s; its log:\n"
            + "    %s", members, old.tail(8).replace("\n", "\n    "))
        .isTrue();
    session.startProcessor();
    mark("started " + session.processor().name());
    expectCurrent(soft, "processor SIGTERM + restart", session.processor().startedAtMs());
    afterFault(soft, "processor SIGTERM + restart", since, faultAt);
    soft.assertAll();
  }

  @Test
  @Order(2)
  void processorSigkill() {
    SoftAssertions soft = new SoftAssertions();
    long since = beforeFault();
    ChildJvm old = session.processor();
    long faultAt = mark("SIGKILL " + old.name());
    old.sigkill();
    old.awaitExit(STOP_WITHIN);
    session.startProcessor();
    mark("started " + session.processor().name());
    expectCurrent(soft, "processor SIGKILL + restart", session.processor().startedAtMs());
    afterFault(soft, "processor SIGKILL + restart", since, faultAt);
    soft.assertAll();
  }
}
