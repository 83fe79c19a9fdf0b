package io.netpulse.processor.topology;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Per host, the last reading of each of its scopes (an interface of {@code /proc/net/dev}, a CPU of {@code /proc/stat})
 * as one store value in a compact binary form. A record's lines are read against it and it is written once, when the
 * record is done ({@link #recordDone}): a sampler's snapshot is one record of all its rows, so the changelog gets one
 * record per host and snapshot rather than one per row, and no JSON. Keyed per scope, it had been a changelog record
 * and a JSON value for every line of these samplers, the fallback of hosts without sysstat.
 *
 * @param <R> one scope's reading
 */
final class HostReadings<R> {

  /** A reading's binary form. */
  interface Codec<R> {
    void write(DataOutputStream out, R reading) throws IOException;

    R read(DataInputStream in) throws IOException;
  }

  private static final byte LAYOUT = 1;

  private final KeyValueStore<String, Map<String, R>> store;
  private String host;
  private Map<String, R> current;
  private boolean changed;

  HostReadings(KeyValueStore<String, Map<String, R>> store) {
    this.store = store;
  }

  static <R> StoreBuilder<KeyValueStore<String, Map<String, R>>> storeBuilder(String name, Codec<R> codec) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), serde(codec));
  }

  /** {@code host}'s last reading of {@code scope}, or null. */
  R get(String host, String scope) {
    return of(host).get(scope);
  }

  void put(String host, String scope, R reading) {
    of(host).put(scope, reading);
    changed = true;
  }

  /** Writes the host's readings if a line of the record changed them; the next record reads them again. */
  void recordDone() {
    if (changed) {
      store.put(host, current);
    }
    host = null;
    current = null;
    changed = false;
  }

  private Map<String, R> of(String h) {
    if (!h.equals(host)) {
      recordDone(); // a record with lines of two hosts (not a collector's): each host's readings written in turn
      Map<String, R> stored = store.get(h);
      host = h;
      current = stored == null ? new HashMap<>() : new HashMap<>(stored);
    }
    return current;
  }

  static <R> Serde<Map<String, R>> serde(Codec<R> codec) {
    Serializer<Map<String, R>> serializer = (topic, readings) -> {
      if (readings == null) {
        return null;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 48 * readings.size());
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeByte(LAYOUT);
        out.writeInt(readings.size());
        for (Map.Entry<String, R> e : readings.entrySet()) {
          out.writeUTF(e.getKey());
          codec.write(out, e.getValue());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return bytes.toByteArray();
    };
    Deserializer<Map<String, R>> deserializer = (topic, data) -> {
      if (data == null) {
        return null;
      }
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
        byte layout = in.readByte();
        if (layout != LAYOUT) {
          throw new IOException("readings of layout " + layout + ", this processor reads " + LAYOUT);
        }
        int n = in.readInt();
        Map<String, R> readings = new HashMap<>(Math.max(4, n * 2));
        for (int i = 0; i < n; i++) {
          readings.put(in.readUTF(), codec.read(in));
        }
        return readings;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    return Serdes.serdeFrom(serializer, deserializer);
  }
}
