#!/bin/bash
# experiment: yield-first on the run loop and the plain put (off by default, -Dbbflow.yieldFirst=true)
echo "== start $(date) $(uptime)"
cd /tmp/perf31/wt-yield
./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests 2>&1 | tail -20 || exit 1
cp bbflow-bench/target/benchmarks.jar /tmp/perf31/jars/yield.jar
/tmp/perf31/mkjava.sh yield /tmp/perf31/jars/yield.jar
echo "== ab $(date) $(uptime)"
python3 - <<'PY'
import subprocess, statistics
log=open('/tmp/perf31/ab-round5.log','a')
print('load', open('/proc/loadavg').read().strip(), file=log, flush=True)
res={}
cfg=[('final',[]),('yield',['-Dbbflow.yieldFirst=true']),('floor',[])]
for r in range(5):
    for impl,n,runs,warm in [('bbflow-refs-backoff','10000000','10',5),('bbflow-refs-backoff','1000000','30',20),('bbflow-refs-busyspin','10000000','10',5)]:
        for tag,opts in cfg:
            d='base' if tag=='floor' else tag
            im='jctools-refs' if tag=='floor' else impl
            if tag=='floor' and 'busyspin' in impl: continue
            cp=f'/tmp/perf31/pk-{d}/java/classes:/tmp/perf31/pk-{d}/java/lib/*'
            out=subprocess.run(['java']+opts+['-cp',cp,'PerfJ','two',im,n,runs],capture_output=True,text=True,timeout=600).stdout
            ts=[float(l.split()[-1]) for l in out.splitlines() if l.startswith('RUN')]
            k=f'{tag} {impl} {n}'; w=statistics.median(ts[warm:])
            res.setdefault(k,[]).append(w)
            print(r,k,'warm %.2f first %.2f'%(w,ts[0]),file=log,flush=True)
print('load', open('/proc/loadavg').read().strip(), file=log, flush=True)
for k,v in res.items():
    line='%-42s warm med %.2f [%s]'%(k,statistics.median(v),' '.join('%.1f'%x for x in v)); print(line); print(line,file=log)
PY
echo "== end $(date) $(uptime)"
