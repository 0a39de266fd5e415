import sys, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if not f or not f[0].startswith('r'): continue
    i = 3
    d['ff'].append(float(f[4]))
    i = 5
    while i + 1 < len(f):
        d[f[i]].append(float(f[i+1])); i += 2
ff = statistics.median(d['ff'])
for k, v in d.items():
    v.sort(); m = statistics.median(v)
    print(f"{k:28s} n={len(v):3d} median {m:7.1f}  q1 {v[len(v)//4]:7.1f} q3 {v[3*len(v)//4]:7.1f}  / ff {m/ff:5.2f}")
