package io.netpulse.launcher.procedure;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** examples/seed-004-aliyun-ecs.yaml against seed 004 (Alibaba Cloud ECS, English): seed 001's commands. */
@Tag("unit")
class Seed004CommandsTest {

  /** "Test the packet forwarding rate / Less than 6 million pps": 64 netservers on the test machine. */
  static final String NETSERVER = "netserver -p $[16000+j] > server_$[16000+j].netperf > /dev/null 2>&1 &";

  @Test
  void ppsBelow6M() throws Exception {
    // "Run the following command on the auxiliary test machine to send traffic to the test machine"
    Seed001CommandsTest.checkPpsBelow6M(SeedPlans.load("seed-004-aliyun-ecs.yaml"), NETSERVER,
        "netperf -H ${server_ip} -l ${run_time:-300} -t UDP_STREAM -p $port -- -m 1 -D > /dev/null 2>&1 &");
  }

  @Test
  void ppsAbove6M() throws Exception {
    // "Greater than 6 million pps …" and "Greater than 20 million pps": on three auxiliary test machines
    SeedPlans seed = SeedPlans.load("seed-004-aliyun-ecs.yaml");
    String tp = "nohup sockperf tp -i $server_ip --pps max -m ${msg_size} -t ${run_time} --port $[${basePort}+${i}] 2>&1 &";
    Seed001CommandsTest.checkHighPps(seed, "pps-6M-20M", tp);
    Seed001CommandsTest.checkHighPps(seed, "pps-above-20M", tp);
  }

  @Test
  void bandwidth() throws Exception {
    // "Test the network bandwidth": the same 64 netservers, then netperf … -t TCP_STREAM -p $port -- -D
    Seed001CommandsTest.checkBandwidth(SeedPlans.load("seed-004-aliyun-ecs.yaml"), NETSERVER,
        "netperf -H ${server_ip} -l ${run_time:-300} -t TCP_STREAM -p $port -- -D > /dev/null 2>&1 & done");
  }

  @Test
  void latency() throws Exception {
    // "Test the network latency": sockperf sr --tcp --daemonize; sockperf pp -i <Private IP address of the test
    //   machine> --tcp -t 30 -m 14 --full-log=result.json
    Seed001CommandsTest.checkSockperfLatency(SeedPlans.load("seed-004-aliyun-ecs.yaml"), "sockperf sr --tcp --daemonize",
        "sockperf pp -i <Private IP address of the test machine> --tcp -t 30 -m 14 --full-log=result.json",
        "<Private IP address of the test machine>");
  }
}
