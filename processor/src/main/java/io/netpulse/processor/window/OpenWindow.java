package io.netpulse.processor.window;

import io.netpulse.common.Units;
import io.netpulse.common.event.WideSample;
import java.util.LinkedHashMap;
import java.util.Map;

/** One scope's 10-s window still open: each field's sum, min, max and count over the rows it has taken. */
final class OpenWindow {

  /** A window's record is its rows' measurement with this suffix: {@code net} → {@code net_10s}. */
  static final String SUFFIX = WindowTopology.NAME_SUFFIX;

  final String name;
  final Map<String, String> tags;
  final long startMs;
  long rows;
  final Map<String, FieldStats> fields = new LinkedHashMap<>();
  /**
   * This window in the store's binary form, kept until a row changes it: a host's value is written on every input
   * record, and most of its windows (other scopes' earlier windows) have not changed since the last time.
   */
  byte[] encoded;
  /** Its name, tags, field names and units in that form: they change only when a field first appears. */
  byte[] header;

  /** One field's aggregates; its unit is the rows'. */
  static final class FieldStats {
    final String unit;
    double sum;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    long count;

    FieldStats(String unit) {
      this.unit = unit;
    }

    void add(double value) {
      sum += value;
      min = Math.min(min, value);
      max = Math.max(max, value);
      count++;
    }
  }

  /**
   * What a window is of, within its host: the measurement and every tag (interface, run, source, ...). A record, not
   * a string of both: it is looked up for every row, and printing the tags each time cost more than the window's sums.
   */
  record Scope(String name, Map<String, String> tags) {}

  Scope scope() {
    return new Scope(name, tags);
  }

  OpenWindow(String name, Map<String, String> tags, long startMs) {
    this.name = name;
    this.tags = tags;
    this.startMs = startMs;
  }

  /** Takes a row's finite values; a field a row lacks (or gives as NaN) is averaged over the rows that have it. */
  void add(WideSample row) {
    encoded = null;
    rows++;
    row.fields().forEach((field, value) -> {
      if (value != null && Double.isFinite(value)) {
        FieldStats stats = fields.get(field);
        if (stats == null) {
          stats = new FieldStats(row.units().get(field));
          fields.put(field, stats);
          header = null;
        }
        stats.add(value);
      }
    });
  }

  /**
   * The window as a record: {@code FIELD_mean}, {@code FIELD_min}, {@code FIELD_max} in the field's unit, and
   * {@code count}, the rows it holds (seconds, for a per-second sampler); time is the window's start.
   */
  WideSample toRecord() {
    Map<String, Double> out = new LinkedHashMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    fields.forEach((field, s) -> {
      out.put(field + "_mean", s.sum / s.count);
      out.put(field + "_min", s.min);
      out.put(field + "_max", s.max);
      units.put(field + "_mean", s.unit);
      units.put(field + "_min", s.unit);
      units.put(field + "_max", s.unit);
    });
    out.put("count", (double) rows);
    units.put("count", Units.COUNT);
    return new WideSample(WideSample.SCHEMA, name + SUFFIX, tags, out, units, startMs);
  }
}
