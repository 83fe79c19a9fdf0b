package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The load a batch reports and how it stretches waits; the exit statuses a batch's shell reports. */
@Tag("unit")
class HostLoadTest {

  @Test
  void onlineCpuListsAreCounted() {
    assertThat(HostLoad.cpus("0-1")).isEqualTo(2);
    assertThat(HostLoad.cpus("0")).isEqualTo(1);
    assertThat(HostLoad.cpus("0-3,8,10-11\n")).isEqualTo(7);
    assertThat(HostLoad.cpus("")).isZero();
    assertThat(HostLoad.cpus("-")).isZero();
    assertThat(HostLoad.cpus(null)).isZero();
  }

  @Test
  void waitsGrowWithTheLoadPerCpuFromOnceToTenTimes() {
    assertThat(HostLoad.parse("0.50", "0-1").factor()).isEqualTo(1);
    assertThat(HostLoad.parse("5.00", "0-1").factor()).isEqualTo(2.5);
    assertThat(HostLoad.parse("438.4", "0-1").factor()).isEqualTo(10);
    assertThat(HostLoad.parse("5.00", "0-1").scale(Duration.ofSeconds(15))).isEqualTo(Duration.ofMillis(37_500));
    assertThat(HostLoad.parse("-", "-")).isEqualTo(HostLoad.UNKNOWN);
    assertThat(HostLoad.UNKNOWN.factor()).isEqualTo(1);
    assertThat(HostLoad.UNKNOWN.scale(Duration.ofMillis(300))).isEqualTo(Duration.ofMillis(300));
    assertThat(HostLoad.parse("5.00", "0-1")).hasToString("host load 5.0 on 2 CPUs");
    assertThat(HostLoad.UNKNOWN).hasToString("host load unknown");
  }

  @Test
  void aShellsSignalStatusIsReportedAsOpenSshDoes() {
    assertThat(BatchScript.exitStatus(0)).isZero();
    assertThat(BatchScript.exitStatus(3)).isEqualTo(3);
    assertThat(BatchScript.exitStatus(127)).isEqualTo(127);
    assertThat(BatchScript.exitStatus(128 + 9)).isEqualTo(-1);
    assertThat(BatchScript.exitStatus(128 + 15)).isEqualTo(-1);
    assertThat(BatchScript.exitStatus(255)).isEqualTo(255); // netperf's exit(-1), not a signal
  }
}
