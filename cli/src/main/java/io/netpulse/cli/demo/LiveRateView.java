package io.netpulse.cli.demo;

import io.netpulse.common.Topics;
import io.netpulse.common.Units;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the {@code metrics} topic for one host/iface (its {@code net} records: a per-second sampler's 1-s rate is
 * its row) and prints a line per second once a newer second has come; keeps the seconds for the final table.
 */
final class LiveRateView implements AutoCloseable {

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private final String host;
  private final String iface;
  private final PrintStream out;
  private final KafkaConsumer<String, WideSample> consumer;
  private final NavigableMap<Long, Second> seconds = new ConcurrentSkipListMap<>();
  private final Thread thread;
  private volatile boolean running = true;
  private long lastPrinted;

  /** One second of the measured interface. */
  record Second(long start, double rxBps, double rxPps) {
    /** The second a row of it is for, its fields (0 where the row lacks one). */
    static Second of(WideSample row) {
      return new Second(row.time() - Math.floorMod(row.time(), 1000L), row.fields().getOrDefault("rx_bps", 0.0),
          row.fields().getOrDefault("rx_pps", 0.0));
    }
  }

  LiveRateView(KafkaConnection kafka, Topics topics, String host, String iface, PrintStream out) {
    this.host = host;
    this.iface = iface;
    this.out = out;
    consumer = new KafkaConsumer<>(kafka.clientProperties(Map.of(
        ConsumerConfig.GROUP_ID_CONFIG, "netpulse-demo-" + UUID.randomUUID(),
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")),
        new StringDeserializer(), JsonSerde.of(WideSample.class).deserializer());
    // Only what happens from now on: a reused data dir holds earlier demos' records.
    List<TopicPartition> partitions = consumer.partitionsFor(topics.metrics()).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
    thread = new Thread(this::follow, "demo-live-view");
    thread.setDaemon(true);
  }

  LiveRateView start() {
    thread.start();
    return this;
  }

  private void follow() {
    while (running) {
      for (ConsumerRecord<String, WideSample> rec : consumer.poll(Duration.ofMillis(200))) {
        WideSample r = rec.value();
        if (r != null && Sources.NET.equals(r.name()) && host.equals(r.tags().get("host"))
            && iface.equals(r.tags().get("interface")) && !r.summaryRow()) {
          Second s = Second.of(r);
          seconds.put(s.start(), s);
        }
      }
      printSettled();
    }
    consumer.close();
  }

  /** A second is printed once a later second has data: its window will not change much more. */
  private void printSettled() {
    if (seconds.isEmpty()) {
      return;
    }
    long newest = seconds.lastKey();
    for (Second s : seconds.subMap(lastPrinted, false, newest, false).values()) {
      out.printf("%s  %s/%-12s rx %16s %18s%n", CLOCK.format(Instant.ofEpochMilli(s.start())), host, iface,
          Units.formatBits(s.rxBps()), Units.formatCount(s.rxPps(), "packets/s"));
      lastPrinted = s.start();
    }
  }

  /** The seconds from {@code fromMs} (inclusive) to {@code toMs} (exclusive). */
  List<Second> between(long fromMs, long toMs) {
    return new ArrayList<>(seconds.subMap(fromMs, true, toMs, false).values());
  }

  Map<Long, Second> all() {
    return new TreeMap<>(seconds);
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
