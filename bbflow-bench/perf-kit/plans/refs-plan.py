#!/usr/bin/env python3
"""Cuts the perf-kit's full plan (made by `run.sh build`) to the groups of the generic object path's
comparison (issue 31): the two-stage pipeline at 1M and 10M items, warm and first run in a fresh
process, for FastFlow (non-blocking), BBFlow's generic path on existing objects (`refs`, the analog
of FastFlow's void*) under backoff and busy-spin, BBFlow boxed (a new Long per item), BBFlow's
unboxed LongNodes, and the raw JCTools hand-off of the same references (the floor).
Usage: refs-plan.py WORK/plan.json > WORK/refs.json"""
import json, sys

KEEP = {'ff-nonblocking', 'ff-nonblocking-nomap', 'bbflow-refs-backoff', 'bbflow-refs-busyspin', 'bbflow-backoff',
        'bbflow-longs-backoff', 'jctools-refs'}
GROUPS = {'two-stage N=1M', 'two-stage N=10M', 'cold two-stage N=1M', 'cold two-stage N=10M'}
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] in GROUPS:
        g['configs'] = [c for c in g['configs'] if c['label'] in KEEP]
        groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
