#!/bin/bash
# build.sh TAG [SRCROOT]: compile bbflow-core main sources of SRCROOT (default /work/main) into /tmp/fr/TAG/core.jar
set -e
TAG=$1; SRC=${2:-/work/main}
D=/tmp/fr/$TAG; rm -rf $D; mkdir -p $D/classes
M2=~/.m2/repository
CP=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar
javac -nowarn --release 17 -XDstringConcat=inline -d $D/classes -cp $CP $(find $SRC/bbflow-core/src/main/java -name '*.java') 2>&1 | grep -v "^Note:" || true
jar cf $D/core.jar -C $D/classes .
echo built $D/core.jar $(unzip -l $D/core.jar | tail -1)
