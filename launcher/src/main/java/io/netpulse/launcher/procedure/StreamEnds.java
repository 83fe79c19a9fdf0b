package io.netpulse.launcher.procedure;

/**
 * Where one instance of a stream-per-port test runs: its port, the host that receives (and so runs the server) and
 * the host that sends. The SUT is the receiver in an RX test and the sender in a TX test; the other end is dealt
 * round-robin over the test's clients ({@link ProcedureContext#other(int)}), so RX and TX differ only in which end
 * is which.
 */
record StreamEnds(int instance, int port, String receiver, String sender) {}
