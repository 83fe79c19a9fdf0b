package io.netpulse.cli.stack;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@link PipelineStack} starts, as values: the commands' options build it (PipelineOptions.stackSettings), so that
 * the stack does not depend on the commands that use it.
 *
 * @param dataDir where the embedded Kafka, the embedded store and the processor's state live
 * @param externalKafka the cluster to use; empty: an embedded broker under dataDir
 * @param kafkaPort the embedded broker's port (0: a free one)
 * @param partitions partitions per topic, when netpulse creates them
 * @param influxUrl an external InfluxDB; null: the embedded QuestDB
 * @param storePort the embedded store's HTTP port (0: a free one)
 * @param dashboardPort 0: a free one
 */
public record StackSettings(Path dataDir, Optional<KafkaConnection> externalKafka, int kafkaPort, int partitions,
    Topics topics, String influxUrl, char[] influxToken, String influxOrg, String influxBucket, int storePort,
    String dashboardHost, int dashboardPort, String dashboardToken) {}
