package io.netpulse.common.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every value one row of a sampler or tool gave, as one record: a host's interface in one second with rx_bps, tx_bps,
 * rx_pps and tx_pps, or its TCP table from one {@code ss -s}. Shaped like a Telegraf metric (name, tags, fields, time)
 * so that monitoring habits carry over, and one record where {@link Sample}s are one per value: the broker and the
 * processor pay per record.
 *
 * @param name   the measurement: {@code net} (sar -n DEV, /proc/net/dev rows), {@code netstat} ({@code ss -s}),
 *               {@code cpu} (/proc/stat), else the tool's name (netperf, ping, ...)
 * @param tags   sorted; {@code host}, and where the samples had them {@code interface} ({@code cpu} for cpu rows),
 *               {@code run}, {@code source}, {@code instance}, {@code test}, {@code summary} ("true" for a tool's
 *               whole-run summary)
 * @param fields each value by its metric name (docs/topics.md), in the order the parser gave them
 * @param units  each field's unit ("bit/s", "packets/s", ...)
 * @param time   epoch ms the values are for
 */
@com.fasterxml.jackson.databind.annotation.JsonSerialize(using = WideSampleSerializer.class)
public record WideSample(int schema, String name, Map<String, String> tags, Map<String, Double> fields,
    Map<String, String> units, long time) {

  public static final int SCHEMA = 1;

  public WideSample {
    tags = Collections.unmodifiableMap(new TreeMap<>(tags));
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    units = Collections.unmodifiableMap(new LinkedHashMap<>(units));
  }

  /**
   * The samples grouped by what they describe (measurement, tags, time), in the order each group first appears: the
   * four values of a sar row become one record. A metric that comes again for the same identity starts another
   * record: two outputs stamped with the same millisecond (a stalled sampler's, read in one go) stay two rows, so
   * that a window counts both rather than losing the first.
   *
   * @param measurementOf the measurement of a source's samples (the catalog's {@code Sources.measurementOf})
   */
  public static List<WideSample> group(List<Sample> samples, Function<String, String> measurementOf) {
    // Keyed by the samples' own identity fields: the tag map is built once per group, not once per value.
    Map<Identity, Builder> open = new LinkedHashMap<>();
    List<Builder> groups = new ArrayList<>();
    for (Sample s : samples) {
      Identity id = Identity.of(s);
      Builder b = open.get(id);
      if (b == null || b.fields.containsKey(s.metric())) {
        b = new Builder(s, id);
        open.put(id, b);
        groups.add(b);
      }
      b.add(s);
    }
    List<WideSample> out = new ArrayList<>(groups.size());
    for (Builder b : groups) {
      String name = measurementOf.apply(b.first.source());
      out.add(new WideSample(SCHEMA, name, tagsOf(b.first, name), b.fields, b.units, b.id.ts()));
    }
    return out;
  }

  /** A tool's or sampler's whole-run figure (sar's {@code Average:} rows), not one second's values. */
  public boolean summaryRow() {
    return "true".equals(tags.get("summary"));
  }

  /** The scope within the host its values are of, as samples name it: the interface, or the CPU of a cpu row. */
  public String iface() {
    return tags.getOrDefault("interface", tags.get("cpu"));
  }

  /** Back to one {@link Sample} per field, as the parser gave them. */
  public List<Sample> samples() {
    String iface = iface();
    List<Sample> out = new ArrayList<>(fields.size());
    fields.forEach((metric, value) -> out.add(new Sample(Sample.SCHEMA, metric, value, units.get(metric),
        tags.get("host"), iface, time, tags.get("run"), tags.get("source"), summaryRow(),
        tags.get("test"), tags.get("instance"))));
    return out;
  }

  private static Map<String, String> tagsOf(Sample s, String name) {
    Map<String, String> tags = new TreeMap<>();
    put(tags, "host", s.host());
    put(tags, "cpu".equals(name) ? "cpu" : "interface", s.iface());
    put(tags, "run", s.run());
    put(tags, "source", s.source());
    put(tags, "instance", s.instance());
    put(tags, "test", s.test());
    if (s.summary()) {
      tags.put("summary", "true");
    }
    return tags;
  }

  private static void put(Map<String, String> tags, String key, String value) {
    if (value != null) {
      tags.put(key, value);
    }
  }

  /** What makes two samples one record's fields; the measurement follows from the source. */
  private record Identity(String source, String host, String iface, String run, String instance, String test,
      boolean summary, long ts) {
    static Identity of(Sample s) {
      return new Identity(s.source(), s.host(), s.iface(), s.run(), s.instance(), s.test(), s.summary(), s.ts());
    }
  }

  private static final class Builder {
    final Sample first;
    final Identity id;
    final Map<String, Double> fields = new LinkedHashMap<>();
    final Map<String, String> units = new LinkedHashMap<>();

    Builder(Sample first, Identity id) {
      this.first = first;
      this.id = id;
    }

    void add(Sample s) {
      fields.put(s.metric(), s.value());
      units.put(s.metric(), s.unit());
    }
  }
}
