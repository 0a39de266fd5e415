#!/usr/bin/env python3
"""ping.py ROUNDS TAG... : alternate whole processes of PerfJ ping bbflow-backoff 200000 8; warm = median of runs 3..7."""
import subprocess, sys, statistics, os
PK=os.environ.get('PK','/tmp/pk31')
rounds=int(sys.argv[1]); tags=sys.argv[2:]
impl=os.environ.get('IMPL','bbflow-backoff')
res={}
print('load', open('/proc/loadavg').read().strip(), flush=True)
for r in range(rounds):
    for t in tags:
        cp=f'{PK}/pk-{t}/java/classes:{PK}/pk-{t}/java/lib/*'
        out=subprocess.run(['java','-cp',cp,'PerfJ','ping',impl,'200000','8'],capture_output=True,text=True,timeout=600).stdout
        ts=[float(l.split()[-1]) for l in out.splitlines() if l.startswith('RUN')]
        res.setdefault(t,[]).append(statistics.median(ts[3:]))
print('load', open('/proc/loadavg').read().strip(), flush=True)
for t,v in res.items():
    print('%-10s warm med %7.2f ms [%s]'%(t,statistics.median(v),' '.join('%.1f'%x for x in v)))
