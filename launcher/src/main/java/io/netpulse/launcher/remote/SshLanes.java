package io.netpulse.launcher.remote;

import com.jcraft.jsch.JSchException;
import io.netpulse.collector.SshConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SSH connections to one host, each with the long-running channels started over it: sshd allows only so many
 * channels per connection (MaxSessions), so a start takes a connection with room and another is connected when all
 * are full; a short command takes the least busy one.
 */
final class SshLanes {

  private static final Logger LOG = LoggerFactory.getLogger(SshLanes.class);

  /**
   * A connection and the long-running channels started over it (each open while its supplier says so);
   * {@code starting} counts starts under way (guarded by the lanes).
   */
  static final class Lane {
    final SshConnection connection;
    private final List<BooleanSupplier> channels = new CopyOnWriteArrayList<>();
    private int starting;

    private Lane(SshConnection connection) {
      this.connection = connection;
    }

    /** A long-running channel started over this connection, open while {@code open} says so. */
    void add(BooleanSupplier open) {
      channels.add(open);
    }

    private long load() {
      return starting + channels.stream().filter(BooleanSupplier::getAsBoolean).count();
    }
  }

  private final String host;
  private final SshConnection first;
  private final int channelsPerConnection;
  private final List<Lane> lanes = new ArrayList<>();

  /** @param host the host's name, for the log */
  SshLanes(String host, SshConnection first, int channelsPerConnection) {
    this.host = host;
    this.first = first;
    this.channelsPerConnection = channelsPerConnection;
    lanes.add(new Lane(first));
  }

  /**
   * A connection with room for another long-running channel, its slot reserved until {@link #started}; a new
   * connection (to the first one's target) when all are full.
   */
  synchronized Lane reserve() throws JSchException {
    for (Lane lane : lanes) {
      lane.channels.removeIf(open -> !open.getAsBoolean()); // a long plan would pile up closed ones
      if (lane.load() < channelsPerConnection) {
        lane.starting++;
        return lane;
      }
    }
    SshConnection extra = new SshConnection(first.target());
    try {
      extra.session();
    } catch (JSchException e) {
      extra.close();
      throw e;
    }
    Lane lane = new Lane(extra);
    lane.starting++;
    lanes.add(lane);
    LOG.debug("{}: SSH connection {} opened for more processes", host, lanes.size());
    return lane;
  }

  /** The start that {@link #reserve} made room for is over, started or not. */
  synchronized void started(Lane lane) {
    lane.starting--;
  }

  /** The least busy connection, for a short channel. */
  synchronized SshConnection leastBusy() {
    Lane best = lanes.get(0);
    for (Lane lane : lanes) {
      if (lane.load() < best.load()) {
        best = lane;
      }
    }
    return best.connection;
  }

  synchronized int size() {
    return lanes.size();
  }

  synchronized void closeAll() {
    lanes.forEach(l -> l.connection.close());
  }
}
