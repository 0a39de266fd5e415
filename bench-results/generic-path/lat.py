#!/usr/bin/env python3
"""lat.py ROUNDS TAG... : sparse two-stage latency, alternating whole processes; medians over rounds of the
warm runs' (runs 1..2 of 3) percentiles. Env IMPL (default bbflow-refs-backoff), GAPS, BUSY, ITEMS."""
import subprocess, sys, statistics, os
PK=os.environ.get('PK','/tmp/pk31')
rounds=int(sys.argv[1]); tags=sys.argv[2:]
impl=os.environ.get('IMPL','bbflow-refs-backoff')
gaps=os.environ.get('GAPS','2000,10000,50000').split(','); busys=os.environ.get('BUSY','0,2').split(',')
items=os.environ.get('ITEMS','20000')
res={}
print('load', open('/proc/loadavg').read().strip(), flush=True)
for r in range(rounds):
    for g in gaps:
        for b in busys:
            for t in tags:
                cp=f'{PK}/pk-{t}/java/classes:{PK}/pk-{t}/java/lib/*'
                out=subprocess.run(['java','-cp',cp,'PerfJ','lat',impl,g,items,'3',b],capture_output=True,text=True,timeout=600).stdout
                for l in out.splitlines():
                    f=l.split()
                    if f and f[0]=='LAT' and f[4] in ('1','2'):
                        d=dict(zip(f[5::2],f[6::2]))
                        res.setdefault((g,b,t),[]).append((float(d['p50']),float(d['p99']),float(d['p99.9'])))
print('load', open('/proc/loadavg').read().strip(), flush=True)
print('| gap | busy threads | variant | p50 us | p99 us | p99.9 us |')
print('|---|---|---|---|---|---|')
for (g,b,t),v in res.items():
    print('| %s us | %s | %s | %.2f | %.1f | %.1f |'%(int(g)/1000,b,t,statistics.median(x[0] for x in v),statistics.median(x[1] for x in v),statistics.median(x[2] for x in v)))
