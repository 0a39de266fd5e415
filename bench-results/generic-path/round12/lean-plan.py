#!/usr/bin/env python3
"""Issue 31, twelfth round: the two-stage pipeline with the plain edge's leaner item path (3728d07) beside
the core before it, in the same rounds. Cuts the kit's full plan (run.sh build) to two-stage 1M and 10M
warm and 10M first run: FastFlow pinned and unpinned, the raw JCTools loop (the floor), BBFlow's generic
path (refs, backoff) on JDK 17 unpinned (the default) and pinned, and on JDK 25 unpinned and pinned, each
`now` (this kit) and `before` (BEFORE: the kit built on the core before the change).
Usage: BEFORE=/tmp/pk35 JDK25=/usr/lib/jvm/temurin-25-jdk-amd64 lean-plan.py WORK/plan.json > WORK/lean.json"""
import json, os, sys

JDK25 = os.environ.get('JDK25', '/usr/lib/jvm/temurin-25-jdk-amd64')
BEFORE = os.environ.get('BEFORE', '/tmp/pk35')
GROUPS = {'two-stage N=1M', 'two-stage N=10M', 'cold two-stage N=10M'}
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    if g['name'] not in GROUPS:
        continue
    cold = g['name'].startswith('cold')
    keep = [c for c in g['configs'] if c['label'] in ('ff-nonblocking', 'ff-nonblocking-nomap', 'jctools-refs')]
    t = next(c for c in g['configs'] if c['label'] == 'bbflow-refs-backoff')
    cp = t['cmd'][t['cmd'].index('-cp') + 1]
    work = cp.split('/java/classes')[0]
    variants = [('jdk17', 'bbflow-refs-backoff', [])]
    if not cold:
        variants += [('jdk17 pinned', 'bbflow-pinrefs-backoff', ['--add-modules', 'jdk.incubator.foreign', '--enable-native-access=ALL-UNNAMED']),
                     ('jdk25', 'bbflow-refs-backoff', ['JDK25']),
                     ('jdk25 pinned', 'bbflow-pinrefs-backoff', ['JDK25', '--enable-native-access=ALL-UNNAMED'])]
    for name, impl, opts in variants:
        for when, root in (('now', work), ('before', BEFORE)):
            c = json.loads(json.dumps(t))
            c['label'] = f'refs {name} {when}'
            java = f'{JDK25}/bin/java' if 'JDK25' in opts else c['cmd'][0]
            rest = c['cmd'][1:]
            rest[rest.index('-cp') + 1] = cp.replace(work, root)
            rest[rest.index('bbflow-refs-backoff')] = impl
            c['cmd'] = [java] + [o for o in opts if o != 'JDK25'] + rest
            keep.append(c)
    g['configs'] = keep
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
