import sys,statistics
tag=sys.argv[1]; R=[];P=[];C=[]
for l in sys.stdin:
    if l.startswith("RUN"):
        f=l.split(); R.append(float(f[4])); P.append(float(f[6])); C.append(float(f[8]))
h=lambda a:a[len(a)//2:]
print("%-40s run %6.2f  prod cpu %6.2f  cons cpu %6.2f"%(tag,statistics.median(h(R)),statistics.median(h(P)),statistics.median(h(C))))
