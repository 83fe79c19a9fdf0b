package io.netpulse.collector;

import com.jcraft.jsch.AgentIdentityRepository;
import com.jcraft.jsch.AgentProxyException;
import com.jcraft.jsch.Identity;
import com.jcraft.jsch.IdentityRepository;
import com.jcraft.jsch.SSHAgentConnector;
import java.nio.file.Path;
import java.util.Vector;

/**
 * ssh-agent's keys for jsch: the key files given come first, then the agent's keys, in the agent's order (as
 * OpenSSH offers an IdentityFile before the agent's other keys). Only public halves and signatures cross the socket;
 * neither is logged.
 */
public final class SshAgent {

  private SshAgent() {}

  /** The socket of {@code SSH_AUTH_SOCK}, null when unset or empty. */
  public static Path fromEnvironment() {
    String sock = System.getenv("SSH_AUTH_SOCK");
    return sock == null || sock.isBlank() ? null : Path.of(sock);
  }

  /**
   * The agent socket for an IdentityAgent value of ~/.ssh/config: null (not given) or {@code SSH_AUTH_SOCK} mean
   * {@link #fromEnvironment()}, {@code none} no agent, anything else a socket path ({@code ~/} expanded).
   */
  public static Path socket(String identityAgent) {
    if (identityAgent == null || identityAgent.equals("SSH_AUTH_SOCK") || identityAgent.equals("$SSH_AUTH_SOCK")) {
      return fromEnvironment();
    }
    if (identityAgent.equalsIgnoreCase("none")) {
      return null;
    }
    return Path.of(identityAgent.startsWith("~/") ? System.getProperty("user.home") + identityAgent.substring(1)
        : identityAgent);
  }

  /**
   * {@code files} (jsch's repository of the key files added) followed by the agent's keys at {@code socket}; just
   * {@code files} when the agent cannot be reached (a stale SSH_AUTH_SOCK must not stop a key file from working).
   */
  static IdentityRepository withAgent(IdentityRepository files, Path socket) {
    try {
      AgentIdentityRepository agent = new AgentIdentityRepository(new SSHAgentConnector(socket));
      return agent.getStatus() == IdentityRepository.RUNNING ? new Both(files, agent) : files;
    } catch (AgentProxyException | RuntimeException e) {
      return files;
    }
  }

  /** The agent's key count, -1 when it cannot be reached: for error messages only. */
  static int keys(Path socket) {
    try {
      AgentIdentityRepository agent = new AgentIdentityRepository(new SSHAgentConnector(socket));
      return agent.getStatus() == IdentityRepository.RUNNING ? agent.getIdentities().size() : -1;
    } catch (AgentProxyException | RuntimeException e) {
      return -1;
    }
  }

  /** Files first, then the agent; adding and removing keys only touches the files' repository, never the agent. */
  private record Both(IdentityRepository files, IdentityRepository agent) implements IdentityRepository {
    @Override
    public String getName() {
      return files.getName() + "+" + agent.getName();
    }

    @Override
    public int getStatus() {
      return RUNNING;
    }

    @Override
    public Vector<Identity> getIdentities() {
      Vector<Identity> all = new Vector<>(files.getIdentities());
      all.addAll(agent.getIdentities());
      return all;
    }

    @Override
    public boolean add(byte[] identity) {
      return files.add(identity);
    }

    @Override
    public boolean remove(byte[] blob) {
      return files.remove(blob);
    }

    @Override
    public void removeAll() {
      files.removeAll();
    }
  }
}
