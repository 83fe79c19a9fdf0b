package io.netpulse.launcher.services;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link RestartAcceptance}: the store down 60 s (the processor not restarted), the collector killed and restarted,
 * bad records on the lines topic.
 */
@Tag("kafka")
class StoreAndCollectorRestartAcceptanceTest extends RestartAcceptance {

  @Test
  @Order(3)
  void storeDownFor60Seconds() {
    SoftAssertions soft = new SoftAssertions();
    long since = beforeFault();
    ChildJvm old = session.store();
    long faultAt = mark("SIGTERM " + old.name());
    old.sigterm();
    soft.assertThat(old.awaitExit(STOP_WITHIN))
        .as("[protects: a clean store stop] %s exits within %d s of SIGTERM", old, STOP_WITHIN.toSeconds()).isTrue();
    old.close();
    long downAt = System.currentTimeMillis();
    ChildJvm.sleep(Math.max(0, downAt + STORE_DOWN.toMillis() - System.currentTimeMillis()));
    session.startStore();
    mark("started " + session.store().name() + " on the same data dir and port, " + (System.currentTimeMillis() - downAt)
        + " ms after it stopped");
    expectCurrent(soft, "store down 60 s (processor not restarted)", session.store().startedAtMs());
    afterFault(soft, "store down 60 s + restart", since, faultAt);
    soft.assertAll();
  }

  @Test
  @Order(4)
  void collectorSigkill() {
    SoftAssertions soft = new SoftAssertions();
    long since = beforeFault();
    ChildJvm old = session.collector();
    long faultAt = mark("SIGKILL " + old.name());
    old.killWithLeftovers(Duration.ofSeconds(5));
    ChildJvm.sleep(Math.max(0, faultAt + COLLECTOR_DOWN.toMillis() - System.currentTimeMillis()));
    session.startCollector();
    long restartedAt = session.collector().startedAtMs();
    mark("started " + session.collector().name());
    expectCurrent(soft, "collector SIGKILL + restart", restartedAt);
    afterFault(soft, "collector SIGKILL + restart", since, faultAt);
    expectGapReported(soft, restartedAt - faultAt, restartedAt);
    soft.assertAll();
  }

  @Test
  @Order(5)
  void badRecordsOnLines() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    long since = beforeFault();
    String tag = Long.toString(System.currentTimeMillis(), 36);
    long faultAt = System.currentTimeMillis();
    expectDeadLettersAndNoStall(soft, "7 malformed records", BadRecords.small(tag, System.currentTimeMillis()));
    expectDeadLettersAndNoStall(soft, "2 records whose dead letters are over 1 MB",
        BadRecords.oversize(tag, System.currentTimeMillis()));
    afterFault(soft, "bad records", since, faultAt);
    soft.assertAll();
  }
}
