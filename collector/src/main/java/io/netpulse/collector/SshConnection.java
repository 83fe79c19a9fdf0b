package io.netpulse.collector;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.HostKey;
import com.jcraft.jsch.HostKeyRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchChangedHostKeyException;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.JSchUnknownHostKeyException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.UserInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SSH connection (jsch session) to a host, shared by all its samplers as exec channels. Connects on first use and
 * again after the session is lost. Host keys are checked against known_hosts; an unknown host is refused unless the
 * target opts in to accept-new, a changed key always. With jump hosts, each hop is its own session with its own
 * identity and known_hosts, and the next hop's SSH runs inside the previous one's (OpenSSH's ProxyJump).
 */
public final class SshConnection implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SshConnection.class);

  private final SshTarget target;
  private Session session;
  /** Sessions to the jump hosts, in order; the last one carries {@link #session}'s TCP stream. */
  private final List<Session> hops = new ArrayList<>();
  private boolean closed;

  public SshConnection(SshTarget target) {
    this.target = target;
  }

  public SshTarget target() {
    return target;
  }

  /** The connected session, connecting (again) when there is none: through every jump host first, if any. */
  public synchronized Session session() throws JSchException {
    if (closed) {
      throw new JSchException("connection to " + target + " is closed");
    }
    if (session != null && session.isConnected()) {
      return session;
    }
    disconnectAll(); // a lost session may leave its jump sessions open
    Session via = null;
    for (SshTarget hop : target.jumps()) {
      try {
        via = open(hop, via);
      } catch (JSchException e) {
        disconnectAll();
        throw new JSchException(target + ": through jump host " + e.getMessage(), e);
      }
      hops.add(via);
    }
    try {
      session = open(target, via);
    } catch (JSchException e) {
      disconnectAll();
      throw e;
    }
    return session;
  }

  /**
   * One SSH session to {@code t}, directly ({@code via} null) or over a direct-tcpip channel of {@code via}; its host
   * key is checked against {@code t}'s own known_hosts under {@code t}'s address, as a direct connection's would be.
   */
  private static Session open(SshTarget t, Session via) throws JSchException {
    JSch jsch = new JSch();
    if (t.identity() != null) {
      try {
        jsch.addIdentity(t.identity().toString());
      } catch (JSchException e) {
        throw new JSchException(t + ": cannot use identity " + t.identity() + ": " + e.getMessage(), e);
      }
    }
    jsch.setKnownHosts(t.knownHosts().toString());
    if (t.hostKeys() == SshTarget.HostKeyPolicy.ACCEPT_NEW) {
      jsch.setHostKeyRepository(new AcceptNew(jsch.getHostKeyRepository(), t));
    }
    Session s = jsch.getSession(t.user(), t.address(), t.port());
    if (t.agent() != null) {
      s.setIdentityRepository(SshAgent.withAgent(jsch.getIdentityRepository(), t.agent()));
    }
    s.setConfig("StrictHostKeyChecking", "yes"); // the repository above decides about new hosts
    s.setConfig("PreferredAuthentications", "publickey");
    // a silent cut (no RST) is noticed after 3 unanswered keepalives
    s.setServerAliveInterval(5000);
    s.setServerAliveCountMax(3);
    int timeout = (int) t.connectTimeout().toMillis();
    JumpChannel.Watchdog watchdog = null;
    if (via != null) {
      s.setProxy(new JumpChannel(via));
      watchdog = JumpChannel.Watchdog.start(s, timeout); // jsch sets no read timeout on a proxied session
    }
    try {
      s.connect(timeout);
      if (watchdog != null && !watchdog.finish()) {
        s.disconnect();
        throw new JSchException("session is down");
      }
    } catch (JSchUnknownHostKeyException e) {
      throw new JSchException(t + ": host key not in " + t.knownHosts() + "; add it (ssh-keyscan -t "
          + "ed25519 " + t.address() + " >> " + t.knownHosts() + (via == null ? "" : ", run where the host is "
          + "reachable") + ") or opt in to host_key_policy: accept-new", e);
    } catch (JSchChangedHostKeyException e) {
      throw new JSchException(t + ": host key differs from the one in " + t.knownHosts()
          + "; refusing to connect (if the host was reinstalled, remove its old line)", e);
    } catch (JSchException e) {
      String m = String.valueOf(e.getMessage());
      throw new JSchException(t + ": " + (m.startsWith("Auth fail") ? keysRefused(t) : watchdog != null && !watchdog.finish() ? "timeout: no SSH handshake within " + timeout
          + " ms through the jump host" : m), e);
    }
    return s;
  }

  /** Which keys were offered and refused, without the keys themselves. */
  public static String keysRefused(SshTarget t) {
    int agentKeys = t.agent() == null ? -1 : SshAgent.keys(t.agent());
    String agent = t.agent() == null ? "" : agentKeys < 0 ? " (ssh-agent at " + t.agent() + " not reachable)"
        : agentKeys == 0 ? " (ssh-agent at " + t.agent() + " holds no keys: ssh-add one)"
        : " and the " + agentKeys + " key(s) of ssh-agent at " + t.agent();
    String keys = t.identity() != null ? "key " + t.identity() + agent
        : agentKeys > 0 ? "the " + agentKeys + " key(s) of ssh-agent at " + t.agent() : "no key file" + agent;
    return keys + " refused for user " + t.user();
  }

  private void disconnectAll() {
    if (session != null) {
      session.disconnect();
      session = null;
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      hops.get(i).disconnect();
    }
    hops.clear();
  }

  public synchronized boolean isConnected() {
    return session != null && session.isConnected();
  }

  /** Opens an exec channel running the command; stdout is the channel's input stream. */
  public ChannelExec exec(String command, java.io.OutputStream stderr) throws JSchException {
    ChannelExec channel = (ChannelExec) session().openChannel("exec");
    channel.setCommand(command);
    channel.setErrStream(stderr, true);
    channel.setInputStream(null);
    return channel;
  }

  /** Runs a short command and returns its exit status (for probes such as {@code command -v sar}). */
  public int run(String command) throws JSchException, IOException {
    ChannelExec channel = exec(command, OutputStreamSink.INSTANCE);
    try {
      InputStream out = channel.getInputStream();
      channel.connect((int) target.connectTimeout().toMillis());
      out.transferTo(new ByteArrayOutputStream());
      while (!channel.isClosed()) {
        Thread.sleep(10);
      }
      return channel.getExitStatus();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted running " + command + " on " + target, e);
    } finally {
      channel.disconnect();
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    disconnectAll();
  }

  /** Discards output. */
  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }

  /** OpenSSH's accept-new: a host missing from known_hosts is added; a known host with another key is refused. */
  private static final class AcceptNew implements HostKeyRepository {
    private final HostKeyRepository known;
    private final SshTarget target;

    AcceptNew(HostKeyRepository known, SshTarget target) {
      this.known = known;
      this.target = target;
    }

    @Override
    public int check(String host, byte[] key) {
      int result = known.check(host, key);
      if (result != NOT_INCLUDED) {
        return result;
      }
      try {
        HostKey hostKey = new HostKey(host, key);
        if (!Files.exists(target.knownHosts())) {
          Files.createFile(target.knownHosts()); // jsch only rewrites a known_hosts file that exists
        }
        known.add(hostKey, null); // adds to the pool and rewrites the file
        LOG.warn("{}: host key {} {} was not known; added to {} (accept-new)", target, hostKey.getType(),
            hostKey.getFingerPrint(new JSch()), target.knownHosts());
        return OK;
      } catch (IOException | JSchException e) {
        LOG.warn("{}: cannot add host key to {}: {}", target, target.knownHosts(), e.getMessage());
        return NOT_INCLUDED;
      }
    }

    @Override
    public void add(HostKey hostkey, UserInfo ui) {
      known.add(hostkey, ui);
    }

    @Override
    public void remove(String host, String type) {
      known.remove(host, type);
    }

    @Override
    public void remove(String host, String type, byte[] key) {
      known.remove(host, type, key);
    }

    @Override
    public String getKnownHostsRepositoryID() {
      return known.getKnownHostsRepositoryID();
    }

    @Override
    public HostKey[] getHostKey() {
      return known.getHostKey();
    }

    @Override
    public HostKey[] getHostKey(String host, String type) {
      return known.getHostKey(host, type);
    }
  }
}
