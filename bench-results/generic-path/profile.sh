#!/bin/bash
# profile the refs pipeline (baseline jar); usage: prof.sh TAG CLASSPATH_DIR
set -x
TAG=$1; PK=${2:-/tmp/perf31/pk}
AP=/tmp/perf31/ap/linux-x64/libasyncProfiler.so
OUT=/tmp/perf31/prof
uptime
CP="$PK/java/classes:$PK/java/lib/*"
for impl in bbflow-refs-backoff jctools-refs bbflow-backoff; do
  java -agentpath:$AP=start,event=cpu,interval=200us,file=$OUT/$TAG-$impl.collapsed,collapsed -cp "$CP" PerfJ two $impl 10000000 12 | tail -4
  java -agentpath:$AP=start,event=cpu,interval=200us,file=$OUT/$TAG-$impl.flat.txt,flat=40,traces=0 -cp "$CP" PerfJ two $impl 10000000 12 | tail -2
done
uptime
