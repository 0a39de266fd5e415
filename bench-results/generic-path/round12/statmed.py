import sys,re,statistics
tag=sys.argv[1]; el=[];sb=[];kb=[];so=[];ko=[]
for l in sys.stdin:
    m=re.match(r"flow '.*': \d+ nodes, elapsed ([\d.]+) ms",l)
    if m: el.append(float(m.group(1)))
    f=l.split()
    if l.startswith("pipeline/source"): sb.append(float(f[3])); so.append(float(f[5]))
    if l.startswith("pipeline/sink"): kb.append(float(f[3])); ko.append(float(f[5]))
h=lambda a: a[len(a)//2:]
md=lambda a: statistics.median(h(a)) if a else float('nan')
print("%-40s elapsed %6.2f  src busy %6.2f off %5.2f  sink busy %6.2f off %5.2f  (n=%d)"%(tag,md(el),md(sb),md(so),md(kb),md(ko),len(h(el))))
