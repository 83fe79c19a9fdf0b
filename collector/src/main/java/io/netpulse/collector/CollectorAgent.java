package io.netpulse.collector;

import io.netpulse.tools.Sampler;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent mode: samples the host it runs on with local processes, started again whenever they die. On a host without
 * sysstat, {@code sar-dev} becomes {@code proc-net-dev}.
 */
public final class CollectorAgent implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CollectorAgent.class);

  private final String host;
  private final List<Sampler> samplers;
  private final String run;
  private final LineSink sink;
  private final CollectorMetrics metrics;
  private final SequenceStore sequences;
  private final List<ProcessLineSource> sources = new ArrayList<>();

  /** @param sequences numbering that goes on from the previous start on the same data dir */
  public CollectorAgent(String host, List<Sampler> samplers, String run, SequenceStore sequences, LineSink sink,
      CollectorMetrics metrics) {
    this.host = host;
    this.samplers = List.copyOf(samplers);
    this.run = run;
    this.sequences = sequences;
    this.sink = sink;
    this.metrics = metrics;
  }

  public CollectorAgent start() throws IOException {
    for (Sampler wanted : samplers) {
      Sampler sampler = wanted;
      if (sampler == Sampler.SAR_DEV && !onPath("sar")) {
        LOG.warn("{}: sar (sysstat) not found on PATH; sampling /proc/net/dev instead", host);
        sampler = Sampler.PROC_NET_DEV;
      }
      sources.add(new ProcessLineSource(host, sampler.source(), run, sampler.localCommand(), Map.of(), sequences, sink,
          metrics).restartOnExit(true).start());
      LOG.info("{}: sampling {} ({})", host, sampler.source(), sampler.shellCommand());
    }
    return this;
  }

  public List<ProcessLineSource> sources() {
    return List.copyOf(sources);
  }

  static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isExecutable(candidate)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    sources.forEach(ProcessLineSource::close);
  }
}
