#!/usr/bin/env python3
"""ab.py ROUNDS TAG1 TAG2 ... : alternate whole processes; groups given by env ABGROUPS; prints medians.
Env PK: the directory of the pk-TAG builds (mkjava.sh; /tmp/perf31 in the first session, /tmp/pk31 in the
second); FLOOR: the build whose jctools-refs is the floor (base, then before)."""
import subprocess, sys, statistics, json, os, time
PK=os.environ.get('PK','/tmp/perf31'); FLOOR=os.environ.get('FLOOR','base')
rounds=int(sys.argv[1]); tags=sys.argv[2:]
groups=[('two','bbflow-refs-backoff','10000000','10',5),('two','bbflow-refs-backoff','1000000','30',20)]
if os.environ.get('ABGROUPS'):
    groups=json.loads(os.environ['ABGROUPS'])
res={}
log=open(os.environ.get('ABLOG',f'{PK}/ab.log'),'a')
print('load', open('/proc/loadavg').read().strip(), file=log, flush=True)
for r in range(rounds):
    for g in groups:
        mode,impl,n,runs,warm=g
        for t in tags:
            d,_,pause=t.partition('@')
            cp=f'{PK}/pk-{d}/java/classes:{PK}/pk-{d}/java/lib/*'
            extra=[f'-Dbbflow.plainPause={pause}'] if pause else []
            if d=='floor': cp=f'{PK}/pk-{FLOOR}/java/classes:{PK}/pk-{FLOOR}/java/lib/*'
            im='jctools-refs' if d=='floor' else impl
            out=subprocess.run(['java']+extra+['-cp',cp,'PerfJ',mode,im,n,runs],capture_output=True,text=True,timeout=600).stdout
            ts=[float(l.split()[-1]) for l in out.splitlines() if l.startswith('RUN')]
            key=f'{t} {impl} {n}'
            res.setdefault(key,{'warm':[],'first':[]})
            res[key]['warm'].append(statistics.median(ts[warm:]))
            res[key]['first'].append(ts[0])
            print(r,key,'warm %.2f first %.2f'%(statistics.median(ts[warm:]),ts[0]),file=log,flush=True)
print('load', open('/proc/loadavg').read().strip(), file=log, flush=True)
for k,v in res.items():
    line='%-45s warm med %.2f [%s]  first med %.2f [%s]'%(k,statistics.median(v['warm']),' '.join('%.1f'%x for x in v['warm']),statistics.median(v['first']),' '.join('%.0f'%x for x in v['first']))
    print(line); print(line,file=log)
