#!/usr/bin/env python3
"""Cuts the perf-kit's plan-full.json (made by `run.sh build` from this checkout) to the groups behind
the speed issue's other goals, re-measured on 2026-11-26's host: the farm of 2 workers at ~1 us and
~10 us tasks (both languages' sequential loops, FastFlow, BBFlow unboxed and boxed, ExecutorService,
parallel stream) and the round trip through a 2-stage feedback pipeline (FastFlow and BBFlow,
non-blocking and blocking).
Usage: goals-plan.py WORK/plan-full.json > WORK/plan.json"""
import json, sys

FARM = {'cpp-seq', 'ff-nonblocking', 'ff-nonblocking-nomap', 'java-seq', 'bbflow-longs-backoff', 'bbflow-backoff', 'executor', 'pstream', 'pstream-boxed'}
PING = {'ff-nonblocking', 'ff-nonblocking-nomap', 'ff-blocking', 'bbflow-backoff', 'bbflow-blocking'}
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] in ('farm W=360 (~1 us/task)', 'farm W=3600 (~10 us/task)'):
        g['configs'] = [c for c in g['configs'] if c['label'] in FARM]
    elif g['name'] == 'ping-pong (feedback pipeline)':
        g['configs'] = [c for c in g['configs'] if c['label'] in PING]
    else:
        continue
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
