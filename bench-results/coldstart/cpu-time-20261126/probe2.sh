#!/bin/bash
set -e
cd /work/wt/docs30
./mvnw -B -o -q -pl bbflow-bench -am package -DskipTests -Dmaven.javadoc.skip=true
cd /tmp/d30/cold && rm -rf x async && mkdir x async && (cd x && unzip -q /work/wt/docs30/bbflow-bench/target/benchmarks.jar 'org/bbflow/core/*' 'org/jctools/*' 'org/agrona/*' 'com/lmax/*') && jar cf async/lib.jar -C x .
uptime
for r in $(seq 1 15); do for n in 1 10000000; do
  java -cp "/tmp/d30/cold:/tmp/d30/cold/async/*" Probe async $n
  java -cp "/tmp/d30/cold:/tmp/d30/pk/java/lib/*" Probe old $n
  java -cp "/tmp/d30/cold:/tmp/d30/cold/new/*" Probe sync $n
done; done
uptime
