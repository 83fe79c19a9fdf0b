package io.netpulse.collector;

/**
 * The complete output of one tool run ({@code tool-output}, keyed by run: docs/topics.md), for replay and audit next to the
 * per-line stream.
 *
 * @param run        run id (the record key)
 * @param test       test name of the plan
 * @param repetition 1-based repetition
 * @param host       host the tool ran on
 * @param role       server, client, sampler, ...
 * @param tool       netperf, iperf3, qperf, sockperf, ...
 * @param instance   instance number when a test fans out (0 otherwise)
 * @param command    command line as run
 * @param exit       exit status, null when it did not end by itself
 * @param stdout     standard output (truncated beyond {@link ToolOutputPublisher#MAX_TEXT_CHARS})
 * @param stderr     standard error (same)
 * @param started    epoch milliseconds at start
 * @param ended      epoch milliseconds at end
 */
public record ToolOutput(int schema, String run, String test, int repetition, String host, String role, String tool,
    int instance, String command, Integer exit, String stdout, String stderr, long started, long ended) {

  public static final int SCHEMA = 1;

  public static ToolOutput of(String run, String test, int repetition, String host, String role, String tool,
      int instance, String command, Integer exit, String stdout, String stderr, long started, long ended) {
    return new ToolOutput(SCHEMA, run, test, repetition, host, role, tool, instance, command, exit, stdout, stderr,
        started, ended);
  }
}
