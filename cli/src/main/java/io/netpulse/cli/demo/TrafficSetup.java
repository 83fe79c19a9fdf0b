package io.netpulse.cli.demo;

import java.util.List;

/**
 * Where the demo's traffic runs and how its measured host is sampled: between two network
 * namespaces when run as root, on loopback otherwise.
 */
public interface TrafficSetup extends AutoCloseable {

  /** Name of the measured host, as the collector keys its lines. */
  String host();

  /** Interface on the measured host that receives the traffic. */
  String iface();

  /** Command that runs a program on the measured host (a prefix to put before it). */
  List<String> onMeasuredHost(List<String> command);

  /** Starts the receiver and the sender; traffic flows until {@link #close()}. */
  void startTraffic(long bitsPerSecond) throws java.io.IOException;

  /** One line saying what traffic flows where, for the terminal. */
  String describe();

  @Override
  void close();
}
