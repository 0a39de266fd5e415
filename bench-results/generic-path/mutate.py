import sys
p="bbflow-core/src/main/java/org/bbflow/core/NodeRunner.java"  # run from the repository root
s=open(p).read()
m=sys.argv[1]
R={
 'noRuns': ('        this.runInput = plan.read == NodePlan.Read.SINGLE','        this.runInput = false && plan.read == NodePlan.Read.SINGLE'),
 'noReset': ('            itemsIn += k;\n            inputIndex = -1;','            itemsIn += k;'),
 'noCancel': ('                if (flag.raised) {\n                    throw Cancelled.INSTANCE;\n                }\n                k++;','                k++;'),
 'countAfter': ('                k++;\n                n.onItem(x, out);','                n.onItem(x, out);\n                k++;'),
}
a,b=R[m]; assert a in s, m; open(p,'w').write(s.replace(a,b))
