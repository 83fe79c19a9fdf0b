package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.TestSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Ids of one execution of a plan and of its repetitions: {@code PLAN-20261130T081500Z} and
 * {@code PLAN-20261130T081500Z-t3r1}. Each repetition is a run of its own, so the processor's steady
 * detector starts afresh for it and its samples are told apart by run alone.
 */
final class RunIds {

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private RunIds() {}

  static String execution(String plan, Instant start) {
    return plan + "-" + STAMP.format(start);
  }

  static String run(String execution, TestSpec test, int repetition) {
    return execution + "-t" + test.index() + "r" + repetition;
  }
}
