#!/usr/bin/env python3
"""Cuts the perf-kit's plan-full.json (made by `run.sh build` from this checkout) to the two-stage
groups for the pool comparison of 2026-11-26: FastFlow, the unboxed pipeline with the pool of
batches that outlive their flow (-Dbbflow.batchPool=1024, label suffix "+pool") and without it
(-Dbbflow.batchPool=0, the default), the boxed pipeline and the raw JCTools loop.
Usage: pool-plan.py WORK/plan-full.json > WORK/plan.json"""
import copy, json, sys

KEEP = {'ff-nonblocking', 'bbflow-longs-backoff', 'bbflow-backoff', 'jctools'}
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] not in ('two-stage N=1M', 'two-stage N=10M'):
        continue
    configs = []
    for c in g['configs']:
        if c['label'] not in KEEP:
            continue
        if c['label'] == 'bbflow-longs-backoff':
            for size, suffix in (('1024', '+pool'), ('0', '')):
                v = copy.deepcopy(c)
                v['label'] += suffix
                v['cmd'] = ['java', '-Dbbflow.batchPool=' + size] + v['cmd'][1:]
                configs.append(v)
        else:
            configs.append(c)
    g['configs'] = configs
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
