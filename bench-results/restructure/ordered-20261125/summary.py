#!/usr/bin/env python3
"""Per-round and pooled main/old ratios of the ordered-ab.sh JSON files, with a bootstrap interval."""
import glob, json, random, statistics

def raw(f):
    d = json.load(open(f))
    return [x for fork in d[0]['primaryMetric']['rawData'] for x in fork]

rounds = sorted(int(f.split('-')[-1][:-5]) for f in glob.glob('ordered-old-*.json'))
old, main, ratios = [], [], []
for r in rounds:
    o, m = raw(f'ordered-old-{r}.json'), raw(f'ordered-main-{r}.json')
    old += o
    main += m
    ratios.append(statistics.median(m) / statistics.median(o))
print('main/old per round:', ' '.join(f'{x:.2f}' for x in ratios))
print('main slower in', sum(x > 1 for x in ratios), 'of', len(ratios))
def q(v):
    s = sorted(v)
    return f'{statistics.median(s):.2f} ({s[len(s) // 4]:.2f}-{s[3 * len(s) // 4]:.2f})'
print('old', q(old), 'main', q(main), 'samples', len(old), len(main))
random.seed(1)
bs = sorted(statistics.median(random.choices(main, k=len(main))) / statistics.median(random.choices(old, k=len(old)))
            for _ in range(5000))
print(f'main/old pooled {statistics.median(main) / statistics.median(old):.3f}, 95 % bootstrap {bs[125]:.3f}-{bs[4875]:.3f}')
