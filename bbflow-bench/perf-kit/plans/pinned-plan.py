#!/usr/bin/env python3
"""Cuts the perf-kit's full plan (made by `run.sh build`) to the two-stage pipeline with BBFlow's node
threads pinned (ThreadMapping.roundRobin(), issue 31's eighth round): FastFlow pinned (its default) and
unpinned; BBFlow's generic path on existing objects (`refs`, backoff) on the default JDK, and on JDK 25
both unpinned and pinned (pinning needs JDK 22+: the foreign function API), in the same rounds.
Usage: JDK25=/usr/lib/jvm/temurin-25-jdk-amd64 pinned-plan.py WORK/plan.json > WORK/pinned.json"""
import json, os, sys

JDK25 = os.environ.get('JDK25', '/usr/lib/jvm/temurin-25-jdk-amd64')
KEEP = {'ff-nonblocking', 'ff-nonblocking-nomap', 'bbflow-refs-backoff'}
GROUPS = {'two-stage N=1M', 'two-stage N=10M', 'cold two-stage N=1M', 'cold two-stage N=10M'}
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] not in GROUPS:
        continue
    g['configs'] = [c for c in g['configs'] if c['label'] in KEEP]
    refs = next(c for c in g['configs'] if c['label'] == 'bbflow-refs-backoff')
    for label, impl in (('bbflow-refs-backoff jdk25', 'bbflow-refs-backoff'),
                        ('bbflow-pinrefs-backoff jdk25', 'bbflow-pinrefs-backoff')):
        c = json.loads(json.dumps(refs))
        c['label'] = label
        c['cmd'] = [f'{JDK25}/bin/java', '--enable-native-access=ALL-UNNAMED'] + c['cmd'][1:]
        c['cmd'][c['cmd'].index('bbflow-refs-backoff')] = impl
        g['configs'].append(c)
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
