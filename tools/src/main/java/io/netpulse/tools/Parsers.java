package io.netpulse.tools;

import io.netpulse.tools.iperf.IperfParser;
import io.netpulse.tools.iperf3.Iperf3Parser;
import io.netpulse.tools.netperf.NetperfParser;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.ping.PingParser;
import io.netpulse.tools.proc.ProcNetDevParser;
import io.netpulse.tools.proc.ProcStatParser;
import io.netpulse.tools.qperf.QperfLoopParser;
import io.netpulse.tools.qperf.QperfParser;
import io.netpulse.tools.sar.SarDevParser;
import io.netpulse.tools.sockperf.SockperfParser;
import io.netpulse.tools.ss.SsSummaryParser;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** All parsers by format name: what {@code netpulse parse --format} and the topology look up. */
public final class Parsers {

  private static final Map<String, OutputParser> BY_FORMAT = new LinkedHashMap<>();

  static {
    register(new SarDevParser());
    register(new ProcNetDevParser());
    register(new ProcStatParser());
    register(new SsSummaryParser());
    register(new NetperfParser());
    register(new Iperf3Parser());
    register(new IperfParser());
    register(new QperfParser());
    register(new QperfLoopParser("tcp_lat"));
    register(new QperfLoopParser("udp_lat"));
    register(new SockperfParser());
    register(new PingParser());
  }

  private Parsers() {}

  private static void register(OutputParser parser) {
    BY_FORMAT.put(parser.format(), parser);
  }

  /** The parser for {@code format}; IllegalArgumentException naming the known formats if none. */
  public static OutputParser forFormat(String format) {
    OutputParser parser = format == null ? null : BY_FORMAT.get(format);
    if (parser == null) {
      throw new IllegalArgumentException(
          "unknown format '" + format + "', known formats: " + String.join(", ", formats()));
    }
    return parser;
  }

  /** The single-line parser for a line's {@code source}, empty if that source needs whole outputs. */
  public static Optional<LineParser> lineParser(String source) {
    OutputParser parser = source == null ? null : BY_FORMAT.get(source);
    return parser instanceof LineParser lp ? Optional.of(lp) : Optional.empty();
  }

  public static List<String> formats() {
    return new ArrayList<>(BY_FORMAT.keySet());
  }
}
