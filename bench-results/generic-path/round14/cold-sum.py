import re,statistics,collections,sys
d=collections.defaultdict(list); w=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'(\S+) (\d+) rc=(\d+) run=([\d.]+)',line)
    if m: d[m.group(1)].append(float(m.group(4))); w[m.group(1)].append(int(m.group(2)))
ff=statistics.median(d['ff-nonblocking'])
for k,v in d.items():
    print(f"{k:34s} {statistics.median(v):7.1f} [{min(v):.0f}-{max(v):.0f}]  x{statistics.median(v)/ff:5.2f}  whole {statistics.median(w[k])} ms")
