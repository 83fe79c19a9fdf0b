package io.netpulse.cli.topics;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Columns padded to their widest cell, as Kafka's own tools print them, so that `watch` output stays readable. */
final class TextTable {

  private final List<List<String>> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(List.of(header));
  }

  TextTable row(Object... cells) {
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(c == null ? "-" : c.toString());
    }
    rows.add(row);
    return this;
  }

  boolean isEmpty() {
    return rows.size() == 1;
  }

  void print(PrintWriter out) {
    int columns = rows.get(0).size();
    int[] width = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row.get(i) : String.format("%-" + (width[i] + 2) + "s", row.get(i)));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
