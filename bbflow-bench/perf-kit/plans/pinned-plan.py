#!/usr/bin/env python3
"""Cuts the perf-kit's full plan (made by `run.sh build`) to the two-stage pipeline and the farm (~1 and
~10 us tasks) with BBFlow's node threads pinned (ThreadMapping.roundRobin(), issue 31's eighth round):
FastFlow pinned (its default) and unpinned; BBFlow's generic path on existing objects (`refs`, backoff;
the farm: boxed, backoff) and the unboxed path (`LongNodes`, backoff) on the default JDK, and on JDK 25 both unpinned and pinned (pinning needs
JDK 22+: the foreign function API), in the same rounds; the farm also beside the sequential loop and
the parallel stream.
Since the ninth round the default JDK 17 pins too (its incubating foreign API, with
--add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED): the `jdk17` copies.
Usage: JDK25=/usr/lib/jvm/temurin-25-jdk-amd64 pinned-plan.py WORK/plan.json > WORK/pinned.json"""
import json, os, sys

JDK25 = os.environ.get('JDK25', '/usr/lib/jvm/temurin-25-jdk-amd64')
KEEP = {'ff-nonblocking', 'ff-nonblocking-nomap', 'bbflow-refs-backoff', 'cpp-seq', 'java-seq', 'pstream',
        'bbflow-backoff', 'bbflow-longs-backoff'}
GROUPS = {'two-stage N=1M', 'two-stage N=10M', 'cold two-stage N=1M', 'cold two-stage N=10M'}
FARMS = ('farm W=360 ', 'farm W=3600 ')
plan = json.load(open(sys.argv[1]))
groups = []
for g in plan['groups']:
    farm = g['name'].startswith(FARMS)
    if g['name'] not in GROUPS and not farm:
        continue
    g['configs'] = [c for c in g['configs'] if c['label'] in KEEP and (farm or c['label'] != 'bbflow-backoff')]
    # JDK 25 copies of a Java configuration (its impl argument replaced); a farm's speedups on JDK 25 are
    # over the sequential loop on JDK 25
    if farm:
        template, impl_at = next(c for c in g['configs'] if c['label'] == 'java-seq'), 'seq'
        impls = ['seq', 'bbflow-backoff', 'bbflow-pin-backoff', 'bbflow-longs-backoff', 'bbflow-longs-pin-backoff']
    else:
        template, impl_at = next(c for c in g['configs'] if c['label'] == 'bbflow-refs-backoff'), 'bbflow-refs-backoff'
        impls = ['bbflow-refs-backoff', 'bbflow-pinrefs-backoff', 'bbflow-longs-backoff', 'bbflow-longs-pin-backoff']
    for impl in impls:
        c = json.loads(json.dumps(template))
        c['label'] = ('java-seq' if impl == 'seq' else impl) + ' jdk25'
        c['cmd'] = [f'{JDK25}/bin/java', '--enable-native-access=ALL-UNNAMED'] + c['cmd'][1:]
        c['cmd'][c['cmd'].index(impl_at)] = impl
        g['configs'].append(c)
    for impl in [i for i in impls if 'pin' in i]:
        c = json.loads(json.dumps(template))
        c['label'] = impl + ' jdk17'
        c['cmd'] = [c['cmd'][0], '--add-modules', 'jdk.incubator.foreign', '--enable-native-access=ALL-UNNAMED'] + c['cmd'][1:]
        c['cmd'][c['cmd'].index(impl_at)] = impl
        g['configs'].append(c)
    groups.append(g)
json.dump(dict(groups=groups), sys.stdout, indent=1)
