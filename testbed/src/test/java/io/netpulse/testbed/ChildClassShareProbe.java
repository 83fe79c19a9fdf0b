package io.netpulse.testbed;

/** Run by {@link ChildClassShareTest} as a child JVM: what it prints says it ran. */
public final class ChildClassShareProbe {
  private ChildClassShareProbe() {}

  public static void main(String[] args) {
    System.out.println("probe ran");
  }
}
