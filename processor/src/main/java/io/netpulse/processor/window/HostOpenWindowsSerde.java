package io.netpulse.processor.window;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary form of a host's open windows for the window store and its changelog: written on every row the host sends
 * (the store's cache keeps only the last one per commit), so JSON would cost more than the windows themselves. Layout:
 * version byte; host; time, closed-before, idle-since; the windows, each its name, tags, start, row count and fields
 * (name, unit, sum, min, max, count). Strings are modified UTF-8 ({@link DataOutputStream#writeUTF}), null as a flag.
 */
final class HostOpenWindowsSerde implements Serde<HostOpenWindows>, Serializer<HostOpenWindows>,
    Deserializer<HostOpenWindows> {

  private static final byte VERSION = 1;

  @Override
  public byte[] serialize(String topic, HostOpenWindows h) {
    if (h == null) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeUTF(h.host);
      out.writeLong(h.timeMs);
      out.writeLong(h.closedBeforeMs);
      out.writeLong(h.idleSinceMs);
      int windows = h.open.values().stream().mapToInt(Map::size).sum();
      out.writeInt(windows);
      for (Map<String, OpenWindow> byScope : h.open.values()) {
        for (OpenWindow w : byScope.values()) {
          write(out, w);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  private static void write(DataOutputStream out, OpenWindow w) throws IOException {
    out.writeUTF(w.name);
    out.writeInt(w.tags.size());
    for (Map.Entry<String, String> t : w.tags.entrySet()) {
      out.writeUTF(t.getKey());
      out.writeUTF(t.getValue());
    }
    out.writeLong(w.startMs);
    out.writeLong(w.rows);
    out.writeInt(w.fields.size());
    for (Map.Entry<String, OpenWindow.FieldStats> f : w.fields.entrySet()) {
      OpenWindow.FieldStats s = f.getValue();
      out.writeUTF(f.getKey());
      out.writeBoolean(s.unit != null);
      if (s.unit != null) {
        out.writeUTF(s.unit);
      }
      out.writeDouble(s.sum);
      out.writeDouble(s.min);
      out.writeDouble(s.max);
      out.writeLong(s.count);
    }
  }

  @Override
  public HostOpenWindows deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
      byte version = in.readByte();
      if (version != VERSION) {
        throw new SerializationException("host windows on " + topic + ": unknown version " + version);
      }
      HostOpenWindows h = new HostOpenWindows(in.readUTF());
      h.timeMs = in.readLong();
      h.closedBeforeMs = in.readLong();
      h.idleSinceMs = in.readLong();
      for (int i = in.readInt(); i > 0; i--) {
        OpenWindow w = read(in);
        h.open.computeIfAbsent(w.startMs, s -> new java.util.LinkedHashMap<>()).put(w.scope(), w);
      }
      return h;
    } catch (IOException | RuntimeException e) {
      if (e instanceof SerializationException se) {
        throw se;
      }
      throw new SerializationException("host windows on " + topic + ": truncated or corrupt (" + data.length
          + " bytes)", e);
    }
  }

  private static OpenWindow read(DataInputStream in) throws IOException {
    String name = in.readUTF();
    Map<String, String> tags = new TreeMap<>();
    for (int t = in.readInt(); t > 0; t--) {
      tags.put(in.readUTF(), in.readUTF());
    }
    OpenWindow w = new OpenWindow(name, java.util.Collections.unmodifiableMap(tags), in.readLong());
    w.rows = in.readLong();
    for (int f = in.readInt(); f > 0; f--) {
      String field = in.readUTF();
      OpenWindow.FieldStats s = new OpenWindow.FieldStats(in.readBoolean() ? in.readUTF() : null);
      s.sum = in.readDouble();
      s.min = in.readDouble();
      s.max = in.readDouble();
      s.count = in.readLong();
      w.fields.put(field, s);
    }
    return w;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}

  @Override
  public Serializer<HostOpenWindows> serializer() {
    return this;
  }

  @Override
  public Deserializer<HostOpenWindows> deserializer() {
    return this;
  }
}
