package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.TestType;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The procedure of each test type, found by the name the catalog gives it ({@link TestType#procedure()}):
 * {@code bandwidth} is {@code BandwidthProcedure}, {@code iperf_bandwidth} {@code IperfBandwidthProcedure}, in this
 * package. A new type needs its catalog entry and its procedure class, and no list here to keep in step
 * (ProceduresTest builds every type).
 */
public final class Procedures {

  private static final Map<String, Procedure> BY_NAME = new ConcurrentHashMap<>();

  private Procedures() {}

  public static Procedure forTest(TestSpec test) {
    return forType(test.type());
  }

  public static Procedure forType(TestType type) {
    return BY_NAME.computeIfAbsent(type.procedure(), Procedures::load);
  }

  /** The class name of a procedure name: {@code iperf_bandwidth} → {@code IperfBandwidthProcedure}. */
  static String className(String procedure) {
    StringBuilder b = new StringBuilder(Procedures.class.getPackageName()).append('.');
    for (String word : procedure.split("_")) {
      b.append(word.substring(0, 1).toUpperCase(Locale.ROOT)).append(word.substring(1));
    }
    return b.append("Procedure").toString();
  }

  private static Procedure load(String procedure) {
    String name = className(procedure);
    try {
      return (Procedure) Class.forName(name).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("no procedure " + name + " for the catalog's '" + procedure + "': " + e, e);
    }
  }

  /** The commands and result rules of {@code test} for a SUT with {@code sut}'s interface and queues. */
  public static TestProcedure build(Plan plan, TestSpec test, SutFacts sut) {
    return forTest(test).build(new ProcedureContext(plan, test, sut));
  }
}
