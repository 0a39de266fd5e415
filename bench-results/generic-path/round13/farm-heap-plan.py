#!/usr/bin/env python3
"""Issue 31, thirteenth round: the farm of 2 workers at ~1 us tasks with and without a pre-touched fixed heap
(-XX:+AlwaysPreTouch -Xms1g -Xmx1g): the Java loop, BBFlow boxed and unboxed, the parallel stream.
Usage: farm-heap-plan.py WORK/plan.json > WORK/farm-heap.json"""
import copy, json, sys

FLAGS = ['-XX:+AlwaysPreTouch', '-Xms1g', '-Xmx1g']
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] != 'farm W=360 (~1 us/task)':
        continue
    configs = [c for c in g['configs'] if c['label'] in ('java-seq', 'bbflow-backoff', 'bbflow-longs-backoff', 'pstream')]
    for c in [c for c in configs if c['label'] in ('bbflow-backoff', 'java-seq', 'pstream')]:
        t = copy.deepcopy(c)
        t['label'] += '+pretouch'
        t['cmd'] = [t['cmd'][0]] + FLAGS + t['cmd'][1:]
        configs.append(t)
    g['configs'] = configs
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
