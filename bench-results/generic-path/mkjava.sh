#!/bin/bash
# mkjava.sh TAG JAR: PerfJ classes + slim lib for a jar, in $PK/pk-TAG/java (PK: /tmp/perf31 in the
# first session, /tmp/pk31 in the second), compiled from this checkout's perf kit
set -e
TAG=$1; JAR=$2; D=${PK:-/tmp/perf31}/pk-$TAG/java
rm -rf $D && mkdir -p $D/lib $D/classes
tmp=$(mktemp -d)
(cd $tmp && unzip -q $JAR 'org/bbflow/core/*' 'org/jctools/*' 'org/agrona/*' 'com/lmax/*' 'org/bbflow/bench/baseline/ThesisChannel*')
jar cf $D/lib/perf-kit-lib.jar -C $tmp .
rm -rf $tmp
javac -nowarn -d $D/classes -cp "$D/lib/*" "$(git rev-parse --show-toplevel)/bbflow-bench/perf-kit/java/PerfJ.java"
