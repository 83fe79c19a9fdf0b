package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * {@code tool-output} → {@code samples} (keyed by host) and a stream of {@link ToolFigure}s keyed by
 * run for the run values. A failed tool (non-zero exit), an unknown tool and every line its parser
 * could not read go to {@code dlq} with the reason; values are read as bytes so that even non-JSON
 * reaches the DLQ.
 */
public final class ToolOutputTopology {

  /** netperf's test type when the output has no banner (-P 0) comes from the command's {@code -t}. */
  private static final Pattern NETPERF_TEST = Pattern.compile("(?:^|\\s)-t\\s*([A-Za-z_]+)");

  private final Topics topics;

  public ToolOutputTopology(Topics topics) {
    this.topics = topics;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder);
    return builder.build();
  }

  /** Adds the step and returns the figures, keyed by run. */
  public KStream<String, ToolFigure> build(StreamsBuilder builder) {
    KStream<String, ParseTopology.Outcome> outcomes = builder
        .stream(topics.toolOutput(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("tool-output"))
        .processValues(() -> RawRecordReader.of(topics.toolOutput(), this::parse), Named.as("parse-tool-output"));
    outcomes.filter((k, o) -> o.deadLetter() != null, Named.as("tool-output-unparsed"))
        .map((k, o) -> KeyValue.pair(DeadLetter.boundedKey(k), o.deadLetter()), Named.as("tool-output-dead-letters"))
        .to(topics.dlq(), Produced.with(Serdes.String(), ProcessorSerdes.json(DeadLetter.class)).withName("tool-output-dlq"));
    KStream<String, ToolFigure> figures = outcomes
        .filter((k, o) -> o.figure() != null, Named.as("tool-output-parsed"))
        .mapValues(ParseTopology.Outcome::figure, Named.as("tool-figures"));
    outcomes.filter((k, o) -> o.rows() != null, Named.as("tool-output-wide"))
        .flatMap((run, o) -> o.rows().stream().map(w -> KeyValue.pair(w.tags().get("host"), w)).toList(),
            Named.as("tool-wide-by-host"))
        .to(topics.metrics(), Produced.with(Serdes.String(), ProcessorSerdes.json(WideSample.class))
            .withName("tool-metrics"));
    return figures;
  }

  private List<ParseTopology.Outcome> parse(String key, byte[] raw, Origin origin) {
    String keyProblem = InputLimits.keyProblem(key);
    if (keyProblem != null) {
      return List.of(dead(origin, key, raw, keyProblem));
    }
    ToolOutputEvent out;
    try {
      out = Json.read(raw, ToolOutputEvent.class);
    } catch (IOException | RuntimeException e) {
      return List.of(dead(origin, key, raw, "not a tool-output event: " + ParseTopology.firstLine(e.getMessage())));
    }
    if (out == null || out.run() == null || out.tool() == null || out.host() == null || out.stdout() == null) {
      return List.of(dead(origin, key, raw, "tool-output event lacks one of run, host, tool, stdout"));
    }
    String nameProblem = InputLimits.nameProblem("run", out.run(), "host", out.host(), "tool", out.tool(),
        "test", out.test(), "instance", out.instance());
    if (nameProblem != null) {
      return List.of(dead(origin, key, raw, "tool-output event with " + nameProblem));
    }
    String where = out.tool() + " on " + out.host() + " (run " + out.run() + ", instance " + out.instance() + ")";
    if (out.exit() != 0) {
      return List.of(dead(origin, key, raw, where + " exited with status " + out.exit() + ": "
          + ParseTopology.firstLine(out.stderr() == null || out.stderr().isBlank() ? "no stderr" : out.stderr().strip())));
    }
    OutputParser parser;
    try {
      parser = Parsers.forFormat(out.tool());
    } catch (IllegalArgumentException e) {
      return List.of(dead(origin, key, raw, where + ": " + e.getMessage()));
    }
    long reference = out.ended() > 0 ? out.ended() : out.started();
    ParseContext context = new ParseContext(ZoneOffset.UTC, reference, netperfTest(out.command()));
    ParseResult result;
    try {
      result = parser.parse(out.stdout().lines().toList(), context);
    } catch (RuntimeException e) { // parsers must not throw; if one does, keep the output anyway
      return List.of(dead(origin, key, raw, where + ": parser failed: " + e));
    }
    List<ParseTopology.Outcome> outcomes = new ArrayList<>();
    List<Sample> figures = new ArrayList<>(result.samples().size());
    for (Sample s : result.samples()) {
      Sample placed = s.withOrigin(out.host(), out.run(), out.tool());
      if (placed.ts() <= 0) { // whole-run figures carry no time of their own: the tool's end
        placed = new Sample(placed.schema(), placed.metric(), placed.value(), placed.unit(), placed.host(),
            placed.iface(), reference, placed.run(), placed.source(), placed.summary(), placed.test(),
            placed.instance());
      }
      outcomes.add(ParseTopology.Outcome.of(new ToolFigure(out.run(), out.test(), out.repetition(), out.instance(),
          placed, seriesOf(out.tool(), placed, result.samples()))));
      figures.add(placed.instance() == null ? placed.withInstance(out.instance()) : placed); // one record per instance
    }
    List<WideSample> rows = WideSample.group(figures, Sources::measurementOf);
    if (!rows.isEmpty()) {
      outcomes.add(ParseTopology.Outcome.of(rows));
    }
    for (ParseError error : result.errors()) {
      outcomes.add(dead(origin, key, raw, where + ": " + error.describe()));
    }
    if (result.samples().isEmpty() && result.errors().isEmpty()) {
      outcomes.add(dead(origin, key, raw, where + ": no figure found in the output"));
    }
    return outcomes;
  }

  /**
   * For a printed figure that is the mean of per-reply figures (the catalog's series: ping's rtt_avg_ms of its rtt_ms
   * lines), those figures in the order the tool printed them; null for any other.
   */
  private static List<Double> seriesOf(String tool, Sample figure, List<Sample> samples) {
    String series = figure.summary() ? Catalog.seriesOf(tool, figure.metric()) : null;
    if (series == null) {
      return null;
    }
    List<Double> out = new ArrayList<>();
    for (Sample s : samples) {
      if (!s.summary() && series.equals(s.metric())) {
        out.add(s.value());
      }
    }
    return out;
  }

  static String netperfTest(String command) {
    if (command == null) {
      return null;
    }
    Matcher m = NETPERF_TEST.matcher(command);
    return m.find() ? m.group(1).toUpperCase(java.util.Locale.ROOT) : null;
  }

  private static ParseTopology.Outcome dead(Origin origin, String key, byte[] raw, String reason) {
    return new ParseTopology.Outcome(null, origin.deadLetter(key, raw, reason));
  }
}
