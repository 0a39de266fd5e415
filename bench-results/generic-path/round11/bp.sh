#!/bin/bash
R=$1; N=$2; RUNS=$3; shift 3
JAR=${JAR:-}
for r in $(seq 1 $R); do for v in "$@"; do s=${v%%:*}; rest=${v#*:}; cap=${rest%%@*}; opts=""; [[ $v == *@* ]] && opts=${v#*@}
 java ${opts//,/ } -cp "${JAR}/tmp/s12/bprobe:/tmp/pk35/java/lib/*" BProbe $s $cap $N $RUNS | python3 /tmp/s12/med.py $v; done; done
