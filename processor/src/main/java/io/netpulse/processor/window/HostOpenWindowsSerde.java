package io.netpulse.processor.window;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary form of a host's open windows for the window store and its changelog: written on every row the host sends
 * (the store's cache keeps only the last one per commit), so JSON would cost more than the windows themselves. Layout:
 * version byte; host; time, closed-before, idle-since; the windows, each its name, tags, field names and units, start,
 * row count, and each field's sum, min, max and count. Strings are modified UTF-8 ({@link DataOutputStream#writeUTF}), null as a flag.
 * A window's bytes are kept with it until a row changes it (see {@link OpenWindow#encoded}).
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
      for (Map<OpenWindow.Scope, OpenWindow> byScope : h.open.values()) {
        for (OpenWindow w : byScope.values()) {
          out.write(encoded(w));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * The window's bytes, encoded again only if a row changed it since; its name, tags and field names (most of the
   * bytes) only when a field first appears.
   */
  private static byte[] encoded(OpenWindow w) throws IOException {
    if (w.encoded != null) {
      return w.encoded;
    }
    if (w.header == null) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeUTF(w.name);
        out.writeInt(w.tags.size());
        for (Map.Entry<String, String> t : w.tags.entrySet()) {
          out.writeUTF(t.getKey());
          out.writeUTF(t.getValue());
        }
        out.writeInt(w.fields.size());
        for (Map.Entry<String, OpenWindow.FieldStats> f : w.fields.entrySet()) {
          out.writeUTF(f.getKey());
          out.writeBoolean(f.getValue().unit != null);
          if (f.getValue().unit != null) {
            out.writeUTF(f.getValue().unit);
          }
        }
      }
      w.header = bytes.toByteArray();
    }
    ByteBuffer out = ByteBuffer.allocate(w.header.length + 16 + 32 * w.fields.size()).put(w.header)
        .putLong(w.startMs).putLong(w.rows);
    for (OpenWindow.FieldStats f : w.fields.values()) {
      out.putDouble(f.sum).putDouble(f.min).putDouble(f.max).putLong(f.count);
    }
    w.encoded = out.array();
    return w.encoded;
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
    java.util.List<String> names = new java.util.ArrayList<>();
    java.util.List<String> units = new java.util.ArrayList<>();
    for (int f = in.readInt(); f > 0; f--) {
      names.add(in.readUTF());
      units.add(in.readBoolean() ? in.readUTF() : null);
    }
    OpenWindow w = new OpenWindow(name, java.util.Collections.unmodifiableMap(tags), in.readLong());
    w.rows = in.readLong();
    for (int f = 0; f < names.size(); f++) {
      OpenWindow.FieldStats s = new OpenWindow.FieldStats(units.get(f));
      s.sum = in.readDouble();
      s.min = in.readDouble();
      s.max = in.readDouble();
      s.count = in.readLong();
      w.fields.put(names.get(f), s);
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
