#!/usr/bin/env python3
"""farm.py ROUNDS W ITEMS TAG[@PROP]:IMPL ... : alternate whole processes of PerfJ farm; warm = median of runs 5..9."""
import subprocess, sys, statistics, os
PK=os.environ.get('PK','/tmp/pk31')
rounds=int(sys.argv[1]); w=sys.argv[2]; items=sys.argv[3]; cfgs=sys.argv[4:]
res={}
print('load', open('/proc/loadavg').read().strip(), flush=True)
for r in range(rounds):
    for c in cfgs:
        tag,_,impl=c.partition(':')
        tag,_,prop=tag.partition('@')   # TAG@some.property: run with -Dsome.property=true
        cp=f'{PK}/pk-{tag}/java/classes:{PK}/pk-{tag}/java/lib/*'
        extra=[f'-D{prop}=true'] if prop else []
        out=subprocess.run(['java']+extra+['-cp',cp,'PerfJ','farm',impl,w,items,'10'],capture_output=True,text=True,timeout=600).stdout
        ts=[float(l.split()[-1]) for l in out.splitlines() if l.startswith('RUN')]
        res.setdefault(c,[]).append(statistics.median(ts[5:]))
print('load', open('/proc/loadavg').read().strip(), flush=True)
seq=statistics.median(res[[c for c in cfgs if c.endswith(':seq')][0]]) if any(c.endswith(':seq') for c in cfgs) else None
for c,v in res.items():
    m=statistics.median(v)
    print('%-28s warm med %8.2f [%s]%s'%(c,m,' '.join('%.1f'%x for x in v), '  speedup %.2f'%(seq/m) if seq else ''))
