package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.launcher.UserError;

import io.netpulse.cli.demo.Demo;
import io.netpulse.cli.stack.PipelineStack;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Starts Kafka, the store, the processor, the dashboard and a collector running "
        + "'sar -n DEV 1' on a measured host, sends iperf3 traffic to it (between two network "
        + "namespaces as root, over loopback otherwise), prints the receive rate every second "
        + "and a table at the end.")
public final class DemoCommand implements Callable<Integer> {

  @Mixin PipelineOptions pipeline = new PipelineOptions();
  @Mixin DashboardOptions dashboard = new DashboardOptions();

  @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "0s", converter = DurationOption.Seconds.class,
      description = "Stop by itself after this long of traffic, in whole seconds, e.g. 30s or 2m; a bare number is "
          + "seconds (default: 0s, run until Ctrl-C).")
  Duration durationOption;

  @Option(names = "--rate", paramLabel = "BITS_PER_SECOND", defaultValue = "1000000000",
      description = "iperf3 target rate in bit/s (default: ${DEFAULT-VALUE}).")
  long rate;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    int duration = (int) Math.min(Integer.MAX_VALUE, durationOption.isZero() ? 0
        : io.netpulse.launcher.plan.Durations.ceilSeconds(durationOption));
    if (rate <= 0) {
      throw new UserError("--rate must be a positive number of bit/s, got " + rate);
    }
    pipeline.validate();
    dashboard.validate();
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    Demo demo = new Demo(out); // test hosts are made while the pipeline starts
    PipelineStack stack;
    try {
      stack = PipelineStack.start(pipeline.stackSettings(dashboard), out);
    } catch (RuntimeException e) {
      demo.close();
      throw e;
    }
    Thread hook = new Thread(() -> {
      demo.requestStop();
      demo.close();
      stack.close();
    }, "netpulse-demo-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      demo.start(stack, rate);
      double readySeconds = (System.currentTimeMillis() - jvmStart) / 1000.0;
      out.printf(Locale.ROOT, "dashboard %s%n", stack.dashboard().url());
      out.printf(Locale.ROOT, "ready in %.1f s%s%n", readySeconds,
          duration > 0 ? "; traffic for " + duration + " s" : "; Ctrl-C stops everything");
      demo.await(duration);
      double meanBps = demo.finish();
      if (!(meanBps > 0)) {
        out.println("netpulse: no receive rate was measured; see the lines above");
        return 1;
      }
      return 0;
    } finally {
      demo.close();
      stack.close();
      ShutdownHooks.remove(hook); // Ctrl-C: the hook is running and stops everything
    }
  }
}
