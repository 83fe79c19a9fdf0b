package io.netpulse.launcher.report;

import io.netpulse.common.Topics;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.event.HostInfo;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What a three-repetition execution of a plan leaves on the topics, as the launcher and the processor
 * write it: lifecycles on runs, 1-s and 10-s rates of the SUT and of other series, results (with an older
 * version of one key, another plan's result and a deleted key that must not show), and records a foreign
 * producer might leave (not JSON, fields missing) that must be skipped.
 */
final class ReportFixture {

  static final String PLAN = "np-report";
  static final String EXECUTION = PLAN + "-20261130T120000Z";
  /** An earlier execution of the plan: on results under its own keys (schema 2), never in the report. */
  static final String EARLIER = PLAN + "-20261130T110000Z";
  static final Map<String, String> LABELS = Map.of("instance_type", "c7.large");
  static final HostInfo SUT_FACTS = new HostInfo("sut", "6.1.0-test", "Test CPU", 2, 8_000_000L, "eth0",
      "virtio_net", 2, 2, 1500, null, Map.of("sar", "sysstat version 12.6.1"));
  /** A test name that would run script, end a script block or break a CSV row if not escaped. */
  static final String HOSTILE = "rx <b>\"bw\"</b>, </script><script>alert(1)</script>";
  /** A test name a spreadsheet would run as a formula. */
  static final String FORMULA = "=SUM(A1)";
  static final String SUT = "sut";

  /** Start of the first repetition's first second, ten minutes ago. */
  final long base = (System.currentTimeMillis() / 1000 - 600) * 1000;
  /** run id → measuring start; each repetition measures 10 s, starting 250 ms into a second. */
  final Map<String, Long> measuringStart = new TreeMap<>();

  private final List<ProducerRecord<String, String>> records = new ArrayList<>();
  private final Topics topics;

  ReportFixture(Topics topics) {
    this.topics = topics;
  }

  static String run(int test, int repetition) {
    return EXECUTION + "-t" + test + "-r" + repetition;
  }

  static double rxBps(int repetition, int second) {
    return 9_400_000_000.0 + repetition * 10_000_000 + second * 1000;
  }

  ReportFixture write(String bootstrapServers) {
    // test 1: latency (tool figures: bars only); test 2: rx_bandwidth under a hostile name (sar: series);
    // test 3: tcp_rr named like a formula (trans_per_s a tool figure, rx_pps from sar)
    lifecycle(1, "latency", "latency", null);
    lifecycle(2, HOSTILE, "rx_bandwidth", "eth0");
    lifecycle(3, FORMULA, "tcp_rr", "eth0");
    for (int rep = 1; rep <= 3; rep++) {
      long start = measuringStart.get(run(2, rep));
      for (int s = -3; s <= 13; s++) { // from before the window to after it
        long w = start - 250 + s * 1000L;
        row(SUT, "eth0", "rx_bps", "bit/s", false, w, rxBps(rep, s));
        row(SUT, "eth0", "tx_bps", "bit/s", false, w, 1_000_000); // another field
        row("peer", "eth0", "rx_bps", "bit/s", false, w, 5_000_000); // another host
        row(SUT, "eth1", "rx_bps", "bit/s", false, w, 7_000_000); // another interface of the SUT
        row(SUT, "eth0", "rx_bps", "bit/s", true, w, 1); // a whole-run summary (sar's Average: row)
      }
      long start3 = measuringStart.get(run(3, rep));
      for (int s = 0; s < 10; s++) {
        row(SUT, "eth0", "rx_pps", "packets/s", false, start3 - 250 + s * 1000L, 50_000 + rep * 100 + s);
      }
    }
    ResultEvent earlier = new ResultEvent(ResultEvent.SCHEMA, PLAN, "latency", "tcp_lat_us", "us",
        new TreeMap<>(Map.of(1, 88.8, 2, 88.8, 3, 88.8)), 3, 88.8, 0.0, 0.0, List.of(SUT), List.of("old"), base,
        EARLIER, Map.of("instance_type", "c6.large"), List.of(), true, 3, 3, null, null);
    records.add(new ProducerRecord<>(topics.results(), earlier.key(), Json.text(earlier)));
    result(1, "latency", "tcp_lat_us", "us", 99.0, 99.0, 99.0, 99.0, 0.0, 0.0); // replaced below
    result(1, "latency", "tcp_lat_us", "us", 27.1, 33.5, 34.2, 31.6, 3.9, 9.72);
    result(1, "latency", "udp_lat_us", "us", 51.6, 79.2, 31.5, 54.1, 23.9, 59.49);
    result(1, "latency", "rtt_avg_ms", "ms", 0.115, 0.072, 0.063, 0.08333, 0.0278, 0.06904);
    result(2, HOSTILE, "rx_bps", "bit/s", 347938556.6, 358195582.3, 304140697.6, 336758278.8, 28706213.4,
        71318187.6);
    result(3, FORMULA, "trans_per_s", "transactions/s", 55051.07, 54000.5, 56101.6, 55051.06, 1050.6, 2609.9);
    result(3, FORMULA, "rx_pps", "packets/s", 51173.56, 50000.0, 52347.1, 51173.55, 1173.6, 2915.4);
    ResultEvent other = new ResultEvent(ResultEvent.SCHEMA, "other-plan", "elsewhere", "rx_bps", "bit/s",
        new TreeMap<>(Map.of(1, 1.0)), 1, 1.0, null, null, List.of(SUT), List.of("x"), base, "other", null, null,
            false, null, 1, null, null);
    records.add(new ProducerRecord<>(topics.results(), other.key(), Json.text(other)));
    ResultEvent deleted = new ResultEvent(ResultEvent.SCHEMA, PLAN, "gone", "rx_bps", "bit/s",
        new TreeMap<>(Map.of(1, 1.0)), 1, 1.0, null, null, List.of(SUT), List.of("x"), base, EXECUTION, null, null,
            false, null, 1, null, null);
    records.add(new ProducerRecord<>(topics.results(), deleted.key(), Json.text(deleted)));
    records.add(new ProducerRecord<>(topics.results(), deleted.key(), null));
    records.add(new ProducerRecord<>(topics.results(), PLAN + "/junk/x", "not json {"));
    records.add(new ProducerRecord<>(topics.results(), PLAN + "/half/x", "{\"plan\":\"" + PLAN + "\"}"));
    records.add(new ProducerRecord<>(topics.runs(), run(1, 1), "{\"run\":\"" + run(1, 1) + "\"}"));
    records.add(new ProducerRecord<>(topics.metrics(), "x", "{\"name\":\"net\"}"));
    send(bootstrapServers);
    return this;
  }

  private void lifecycle(int test, String name, String type, String iface) {
    for (int rep = 1; rep <= 3; rep++) {
      String run = run(test, rep);
      long t0 = base + ((test - 1) * 3 + rep - 1) * 20_000L;
      long start = t0 + 3_250;
      measuringStart.put(run, start);
      Phase[] phases = {Phase.PREPARING, Phase.WARMUP, Phase.MEASURING, Phase.STOPPING, Phase.DONE};
      long[] at = {t0, t0 + 1000, start, start + 10_000, start + 11_000};
      for (int i = 0; i < phases.length; i++) {
        RunEvent e = RunEvent.ofRepetition(run, PLAN, name, rep, phases[i], at[i], null, type, SUT, iface)
            .inExecution(EXECUTION, null);
        records.add(new ProducerRecord<>(topics.runs(), run, Json.text(e)));
      }
    }
  }

  /** One sar-dev row's field as the processor writes it on {@code metrics}. */
  private void row(String host, String iface, String metric, String unit, boolean summary, long time, double value) {
    Map<String, String> tags = new TreeMap<>(Map.of("host", host, "interface", iface, "source", "sar-dev"));
    if (summary) {
      tags.put("summary", "true");
    }
    WideSample r = new WideSample(WideSample.SCHEMA, "net", tags, Map.of(metric, value), Map.of(metric, unit), time);
    records.add(new ProducerRecord<>(topics.metrics(), (Integer) null, time, host, Json.text(r)));
  }

  private void result(int test, String name, String metric, String unit, double r1, double r2, double r3,
      double mean, double stddev, double ci95) {
    TreeMap<Integer, Double> values = new TreeMap<>(Map.of(1, r1, 2, r2, 3, r3));
    List<String> runs = List.of(run(test, 1), run(test, 2), run(test, 3));
    // as the processor says them: a rate's repetitions stopped precise, with its precision; a latency (a printed
    // figure) at its duration, without one
    TreeMap<Integer, ResultEvent.Stop> stops = new TreeMap<>();
    double[] precisions = {0.0025, 0.005, 0.0075};
    for (int rep = 1; rep <= 3; rep++) {
      stops.put(rep, unit.endsWith("/s") ? new ResultEvent.Stop("precise", precisions[rep - 1])
          : new ResultEvent.Stop("duration", null));
    }
    ResultEvent r = new ResultEvent(ResultEvent.SCHEMA, PLAN, name, metric, unit, values, 3, mean, stddev, ci95,
        List.of(SUT), runs, measuringStart.get(run(test, 3)) + 10_000, EXECUTION, LABELS, List.of(SUT_FACTS), true, 3,
        3, null, stops);
    records.add(new ProducerRecord<>(topics.results(), r.key(), Json.text(r)));
  }

  private void send(String bootstrapServers) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    // every send checked: unchecked, a lost batch (KAFKA-15591, written a moment after its topic was created; now
    // prevented by TopicCreation) cost repetitions 1 and 2's rates without a word, and the chart tests failed on data
    // the fixture never wrote. Time enough for a loaded machine. No sending again by hand: the producer's own retries
    // keep a partition's order, which the report's reader relies on (rates stamped in about the order written)
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
        new StringSerializer())) {
      List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
      records.forEach(r -> sent.add(producer.send(r)));
      producer.flush();
      for (java.util.concurrent.Future<?> f : sent) {
        f.get();
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("the report fixture was not written: " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted writing the report fixture", e);
    }
  }
}
