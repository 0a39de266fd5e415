#!/usr/bin/env python3
"""Cuts the perf-kit's plan.json to the two-stage groups (and ping-pong) with the configurations
compared on 2026-11-25, and adds each Java configuration again with a pre-touched fixed heap
(-XX:+AlwaysPreTouch -Xms1g -Xmx1g, label suffix "+pretouch").
Usage: pretouch-plan.py WORK/plan-full.json > WORK/plan.json"""
import copy, json, sys

KEEP = {'ff-nonblocking', 'ff-blocking', 'bbflow-longs-backoff', 'bbflow-backoff', 'jctools'}
FLAGS = ['-XX:+AlwaysPreTouch', '-Xms1g', '-Xmx1g']
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] not in ('two-stage N=1M', 'two-stage N=10M', 'ping-pong (feedback pipeline)'):
        continue
    if g['name'].startswith('two-stage'):
        configs = [c for c in g['configs'] if c['label'] in KEEP]
        for c in list(configs):
            if c['cmd'][0] == 'java':
                t = copy.deepcopy(c)
                t['label'] += '+pretouch'
                t['cmd'] = ['java'] + FLAGS + t['cmd'][1:]
                configs.append(t)
        g['configs'] = configs
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
