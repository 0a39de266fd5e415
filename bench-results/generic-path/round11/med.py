import sys,statistics
spec=sys.argv[1]; runs=[float(l.split()[4]) for l in sys.stdin if l.startswith("RUN")]
h=runs[len(runs)//2:]
if not h: print(spec,"no runs"); sys.exit()
print("%-44s med %7.2f min %7.2f max %7.2f  slow(>1.6min) %d/%d"%(spec,statistics.median(h),min(h),max(h),sum(1 for x in h if x>1.6*min(h)),len(h)))
