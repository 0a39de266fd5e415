#!/bin/bash
# ff-ab.sh ROUNDS TAG... : a fresh JDK 17 process's first flow of one item (ms), per TAG, interleaved.
# TAG is a core jar built by ../round4/build.sh TAG (-> /tmp/fr/TAG/core.jar). The class path is a
# user's: the core jar, the JCTools jar and the Agrona jar apart (each jar opened costs a first flow
# about 1 ms). The program is ../round3/FirstFlow.java, compiled once into /tmp/fr/firstflow.
R=$1; shift
HERE=$(cd "$(dirname "$0")" && pwd)
J=${J:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
M2=~/.m2/repository
DEPS=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar
P=/tmp/fr/firstflow
if [ ! -f $P/FirstFlow.class ]; then
  mkdir -p $P && javac -nowarn -d $P -cp /tmp/fr/$1/core.jar "$HERE/../round3/FirstFlow.java"
fi
# the order of the TAGs turns by one each round (the first process of a round can be the slow one)
TAGS=("$@"); K=${#TAGS[@]}
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg)"
  for i in $(seq 0 $((K - 1))); do
    t=${TAGS[$(( (i + r) % K ))]}
    v=$($J -cp $P:/tmp/fr/$t/core.jar:$DEPS FirstFlow 1 1 | awk '/^RUN 0/{print $3}')
    line="$line $t $v"
  done
  echo "$line"
done
