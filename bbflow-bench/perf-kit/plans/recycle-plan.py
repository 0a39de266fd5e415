#!/usr/bin/env python3
"""Cuts the perf-kit's plan-full.json to the two-stage groups for the batch-recycling comparison of
2026-11-25: FastFlow, the unboxed pipeline with this commit's core (AFTER_LIB) and with the core
before recycling (the perf-kit's own lib, label suffix "-before"), each also on a pre-touched fixed
heap (-XX:+AlwaysPreTouch -Xms1g -Xmx1g, suffix "+pretouch"), and the boxed pipeline and raw JCTools
loop as before. With --farm instead: the ~10 us farm group (both languages' sequential loops,
FastFlow, BBFlow unboxed and boxed, ExecutorService, parallel stream), this core only.
Usage: recycle-plan.py WORK/plan-full.json AFTER_LIB [--farm] > WORK/plan.json"""
import copy, json, sys

KEEP = {'ff-nonblocking', 'bbflow-longs-backoff', 'bbflow-backoff', 'jctools'}
FLAGS = ['-XX:+AlwaysPreTouch', '-Xms1g', '-Xmx1g']
plan = json.load(open(sys.argv[1]))
after_lib = sys.argv[2]
FARM = {'cpp-seq', 'ff-nonblocking', 'java-seq', 'bbflow-longs-backoff', 'bbflow-backoff', 'executor', 'pstream'}
if sys.argv[3:] == ['--farm']:
    groups = []
    for g in plan['groups']:
        if g['name'] == 'farm W=3600 (~10 us/task)':
            g['configs'] = [c for c in g['configs'] if c['label'] in FARM]
            for c in g['configs']:
                c['cmd'] = [x.replace('/tmp/pk/java/lib/*', after_lib + '/*') for x in c['cmd']]
            groups.append(g)
    json.dump(dict(groups=groups), sys.stdout, indent=1)
    sys.exit(0)
groups = []
for g in plan['groups']:
    if g['name'] not in ('two-stage N=1M', 'two-stage N=10M'):
        continue
    configs = []
    for c in g['configs']:
        if c['label'] not in KEEP:
            continue
        if c['cmd'][0] != 'java':
            configs.append(c)
            continue
        cp = c['cmd'].index('-cp') + 1
        before_cp = c['cmd'][cp]
        after_cp = ':'.join(p if not p.endswith('lib/*') else after_lib + '/*' for p in before_cp.split(':'))
        now = copy.deepcopy(c)
        now['cmd'][cp] = after_cp
        configs.append(now)
        if c['label'] == 'bbflow-longs-backoff':
            before = copy.deepcopy(c)
            before['label'] += '-before'
            configs.append(before)
            for v in (now, before):
                t = copy.deepcopy(v)
                t['label'] += '+pretouch'
                t['cmd'] = ['java'] + FLAGS + t['cmd'][1:]
                configs.append(t)
    g['configs'] = configs
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
