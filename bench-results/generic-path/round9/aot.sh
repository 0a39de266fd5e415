#!/bin/bash
# The first pinning in a JDK 25 process with and without an AOT cache trained on the same program.
# PinInit is ../round8/PinInit.java, compiled into /tmp/aot/pininit.jar (the cache refuses class-path directories):
#   javac -cp benchmarks.jar -d cls ../round8/PinInit.java && jar cf /tmp/aot/pininit.jar -C cls .
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
CP=/tmp/ab/after.jar:/tmp/aot/pininit.jar
FL="--enable-native-access=ALL-UNNAMED"
rm -f pin.aot
$J/java $FL -XX:AOTCacheOutput=pin.aot -cp $CP PinInit > train.log 2>&1
ls -la pin.aot
for r in 1 2 3 4 5 6 7 8 9 10; do
  echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
  echo -n "  plain: "; $J/java $FL -cp $CP PinInit 2>&1 | grep mapping
  echo -n "  aot:   "; $J/java $FL -XX:AOTCache=pin.aot -cp $CP PinInit 2>&1 | grep -E "mapping|error"
done
