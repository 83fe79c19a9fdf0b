package io.netpulse.launcher.procedure;

/** What a remote process is for; servers start first, samplers before clients, all stop at the end. */
public enum Role {
  SAMPLER,
  SERVER,
  CLIENT
}
