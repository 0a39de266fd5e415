#!/bin/bash
# NetLongThroughputBench on Netty 4.2 (issue 34): one remote channel over loopback, boxed
# (send/take) and unboxed (sendLong/drainLongs), against raw Netty with the same framing (on its
# event loop, and handed off to a consumer thread), in the same JMH run. Run from the repository
# root after `./mvnw -B -pl bbflow-bench -am package -DskipTests`, on a quiet machine.
set -e
out=bench-results/network-netty42
{ date -u; uptime; java -version 2>&1 | head -1; } > $out/run.log
java -jar bbflow-bench/target/benchmarks.jar 'net.NetLongThroughputBench.(bbflow|raw)' \
  -p items=10000000 -f 2 -wi 2 -i 4 -rf json -rff $out/jmh.json >> $out/run.log 2>&1
uptime >> $out/run.log
