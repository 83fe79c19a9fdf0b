package io.netpulse.processor.topology;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Compact binary form of a {@link SecondBucket} for the rate store and its changelog: written once
 * per sample into the Streams cache, so JSON would cost more than the aggregation itself.
 * Layout: version byte, four length-prefixed UTF-8 strings (length -1 for null), start, the eight
 * aggregates, the dirty marks.
 */
final class SecondBucketSerde implements Serde<SecondBucket>, Serializer<SecondBucket>, Deserializer<SecondBucket> {

  private static final byte VERSION = 1;

  @Override
  public byte[] serialize(String topic, SecondBucket b) {
    if (b == null) {
      return null;
    }
    byte[][] strings = {utf8(b.host), utf8(b.iface), utf8(b.metric), utf8(b.unit)};
    int size = 1 + 8 * 10 + 4 * 4 + 1 + 8;
    for (byte[] s : strings) {
      size += s == null ? 0 : s.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).put(VERSION);
    for (byte[] s : strings) {
      out.putInt(s == null ? -1 : s.length);
      if (s != null) {
        out.put(s);
      }
    }
    out.putLong(b.startMs)
        .putDouble(b.allSum).putDouble(b.allMin).putDouble(b.allMax).putLong(b.allCount)
        .putDouble(b.secondSum).putDouble(b.secondMin).putDouble(b.secondMax).putLong(b.secondCount)
        .put((byte) (b.secondDirty ? 1 : 0)).putLong(b.tenDirtyFromMs);
    return out.array();
  }

  @Override
  public SecondBucket deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    try {
      ByteBuffer in = ByteBuffer.wrap(data);
      byte version = in.get();
      if (version != VERSION) {
        throw new SerializationException("rate bucket of " + topic + ": unknown version " + version);
      }
      SecondBucket b = new SecondBucket(string(in), string(in), string(in), string(in), in.getLong());
      b.allSum = in.getDouble();
      b.allMin = in.getDouble();
      b.allMax = in.getDouble();
      b.allCount = in.getLong();
      b.secondSum = in.getDouble();
      b.secondMin = in.getDouble();
      b.secondMax = in.getDouble();
      b.secondCount = in.getLong();
      b.secondDirty = in.get() != 0;
      b.tenDirtyFromMs = in.getLong();
      return b;
    } catch (RuntimeException e) {
      if (e instanceof SerializationException se) {
        throw se;
      }
      throw new SerializationException("rate bucket of " + topic + ": truncated or corrupt (" + data.length + " bytes)", e);
    }
  }

  private static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(ByteBuffer in) {
    int n = in.getInt();
    if (n < 0) {
      return null;
    }
    byte[] bytes = new byte[n];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public void configure(java.util.Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}

  @Override
  public Serializer<SecondBucket> serializer() {
    return this;
  }

  @Override
  public Deserializer<SecondBucket> deserializer() {
    return this;
  }
}
