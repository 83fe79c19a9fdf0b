package io.netpulse.common.event;

/**
 * The whole output of one finished tool instance (netperf, iperf3, qperf, sockperf, ping), keyed by
 * run on {@code tool-output}. Tools that print their figure once at the end are shipped whole
 * because their parsers need every line.
 *
 * @param test       netpulse test type of the repetition (tcp_crr, udp_stream, tcp_lat, ...)
 * @param repetition 1-based repetition number
 * @param role       client or server
 * @param tool       parser format name: netperf, iperf3, qperf, sockperf, ping, iperf
 * @param instance   instance id within the repetition (netperf fan-out: one per port)
 * @param command    the command line that ran (netperf's test type comes from {@code -t} with -P 0)
 * @param exit       exit status; non-zero outputs are not counted
 * @param started    epoch ms the tool started
 * @param ended      epoch ms the tool ended
 */
public record ToolOutputEvent(
    int schema,
    String run,
    String test,
    int repetition,
    String host,
    String role,
    String tool,
    String instance,
    String command,
    int exit,
    String stdout,
    String stderr,
    long started,
    long ended) {

  public static final int SCHEMA = 1;
}
