package io.netpulse.processor.it;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.Topics;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.Parsers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A recorded run replayed through the topics: three repetitions of {@code rx_bandwidth} on host
 * {@code sut}, each streaming the real {@code sar -n DEV 1} recording ramp-plateau.txt line by line
 * under its own run id, with MEASURING … DONE on {@code runs} around a different 10-s window each;
 * plus optional background hosts streaming the same lines without a run (fleet monitoring).
 */
public final class RecordedReplay {

  public static final String PLAN = "replay-plan";
  public static final String TEST = "rx_bandwidth";
  static final Instant RECEIVED = Instant.parse("2026-11-30T05:49:00Z");
  /** Measuring window start of each repetition (index 0 = repetition 1); each lasts 10 s. */
  static final Instant[] WINDOWS = {
      Instant.parse("2026-11-30T05:48:56Z"), Instant.parse("2026-11-30T05:48:58Z"), Instant.parse("2026-11-30T05:49:00Z")};

  private final Topics topics;

  public RecordedReplay(Topics topics) {
    this.topics = topics;
  }

  static List<String> sarLines() {
    try (InputStream in = RecordedReplay.class.getResourceAsStream("/io/netpulse/processor/run/ramp-plateau.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String runId(int repetition) {
    return "replay-r" + repetition;
  }

  /** Lifecycle opening the window of a repetition. */
  public ProducerRecord<String, byte[]> measuring(int repetition) {
    return phase(repetition, Phase.MEASURING, WINDOWS[repetition - 1].toEpochMilli());
  }

  public ProducerRecord<String, byte[]> done(int repetition) {
    return phase(repetition, Phase.DONE, WINDOWS[repetition - 1].toEpochMilli() + 10_000);
  }

  private ProducerRecord<String, byte[]> phase(int repetition, Phase phase, long ts) {
    String run = runId(repetition);
    return new ProducerRecord<>(topics.runs(), run,
        Json.bytes(RunEvent.ofRepetition(run, PLAN, TEST, repetition, phase, ts, null, null, null, null)));
  }

  /** The sar lines of one host, with run id {@code run} (null for fleet monitoring). */
  public List<ProducerRecord<String, byte[]>> lines(String host, String run) {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
    long seq = 0;
    for (String line : sarLines()) {
      out.add(new ProducerRecord<>(topics.lines(), host,
          Json.bytes(LineEvent.of(host, Sources.SAR_DEV, run, seq++, RECEIVED.toEpochMilli(), line))));
    }
    return out;
  }

  /** Rows the recording gives per host (what {@code metrics} must hold once per host): one per interface and second. */
  public static int rowsPerHost() {
    int n = 0;
    for (String line : sarLines()) {
      n += WideSample.group(Parsers.lineParser(Sources.SAR_DEV).orElseThrow()
          .parseLine(line, 0, ParseContext.streamed(RECEIVED.toEpochMilli())).samples(), Sources::measurementOf).size();
    }
    return n;
  }

  /**
   * Each per-second row's rx_bps by interface and time ("lo@1796010526000"), as the store must hold them: sar's
   * Average: rows are a whole-run summary, not a second, and are not stored.
   */
  public static java.util.Map<String, Double> rxBpsByInterfaceAndTime() {
    java.util.Map<String, Double> out = new java.util.HashMap<>();
    for (String line : sarLines()) {
      for (WideSample row : WideSample.group(Parsers.lineParser(Sources.SAR_DEV).orElseThrow()
          .parseLine(line, 0, ParseContext.streamed(RECEIVED.toEpochMilli())).samples(), Sources::measurementOf)) {
        if (!row.summaryRow()) {
          out.put(row.tags().get("interface") + "@" + row.time(), row.fields().get("rx_bps"));
        }
      }
    }
    return out;
  }

  /**
   * The value a repetition must get, computed here independently: the highest per-interface mean
   * of rx_bps over the window.
   */
  /**
   * The repetition's value worked out from the recorded rows: the busiest interface's mean rx_bps over the rows that
   * lie wholly inside the 10-s window whatever sar's phase (stamped W: W - 1 s >= start, W + 1 s <= end).
   */
  public static double expectedValue(int repetition) {
    long start = WINDOWS[repetition - 1].toEpochMilli();
    java.util.Map<String, double[]> byIface = new java.util.HashMap<>();
    for (String line : sarLines()) {
      for (Sample s : Parsers.lineParser(Sources.SAR_DEV).orElseThrow()
          .parseLine(line, 0, new ParseContext(ZoneOffset.UTC, RECEIVED.toEpochMilli(), null)).samples()) {
        if (!s.summary() && s.metric().equals("rx_bps") && s.ts() - 1000 >= start && s.ts() + 1000 <= start + 10_000) {
          double[] sc = byIface.computeIfAbsent(s.iface(), k -> new double[2]);
          sc[0] += s.value();
          sc[1]++;
        }
      }
    }
    return byIface.values().stream().mapToDouble(sc -> sc[0] / sc[1]).max().orElseThrow();
  }
}
