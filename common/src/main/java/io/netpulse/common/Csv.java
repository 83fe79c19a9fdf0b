package io.netpulse.common;

import io.netpulse.common.event.ResultEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * RFC 4180 CSV for the dashboard's download and {@code netpulse report}: text fields and label columns. Names come from the
 * topics, so a leading {@code = + - @}, tab or CR (spreadsheets run such a cell as a formula) gets an apostrophe, as
 * OWASP's CSV-injection advice says; then the field is quoted when it holds a comma, quote or line break, or starts
 * or ends with a space. Numbers are written by netpulse and go in as they are.
 */
public final class Csv {

  private Csv() {}

  public static String field(String s) {
    if (s == null) {
      return "";
    }
    String v = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    boolean quote = v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")
        || (!v.isEmpty() && (v.charAt(0) == ' ' || v.charAt(v.length() - 1) == ' '));
    return quote ? '"' + v.replace("\"", "\"\"") + '"' : v;
  }

  /**
   * The label columns of a CSV of results, {@code netpulse report --format csv}'s and the dashboard's download alike:
   * one column {@code label_KEY} per label key any row has, keys sorted, after the other columns; a row's cell is its
   * label's value, empty where it has none. A column per key rather than one {@code k=v;k=v} cell: a spreadsheet
   * filters, sorts and pivots on {@code label_instance_type} as it is, where a packed cell would first need splitting
   * (and escaping rules of its own for '=' and ';' in values); {@code label_KEY} is also the store's tag name.
   *
   * @param labels each row's labels (null: none)
   * @return the keys, sorted: {@link #labelHeader} and {@link #labelCells} take them
   */
  public static List<String> labelKeys(Collection<Map<String, String>> labels) {
    TreeSet<String> keys = new TreeSet<>();
    labels.stream().filter(Objects::nonNull).forEach(m -> keys.addAll(m.keySet()));
    return List.copyOf(keys);
  }

  /** The header cells of {@code keys}: {@code label_KEY}, quoted as any text field. */
  public static List<String> labelHeader(List<String> keys) {
    return keys.stream().map(k -> field("label_" + k)).toList();
  }

  /**
   * The stop columns of a CSV of results, {@code netpulse report --format csv}'s and the dashboard's download alike:
   * {@code stop_N} for each column N (why that repetition's measuring ended: precise, settled or duration), then
   * {@code precision_N} (its value's 95 % confidence half-width, a fraction of it).
   */
  public static List<String> stopHeader(List<Integer> columns) {
    List<String> out = new ArrayList<>();
    columns.forEach(n -> out.add("stop_" + n));
    columns.forEach(n -> out.add("precision_" + n));
    return out;
  }

  /**
   * One row's stop cells, in {@link #stopHeader}'s order: {@code stops} holds each column's stop (null: none, as for a
   * result from before stops were recorded); {@code number} writes a precision as the row's other numbers are.
   */
  public static List<String> stopCells(List<ResultEvent.Stop> stops, Function<Double, String> number) {
    List<String> out = new ArrayList<>();
    stops.forEach(s -> out.add(s == null ? "" : field(s.reason())));
    stops.forEach(s -> out.add(s == null || s.precision() == null ? "" : number.apply(s.precision())));
    return out;
  }

  /** One row's cells for {@code keys}: the value, or empty where the row has no such label. */
  public static List<String> labelCells(List<String> keys, Map<String, String> labels) {
    return keys.stream().map(k -> labels == null ? "" : field(labels.get(k))).toList();
  }
}
