#!/usr/bin/env python3
"""Summarises an async-profiler collapsed-stack file of PerfJ's two-stage pipeline per thread side:
the producer (frames under the source's generate lambda, PerfJ.lambda$two$1) and the consumer
(frames under the runtime's input loop), each split by the path below that frame.
usage: profile-summary.py FILE.collapsed [TOP]"""
import collections, sys

f = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
total = 0
sides = {'producer': collections.Counter(), 'consumer': collections.Counter(), 'other': collections.Counter()}
for line in open(f):
    stack, n = line.rsplit(' ', 1)
    n = int(n)
    total += n
    frames = stack.split(';')
    side, at = 'other', None
    for k, fr in enumerate(frames):
        if 'lambda$two$1' in fr or 'lambda$jcRefs$22' in fr:
            side, at = 'producer', k
            break
        if fr.split('.')[0].endswith(('CollectSingleInput', 'CollectRuns')) or 'lambda$jcRefs$23' in fr:
            side, at = 'consumer', k
            break
    short = lambda x: x.replace('org/bbflow/core/', '').replace('org/jctools/queues/', '').replace('java/lang/', '')
    key = ';'.join(short(x) for x in frames[at + 1:]) if at is not None else short(frames[-1])
    sides[side][key] += n
print(f'{f}: {total} samples')
for side, c in sides.items():
    s = sum(c.values())
    print(f'{side}: {s} samples ({100 * s / max(total, 1):.1f} %)')
    for k, v in c.most_common(top):
        print(f'  {v:6d} {100 * v / max(s, 1):5.1f} %  {k[-160:] or "(the frame itself)"}')
