import re,sys
for f in sys.argv[1:]:
    txt=open(f).read()
    blocks=txt.split("flow 'pipeline'")[1:]
    for b in blocks:
        m=re.search(r'RUN \S+ two (\d+) ([\d.]+)',b); d=re.search(r'DIAG occ \[(.*?)\] end\[bound,empty\] \[(.*?)\]',b)
        if not m or int(m.group(1))<20: continue
        rows=[l.split() for l in b.split('\n') if l.startswith('pipeline/')]
        busy=float(rows[0][3]); off=float(rows[0][5])+float(rows[1][5])
        reg='B' if off>3 else ('C' if busy>8 else 'A')
        print(f[-5],m.group(1),m.group(2),reg, ' | '.join(' '.join(x[3:6]) for x in rows), ' occ', d.group(1) if d else '', ' end', d.group(2) if d else '')
