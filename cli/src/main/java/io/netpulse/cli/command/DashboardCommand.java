package io.netpulse.cli.command;

import io.netpulse.launcher.KafkaCheck;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.dashboard.Dashboard;
import io.netpulse.dashboard.DashboardConfig;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "dashboard", mixinStandardHelpOptions = true,
    description = "Serves the live dashboard of an external Kafka cluster's netpulse topics until stopped; it "
        + "starts no broker of its own.")
public final class DashboardCommand implements Callable<Integer> {

  @Mixin ClusterOptions kafkaOptions = new ClusterOptions();
  @Mixin DashboardOptions dashboard = new DashboardOptions();

  @Override
  public Integer call() throws Exception {
    kafkaOptions.validate();
    dashboard.validate();
    KafkaConnection kafka = kafkaOptions.requireExternalKafka("dashboard", "");
    if (kafka.settingsFile() != null) {
      KafkaCheck.requireNotRefused(kafka);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    try (Dashboard d = Dashboard.start(new DashboardConfig(kafka, kafkaOptions.topics(),
        dashboard.host, dashboard.port, dashboard.token))) {
      Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown));
      System.out.println("dashboard " + d.url());
      if (d.token() != null && dashboard.token == null) {
        System.out.println("token     " + d.token() + " (generated: pass --dashboard-token to choose one)");
      }
      stopped.await();
    }
    return 0;
  }
}
