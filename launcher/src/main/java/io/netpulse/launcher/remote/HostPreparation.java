package io.netpulse.launcher.remote;

import io.netpulse.launcher.plan.IrqAffinity;
import io.netpulse.launcher.plan.PrepareSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opt-in host preparation for the run only (plan's PrepareSpec: fs.nr_open, fs.file-max, IRQ affinity);
 * {@link #close()} restores the values read before. Writes /proc only, never files under /etc, so a reboot also
 * undoes it. Sysctls are only ever raised: lowering a limit under a running system could break other programs.
 * {@code nofile} is not a host setting: procedures start their processes under {@code prlimit}.
 */
public final class HostPreparation implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HostPreparation.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** $1 = file under /proc, $2 = value: writes it and prints what the file says afterwards. */
  private static final String WRITE = "printf '%s\\n' \"$2\" > \"$1\" && cat \"$1\"";
  /** $1 = match text: "IRQ<TAB>current cpu list" for each /proc/interrupts line containing it; then "cpus<TAB>N". */
  private static final String FIND_IRQS = String.join("\n",
      "grep -F -- \"$1\" /proc/interrupts | while read -r irq _; do",
      "  n=${irq%:}; printf '%s\\t%s\\n' \"$n\" \"$(cat /proc/irq/$n/smp_affinity_list 2>/dev/null)\"; done",
      "printf 'cpus\\t%s\\n' \"$(nproc)\"");

  private final RemoteHost host;
  private final List<String> changes = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  /** Undo steps, newest first. */
  private final Deque<Restore> restores = new ArrayDeque<>();
  private boolean closed;

  private record Restore(String file, String value, String what) {}

  private HostPreparation(RemoteHost host) {
    this.host = host;
  }

  public static HostPreparation apply(RemoteHost host, PrepareSpec spec) throws RemoteFailure {
    HostPreparation p = new HostPreparation(host);
    try {
      if (spec.nrOpen() != null) {
        p.raise("fs.nr_open", "/proc/sys/fs/nr_open", spec.nrOpen());
      }
      if (spec.fileMax() != null) {
        p.raise("fs.file-max", "/proc/sys/fs/file-max", spec.fileMax());
      }
      if (spec.irqAffinity() != null) {
        p.bind(spec.irqAffinity());
      }
    } catch (RemoteFailure | RuntimeException e) {
      p.close(); // undo what was done before the failure
      throw e;
    }
    return p;
  }

  public static HostPreparation bindIrqs(RemoteHost host, IrqAffinity affinity) throws RemoteFailure {
    return apply(host, new PrepareSpec(null, null, null, affinity));
  }

  private void raise(String name, String file, long wanted) throws RemoteFailure {
    String before = read(file);
    long current = parse(name, before);
    if (current >= wanted) {
      notes.add(name + " is " + current + ", already at least " + wanted + "; left as is");
      return;
    }
    write(file, String.valueOf(wanted), name);
    restores.push(new Restore(file, before, name));
    changes.add(name + " " + current + " → " + wanted);
  }

  private void bind(IrqAffinity affinity) throws RemoteFailure {
    CommandResult found = exec(RemoteCommand.of("sh", "-c", FIND_IRQS, "netpulse-irqs", affinity.match()));
    List<String[]> irqs = new ArrayList<>();
    int cpus = 1;
    for (String line : found.stdout().split("\n")) {
      String[] f = line.split("\t", -1);
      if (f.length == 2 && f[0].equals("cpus")) {
        cpus = Math.max(1, (int) parse("nproc", f[1]));
      } else if (f.length == 2 && f[0].matches("\\d+") && !f[1].isBlank()) {
        irqs.add(f);
      }
    }
    if (irqs.isEmpty()) {
      notes.add("IRQ affinity: no IRQ in /proc/interrupts matches '" + affinity.match() + "'; nothing bound"
          + " (virtual or veth interfaces have none; check the name with: grep " + affinity.match()
          + " /proc/interrupts)");
      return;
    }
    for (int i = 0; i < irqs.size(); i++) {
      String irq = irqs.get(i)[0];
      String before = irqs.get(i)[1];
      String cpu = String.valueOf((affinity.firstCpu() + (long) i * affinity.cpuStep()) % cpus);
      String file = "/proc/irq/" + irq + "/smp_affinity_list";
      write(file, cpu, "IRQ " + irq + " affinity");
      restores.push(new Restore(file, before, "IRQ " + irq + " affinity"));
      changes.add("IRQ " + irq + " (" + affinity.match() + ") CPUs " + before + " → " + cpu);
    }
    notes.add("IRQ affinity: a running irqbalance may move the IRQs again; stop it for the run if it does");
  }

  private String read(String file) throws RemoteFailure {
    CommandResult r = exec(RemoteCommand.of("cat", file));
    if (r.exit() != 0) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": cannot read " + file + ": " + r.firstLine());
    }
    return r.stdout().strip();
  }

  private void write(String file, String value, String what) throws RemoteFailure {
    CommandResult r = exec(RemoteCommand.of("sh", "-c", WRITE, "netpulse-prepare", file, value));
    if (r.exit() != 0) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": cannot set " + what + " to " + value + ": "
          + r.firstLine() + "; preparing hosts needs root (or leave prepare: out of the plan)");
    }
  }

  private long parse(String what, String text) throws RemoteFailure {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": " + what + " is '" + text + "', not a number");
    }
  }

  private CommandResult exec(RemoteCommand command) throws RemoteFailure {
    return host.exec(command, TIMEOUT);
  }

  /** What was changed, human readable, e.g. "fs.nr_open 1048576 → 2097152". */
  public List<String> changes() {
    return List.copyOf(changes);
  }

  /** What was left as is and why (already high enough, no matching IRQ, ...). */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** Restores every value read before, newest first; failures are logged, not thrown. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    while (!restores.isEmpty()) {
      Restore r = restores.pop();
      try {
        write(r.file(), r.value(), r.what());
      } catch (RemoteFailure e) {
        LOG.warn("{}: could not restore {} to {}: {}", host.name(), r.what(), r.value(), e.getMessage());
      }
    }
  }
}
