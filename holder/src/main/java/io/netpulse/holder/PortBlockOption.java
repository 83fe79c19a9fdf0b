package io.netpulse.holder;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The {@code --block} option that server and client share: both must read {@code --ports} the same way. */
final class PortBlockOption {

  @Option(names = "--block", defaultValue = "1", paramLabel = "N",
      description = "each port of --ports starts a block of N consecutive ports, as c1000k's server listens on "
          + "PORT..PORT+99 (default: ${DEFAULT-VALUE})")
  int block;

  /** The ports {@code ports} with this block size stand for; a bad combination is the user's error. */
  PortSet ports(PortRange ports, CommandSpec spec) {
    try {
      return new PortSet(ports, block);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--ports with --block: " + e.getMessage());
    }
  }
}
