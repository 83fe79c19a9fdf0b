package io.netpulse.common.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class KafkaClientSettingsFileTest {

  private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
      + "username=\"netpulse\" password=\"hunter2\";";

  @TempDir Path dir;

  private Path file(String... lines) throws Exception {
    Path f = dir.resolve("client.properties");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return f;
  }

  @Test
  void aClientPropertiesFileAddsItsSettingsAndItsBootstrapServersWhenNoneIsGiven() throws Exception {
    Path f = file("# Confluent-style client.properties",
        "bootstrap.servers=broker-1:9093, broker-2:9093",
        "security.protocol=SASL_SSL",
        "sasl.mechanism=PLAIN",
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\",
        "    username=\"netpulse\" password=\"hunter2\";",
        "acks=all",
        "request.timeout.ms=20000");
    KafkaConnection kafka = KafkaClientSettingsFile.resolve(null, f).orElseThrow();
    assertThat(kafka.bootstrapServers()).isEqualTo("broker-1:9093, broker-2:9093");
    assertThat(kafka.clientSettings()).containsOnlyKeys("security.protocol", "sasl.mechanism", "sasl.jaas.config",
        "request.timeout.ms"); // acks=all is what netpulse sets anyway
    assertThat(kafka.clientSettings().get("sasl.jaas.config")).isEqualTo(JAAS);
    // the file's settings tune what netpulse chose, except what netpulse owns (refused when the file is read)
    assertThat(kafka.clientProperties(Map.of("request.timeout.ms", 5000, "enable.idempotence", true)))
        .containsEntry("request.timeout.ms", "20000").containsEntry("enable.idempotence", true)
        .containsEntry("bootstrap.servers", "broker-1:9093, broker-2:9093");
    assertThat(KafkaClientSettingsFile.resolve("broker-2:9093,broker-1:9093", f)).isPresent();
  }

  @Test
  void valuesNeverShowInTextsAboutTheConnection() throws Exception {
    KafkaConnection kafka = KafkaClientSettingsFile.resolve("b:9093", file("sasl.jaas.config=" + JAAS,
        "ssl.truststore.password=changeit", "security.protocol=SASL_SSL")).orElseThrow();
    assertThat(kafka.toString()).contains("sasl.jaas.config", "ssl.truststore.password")
        .doesNotContain("hunter2").doesNotContain("changeit").doesNotContain("SASL_SSL");
    assertThat(kafka.describe()).startsWith("b:9093 (").doesNotContain("hunter2").doesNotContain("changeit");
  }

  @Test
  void aKeyNetpulseOwnsIsRefusedWithFileLineAndReason() throws Exception {
    Path f = file("security.protocol=SASL_SSL", "", "enable.idempotence=false");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", f))
        .isInstanceOf(KafkaSettingsException.class)
        .hasMessage(f + " line 3: enable.idempotence is set by netpulse and cannot be changed: netpulse's producers "
            + "are idempotent with acks=all so that no line is lost or written twice");
    Path g = file("group.id=mine");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", g))
        .hasMessageContaining(g + " line 1: group.id is set by netpulse");
  }

  @Test
  void anUnknownKeyIsRefusedWithFileAndLine() throws Exception {
    Path f = file("security.protocol=SASL_SSL", "sasl.jaas.confg=" + JAAS);
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", f))
        .hasMessage(f + " line 2: unknown Kafka client setting 'sasl.jaas.confg' (not a producer, consumer or admin "
            + "client setting; check its spelling)");
  }

  @Test
  void aBadValueIsNamedButAPasswordIsNot() throws Exception {
    Path f = file("security.protocol=SASL_SSL", "request.timeout.ms=soon");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", f))
        .hasMessageStartingWith(f + " line 2: invalid value for request.timeout.ms: ");
    Path g = file("security.protocol=SASL_SSH");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", g))
        .hasMessageStartingWith(g + " line 1: invalid value for security.protocol");
  }

  @Test
  void bootstrapServersMustAgreeAndExistSomewhere() throws Exception {
    Path f = file("bootstrap.servers=a:9093");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", f))
        .hasMessage(f + " sets bootstrap.servers to a:9093 but --bootstrap-servers is b:9093: remove one or make "
            + "them agree");
    Path g = file("security.protocol=SASL_SSL");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve(null, g))
        .hasMessageContaining("--kafka-config " + g + " is for an external Kafka");
    assertThat(KafkaClientSettingsFile.resolve(null, null)).isEqualTo(Optional.empty());
    assertThat(KafkaClientSettingsFile.resolve("b:9093", null)).contains(KafkaConnection.plain("b:9093"));
  }

  @Test
  void anUnreadableFileIsOneLine() {
    Path missing = dir.resolve("nowhere.properties");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", missing))
        .hasMessage("cannot read --kafka-config " + missing + ": no such file");
    assertThatThrownBy(() -> KafkaClientSettingsFile.resolve("b:9093", dir))
        .hasMessageStartingWith("cannot read --kafka-config " + dir + ": ");
  }
}
