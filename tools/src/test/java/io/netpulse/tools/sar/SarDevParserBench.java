package io.netpulse.tools.sar;

import io.netpulse.tools.Fixtures;
import io.netpulse.tools.parse.ParseContext;

import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Lines per second per core (one thread) of SarDevParser against a regex-and-split parser, on the
 * captured sar fixtures (rows, headers, blanks, Average rows as sar prints them). Not a test: run
 * with the command in docs/benchmarks.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class SarDevParserBench {

  static final int LINES = 1024;

  private String[] lines;
  private SarDevParser parser;
  private RegexSplitSarParser straightforward;
  private ParseContext context;

  @Setup
  public void setUp() {
    List<String> source = new java.util.ArrayList<>();
    source.addAll(Fixtures.lines("sar/sar-dev-ns-c.txt"));
    source.addAll(Fixtures.lines("sar/sar-dev-ns-12h.txt"));
    source.removeIf(l -> l.startsWith("Linux"));
    lines = new String[LINES];
    for (int i = 0; i < LINES; i++) {
      lines[i] = source.get(i % source.size());
    }
    parser = new SarDevParser();
    straightforward = new RegexSplitSarParser(LocalDate.of(2026, 11, 30));
    context = ParseContext.streamed(java.time.Instant.parse("2026-11-30T05:13:40Z").toEpochMilli());
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void scanning(Blackhole bh) {
    for (String line : lines) {
      bh.consume(parser.parseLine(line, 0, context));
    }
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void regexAndSplit(Blackhole bh) {
    for (String line : lines) {
      bh.consume(straightforward.parseLine(line));
    }
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(SarDevParserBench.class.getSimpleName()).build()).run();
  }
}
