package io.netpulse.launcher.procedure;

/** Turns a test of a plan into the commands of the seeds' procedure for it. */
public interface Procedure {

  TestProcedure build(ProcedureContext context);
}
