import sys,re,statistics
rows={}
for line in sys.stdin:
    m=re.match(r'(\S+)\s+(\d+)\s+([\d.]+) ms\s+prod cpu (\d)->(\d) .*\| cons cpu (\d)->(\d)',line)
    if not m or int(m.group(2))<5: continue
    mode=m.group(1); t=float(m.group(3)); same = m.group(4)==m.group(6)
    rows.setdefault(mode,[]).append((t,same))
for k,v in rows.items():
    ts=[t for t,_ in v]; st=[t for t,s in v if s]; sp=[t for t,s in v if not s]
    print(f"{k:10s} runs {len(v)} median {statistics.median(ts):6.2f} ms | same cpu at start {len(st)} (median {statistics.median(st) if st else 0:.2f}) apart {len(sp)} (median {statistics.median(sp) if sp else 0:.2f})")
