package io.netpulse.cli.command;

import picocli.CommandLine.IVersionProvider;

public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {"netpulse " + (v == null ? "dev" : v)};
  }
}
