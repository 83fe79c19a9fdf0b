package io.netpulse.collector;

/** One line source: the host it describes and what printed the lines (sar-dev, ss-summary, ...). */
public record SourceId(String host, String source) {

  @Override
  public String toString() {
    return host + "/" + source;
  }
}
