#!/usr/bin/env python3
"""paired.py RUN.jsonl...: per group and configuration pair (`X now` / `X before`), the ratio now/before of each
round's warm median (the process's median of its second half of runs), and their geometric mean over rounds and runs."""
import json, sys, statistics, math, collections
pairs = collections.defaultdict(list)
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f)]
    med = {}
    for r in rows:
        runs = r['runs']; h = runs[len(runs) // 2:] if len(runs) > 1 else runs
        med[(r['group'], r['label'], r['round'])] = statistics.median(h)
    for (g, lab, rd), m in med.items():
        if lab.endswith(' now') and (g, lab[:-4] + ' before', rd) in med:
            pairs[(g, lab[:-4])].append(m / med[(g, lab[:-4] + ' before', rd)])
allr = []
for (g, lab), rs in sorted(pairs.items()):
    gm = math.exp(sum(map(math.log, rs)) / len(rs)); allr += rs
    print("%-22s %-14s now/before per round: %s  geo-mean %.2f  (%d of %d rounds faster)" % (g, lab, ' '.join('%.2f' % x for x in rs), gm, sum(x < 1 for x in rs), len(rs)))
print("all pairs: geo-mean %.2f, %d of %d faster" % (math.exp(sum(map(math.log, allr)) / len(allr)), sum(x < 1 for x in allr), len(allr)))
