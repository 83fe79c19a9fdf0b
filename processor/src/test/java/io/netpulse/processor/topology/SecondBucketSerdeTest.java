package io.netpulse.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SecondBucketSerdeTest {

  private final SecondBucketSerde serde = new SecondBucketSerde();

  @Test
  void aBucketComesBackWithEveryAggregateAndDirtyMark() {
    SecondBucket b = new SecondBucket("sut-1", null, "rx_bps", "bit/s", 1_796_014_834_000L);
    b.addToAll(5);
    b.addToAll(7.5);
    b.addToSecond(7.5);
    b.markTenDirtyFrom(1_796_014_825_000L);
    SecondBucket back = serde.deserialize("t", serde.serialize("t", b));
    assertThat(back).usingRecursiveComparison().isEqualTo(b);
    assertThat(back.iface).isNull();
    assertThat(back.secondRate().mean()).isEqualTo(7.5);
  }

  @Test
  void aTruncatedRecordIsAClearSerializationError() {
    byte[] bytes = serde.serialize("t", new SecondBucket("h", "eth0", "rx_pps", "packets/s", 0));
    assertThatThrownBy(() -> serde.deserialize("changelog", Arrays.copyOf(bytes, 20)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("changelog").hasMessageContaining("20 bytes");
  }
}
