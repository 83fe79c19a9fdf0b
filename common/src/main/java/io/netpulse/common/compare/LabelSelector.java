package io.netpulse.common.compare;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code KEY=VALUE[,KEY=VALUE]}: the executions whose labels hold every pair (labels come from the plan's
 * {@code labels:}). A value cannot hold a comma: the comma separates pairs.
 *
 * @param labels the pairs, by key
 */
public record LabelSelector(SortedMap<String, String> labels) {

  public LabelSelector {
    labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
  }

  /** Whether {@code arg} is meant as a selector rather than an execution id or a plan name: it has an '='. */
  public static boolean isSelector(String arg) {
    return arg.contains("=");
  }

  /** @throws ExecutionLookupException (MALFORMED) naming the pair that is not KEY=VALUE */
  public static LabelSelector parse(String selector) {
    SortedMap<String, String> m = new TreeMap<>();
    for (String pair : selector.split(",", -1)) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? "" : pair.substring(0, eq).strip();
      String value = eq < 0 ? "" : pair.substring(eq + 1).strip();
      if (key.isEmpty() || value.isEmpty()) {
        throw new ExecutionLookupException(ExecutionLookupException.Kind.MALFORMED, "label selector '" + selector
            + "': expected KEY=VALUE[,KEY=VALUE...], got '" + pair + "'");
      }
      String was = m.put(key, value);
      if (was != null && !was.equals(value)) {
        throw new ExecutionLookupException(ExecutionLookupException.Kind.MALFORMED, "label selector '" + selector
            + "': " + key + " is given twice (" + was + ", " + value + "); no execution can hold both");
      }
    }
    return new LabelSelector(m);
  }

  /** Whether {@code labels} (null: none) holds every pair of the selector. */
  public boolean matches(Map<String, String> labels) {
    return labels != null && labels.entrySet().containsAll(this.labels.entrySet());
  }
}
