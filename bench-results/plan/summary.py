#!/usr/bin/env python3
"""Medians (quartiles) per jar and benchmark of run-ab.sh's JSON files, and the core28/before and
core28/main ratios of the pooled medians with a 95 % bootstrap interval. Run in this folder."""
import glob, json, random, statistics

JARS = ['before', 'main', 'core28']

def samples(prefix, jar):
    """Every measured iteration, by benchmark parameter set, over all rounds and forks."""
    out = {}
    for f in sorted(glob.glob(f'{prefix}-{jar}-*.json')):
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

for prefix, name in (('two', 'TwoStageBench n=1000000'), ('farm', 'FarmBench workers=2 items=100000 work=1')):
    data = {j: samples(prefix, j) for j in JARS}
    for key in data['before']:
        cells = [q(data[j][key]) for j in JARS]
        n = len(data['core28'][key])
        print(f"| {name}, {key} | " + " | ".join(cells)
              + f" | {ratio(data['core28'][key], data['before'][key])} | {ratio(data['core28'][key], data['main'][key])} | {n} |")
