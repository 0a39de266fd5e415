#!/bin/bash
uptime
for r in $(seq 1 12); do for n in 1 10000000; do for v in pre none; do java -cp "/tmp/d30/cold:/tmp/d30/cold/new/*" Probe $v $n; done; done; done
for r in $(seq 1 12); do for n in 1 10000000; do java -cp "/tmp/d30/cold:/tmp/d30/pk/java/lib/*" Probe old $n; done; done
uptime
