package io.netpulse.holder;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * Binds a client's sockets to its source addresses before connect. Binding to port 0 would give each socket a port
 * of its own across all destinations, capping a source at one ephemeral range in total; choosing the port here
 * (with SO_REUSEADDR) lets one local port serve every server port, so each (source, server port) pair gets the
 * whole range, as connect()'s own port choice gives the kernel's single address.
 */
final class SourceBinder {

  /** Local ports tried per connect before counting a failure. */
  private static final int BIND_ATTEMPTS = 64;

  private final List<InetAddress> sources;
  private final PortPairs pairs;
  private final LocalPorts localPorts;

  SourceBinder(List<InetAddress> sources, PortPairs pairs, LocalPorts range) {
    this.sources = sources;
    this.pairs = pairs;
    this.localPorts = range.forPairs(pairs.count());
  }

  /** A source address the host does not have would fail every connect the same way: say so at once. */
  void check() {
    for (InetAddress source : sources) {
      try (SocketChannel probe = SocketChannel.open()) {
        probe.bind(new InetSocketAddress(source, 0));
      } catch (IOException e) {
        throw new ConnectionsException("connections client: cannot use source address " + source.getHostAddress()
            + ": " + e.getMessage() + "; is it an address of this host?");
      }
    }
  }

  /** Binds to the pair's source and its next local port; false when the pair has none left. */
  boolean bind(SocketChannel channel, int pair) throws IOException {
    channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
    InetAddress source = sources.get(pairs.sourceIndex(pair));
    for (int i = 0; i < BIND_ATTEMPTS; i++) {
      int port = localPorts.next(pair);
      if (port < 0) {
        return false;
      }
      try {
        channel.bind(new InetSocketAddress(source, port));
        return true;
      } catch (BindException inUse) {
        // another program holds this port without SO_REUSEADDR: take the next
      }
    }
    throw new BindException("no free local port on " + source.getHostAddress() + " after " + BIND_ATTEMPTS
        + " tries");
  }

  /** "each of the 2 source addresses used its 1000 local ports (40000-40999)". */
  String exhausted() {
    return "each of the " + sources.size() + " source addresses used its " + localPorts.describe();
  }
}
