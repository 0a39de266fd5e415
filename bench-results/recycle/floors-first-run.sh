#!/bin/sh
# The two raw floors of the unboxed pipeline, a new array per batch against a given-back one, as the
# first run in a fresh JVM (JMH single shot: one measured call per fork, no warm-up), 10 forks each.
set -e
JAR=${JAR:-bbflow-bench/target/benchmarks.jar}
uptime
java -jar "$JAR" TwoStageBench -p n=10000000 -p impl=long-batches,long-batches-reused \
    -bm ss -tu ms -f 10 -wi 0 -i 1 -rf json -rff bench-results/recycle/floors-first-run.json
uptime
