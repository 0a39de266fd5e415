#!/usr/bin/env python3
"""Issue 31, thirteenth round: what a new object per item costs, by heap setting. Cuts the kit's full plan
(run.sh build) to two-stage 1M and 10M (warm and first run): FastFlow, BBFlow boxed (Nodes.range, a new Long
per item) and the raw JCTools loop on the same boxed Longs (`jctools`), each on the default heap (G1, growing),
on a pre-touched fixed heap (-XX:+AlwaysPreTouch -Xms1g -Xmx1g) and on ParallelGC with a fixed 64 MB
young generation (-XX:+UseParallelGC -Xmn64m).
Usage: heap-plan.py WORK/plan.json > WORK/heap.json"""
import copy, json, sys

VARIANTS = (('+pretouch', ['-XX:+AlwaysPreTouch', '-Xms1g', '-Xmx1g']),
            ('+parallel-xmn64m', ['-XX:+UseParallelGC', '-Xmn64m']))
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] not in ('two-stage N=1M', 'two-stage N=10M'):
        continue
    configs = [c for c in g['configs'] if c['label'] in ('ff-nonblocking', 'bbflow-backoff', 'jctools')]
    for c in [c for c in configs if c['label'] in ('bbflow-backoff', 'jctools')]:
        for suffix, flags in VARIANTS:
            t = copy.deepcopy(c)
            t['label'] += suffix
            t['cmd'] = [t['cmd'][0]] + flags + t['cmd'][1:]
            configs.append(t)
    g['configs'] = configs
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
