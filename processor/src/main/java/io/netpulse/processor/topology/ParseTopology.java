package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.LineRecords;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * {@code lines} → {@code metrics} (one record per row), keyed by host. A line no parser understands goes to {@code dlq}
 * whole, with the reason, so nothing is lost and a parser fix can replay it. Values are read as
 * raw bytes so that even a record that is not JSON reaches the DLQ instead of stopping the app. A record is a
 * block of lines ({@code LineBlock}) or, as written before blocks, one line; a bad line of a block goes to the DLQ
 * alone, as the one-line record it would have been, and the block's other lines are parsed.
 */
public final class ParseTopology {

  /**
   * Key under which a {@link java.util.concurrent.atomic.LongAdder} travels in the Streams configuration to count the
   * lines parsed (a record is a block of lines, so the topic's record count is not the line count).
   */
  public static final String LINES_READ_CONFIG = "netpulse.processor.lines.read";

  private final Topics topics;

  public ParseTopology(Topics topics) {
    this.topics = topics;
  }

  /**
   * What the parse step gives later steps of the same application, so that they need not read the topics back.
   *
   * @param samples one per value, keyed by host, timestamped with each sample's own time: in-process only, for the run
   *                values and steady detection (no topic holds them)
   * @param rows    the rows one input record gave (sar's block for one second: a row per interface), as written to
   *                {@code metrics} one record each, keyed by host: a step with state per host updates it once per
   *                input record rather than once per row
   */
  public record Parsed(KStream<String, Sample> samples, KStream<String, List<WideSample>> rows) {}

  /** Adds the parse step to {@code builder}. */
  public Parsed build(StreamsBuilder builder) {
    KStream<String, Outcome> outcomes =
        builder.addStateStore(ProcNetDevRates.storeBuilder()).addStateStore(ProcStatCpu.storeBuilder())
            .stream(topics.lines(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("lines"))
            .processValues(ParseLines::new, Named.as("parse-lines"), ProcNetDevRates.STORE, ProcStatCpu.STORE);

    outcomes.filter((k, o) -> o.deadLetter() != null, Named.as("unparsed"))
        .map((k, o) -> KeyValue.pair(DeadLetter.boundedKey(k), o.deadLetter()), Named.as("dead-letters"))
        .to(topics.dlq(), Produced.with(Serdes.String(), ProcessorSerdes.json(DeadLetter.class)));

    KStream<String, List<WideSample>> rows =
        outcomes.filter((k, o) -> o.rows() != null, Named.as("parsed-wide")).mapValues(Outcome::rows, Named.as("wide"));
    rows.flatMapValues(r -> r, Named.as("row-by-row"))
        .to(topics.metrics(), Produced.with(Serdes.String(), ProcessorSerdes.json(WideSample.class)));

    KStream<String, Sample> samples =
        outcomes.filter((k, o) -> o.sample() != null, Named.as("parsed")).mapValues(Outcome::sample);
    return new Parsed(samples.processValues(SampleTime::new, Named.as("line-sample-time")), rows);
  }

  /** Standalone topology of this step alone, for tests and for running it on its own. */
  public org.apache.kafka.streams.Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder);
    return builder.build();
  }

  /**
   * Each line to its outcomes; proc-net-dev rows against their interface's previous row, proc-stat CPU lines against
   * their CPU's previous line (state).
   */
  private final class ParseLines implements FixedKeyProcessor<String, byte[], Outcome> {
    private FixedKeyProcessorContext<String, Outcome> context;
    private ProcNetDevRates procNetDev;
    private ProcStatCpu procStat;
    private java.util.concurrent.atomic.LongAdder linesRead;

    @Override
    public void init(FixedKeyProcessorContext<String, Outcome> context) {
      this.context = context;
      this.linesRead = context.appConfigs().get(LINES_READ_CONFIG) instanceof java.util.concurrent.atomic.LongAdder l
          ? l : new java.util.concurrent.atomic.LongAdder();
      this.procNetDev = new ProcNetDevRates(context.getStateStore(ProcNetDevRates.STORE));
      this.procStat = new ProcStatCpu(context.getStateStore(ProcStatCpu.STORE));
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
      Origin origin = Origin.of(context.recordMetadata(), topics.lines());
      List<Outcome> outcomes;
      try {
        outcomes = parse(record.key(), record.value(), origin, procNetDev, procStat, linesRead);
      } finally {
        // the readings its lines changed, written once for the record (the state goes with the record's outputs)
        procNetDev.recordDone();
        procStat.recordDone();
      }
      List<Sample> parsed = new ArrayList<>(outcomes.size());
      for (Outcome o : outcomes) {
        if (o.sample() != null) {
          parsed.add(o.sample());
        }
        // samples go on only to the run values, which take those of a run: a fleet's go no further than the rows
        if (o.deadLetter() != null || (o.sample() != null && o.sample().run() != null)) {
          context.forward(record.withValue(o));
        }
      }
      // the record's rows, each with all its values: a block of sar's second gives one record per interface
      List<WideSample> rows = WideSample.group(parsed, Sources::measurementOf);
      if (!rows.isEmpty()) {
        context.forward(record.withValue(Outcome.of(rows)));
      }
    }
  }

  private List<Outcome> parse(String key, byte[] raw, Origin origin, ProcNetDevRates procNetDev,
      ProcStatCpu procStat, java.util.concurrent.atomic.LongAdder linesRead) {
    String keyProblem = InputLimits.keyProblem(key);
    if (keyProblem != null) {
      linesRead.increment();
      return List.of(dead(origin, key, raw, keyProblem));
    }
    List<LineEvent> lines;
    try {
      lines = LineRecords.read(raw);
    } catch (IOException | RuntimeException e) {
      linesRead.increment();
      return List.of(dead(origin, key, raw, "not a line event: " + firstLine(e.getMessage())));
    }
    linesRead.add(lines.size());
    if (lines.size() == 1) {
      return parse(key, () -> raw, lines.get(0), "", origin, procNetDev, procStat);
    }
    List<Outcome> out = new ArrayList<>();
    long first = lines.get(0).seq();
    for (int i = 0; i < lines.size(); i++) {
      LineEvent line = lines.get(i);
      // a dead letter carries the line alone, as a one-line record: replayed to lines, it is read like any other;
      // made only for a line that goes there
      String where = " (line " + (i + 1) + " of " + lines.size() + " of the block from seq " + first + ")";
      out.addAll(parse(key, () -> Json.bytes(line), line, where, origin, procNetDev, procStat));
    }
    return out;
  }

  private List<Outcome> parse(String key, java.util.function.Supplier<byte[]> raw, LineEvent line, String where,
      Origin origin, ProcNetDevRates procNetDev, ProcStatCpu procStat) {
    if (line == null || line.line() == null || line.source() == null || line.host() == null) {
      return List.of(dead(origin, key, raw.get(), "line event lacks one of host, source, line" + where));
    }
    String nameProblem = InputLimits.nameProblem("host", line.host(), "source", line.source(), "run", line.run(),
        "instance", line.instance());
    if (nameProblem != null) {
      return List.of(dead(origin, key, raw.get(), "line event with " + nameProblem + where));
    }
    Optional<LineParser> parser = Parsers.lineParser(line.source());
    if (parser.isEmpty() && !ProcNetDevRates.handles(line) && !ProcStatCpu.handles(line)) {
      return List.of(dead(origin, key, raw.get(), "no line parser for source '" + line.source() + "'" + where));
    }
    ParseResult result;
    try {
      result = parser.isPresent() ? parser.get().parseLine(line.line(), 0, ParseContext.streamed(line.ts()))
          : ProcStatCpu.handles(line) ? procStat.parse(line) : procNetDev.parse(line);
    } catch (RuntimeException e) { // parsers must not throw; if one does, keep the line anyway
      return List.of(dead(origin, key, raw.get(), "parser " + line.source() + " failed: " + e + where));
    }
    List<Outcome> out = new ArrayList<>(result.samples().size() + result.errors().size());
    for (Sample s : result.samples()) {
      out.add(new Outcome(s.withOrigin(line.host(), line.run(), line.source()).withInstance(line.instance()), null));
    }
    for (ParseError error : result.errors()) {
      out.add(dead(origin, key, raw.get(), line.source() + " seq " + line.seq() + where + ": " + error.describe()));
    }
    return out;
  }

  private static Outcome dead(Origin origin, String key, byte[] raw, String reason) {
    return new Outcome(null, origin.deadLetter(key, raw, reason));
  }

  static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /**
   * A sample, the rows of one input record, a tool figure or a dead letter: one parse step, several destinations.
   */
  record Outcome(Sample sample, DeadLetter deadLetter, ToolFigure figure, List<WideSample> rows) {

    Outcome(Sample sample, DeadLetter deadLetter) {
      this(sample, deadLetter, null, null);
    }

    static Outcome of(ToolFigure figure) {
      return new Outcome(null, null, figure, null);
    }

    static Outcome of(List<WideSample> rows) {
      return new Outcome(null, null, null, rows);
    }
  }
}
