#!/bin/bash
R=$1; N=$2; RUNS=$3; shift 3
for r in $(seq 1 $R); do for v in "$@"; do java -cp "/tmp/s12/probe:/tmp/pk35/java/lib/*" Probe $v $N $RUNS | python3 /tmp/s12/med.py $v; done; done
