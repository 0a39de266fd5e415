#!/usr/bin/env python3
"""Series 2 of this folder (run-merged.sh): medians (quartiles) per jar and benchmark, and the
merged/before ratio of the pooled medians with a 95 % bootstrap interval. Run in this folder."""
import glob, json, random, statistics

JARS = ['before', 'merged']

def samples(prefix, jar):
    out = {}
    for f in sorted(glob.glob(f'm-{prefix}-{jar}-*.json')):
        for b in json.load(open(f)):
            key = b['params'].get('policy', b['params'].get('impl'))
            out.setdefault(key, []).extend(x for fork in b['primaryMetric']['rawData'] for x in fork)
    return out

def q(v):
    s = sorted(v)
    return f"{statistics.median(s):.2f} ({s[len(s) // 4]:.2f}-{s[3 * len(s) // 4]:.2f})"

def ratio(a, b):
    random.seed(1)
    bs = sorted(statistics.median(random.choices(a, k=len(a))) / statistics.median(random.choices(b, k=len(b)))
                for _ in range(4000))
    return f"{statistics.median(a) / statistics.median(b):.3f} ({bs[100]:.3f}-{bs[3900]:.3f})"

print("| benchmark (ms per run) | before | merged | merged / before | n |")
print("|---|---|---|---|---|")
for prefix, name in (('two', 'TwoStageBench n=1M, backoff'), ('farm', 'FarmBench 2 workers, 100k items')):
    data = {j: samples(prefix, j) for j in JARS}
    for key in data['before']:
        print(f"| {name}, {key} | {q(data['before'][key])} | {q(data['merged'][key])} | "
              f"{ratio(data['merged'][key], data['before'][key])} | {len(data['merged'][key])} |")
