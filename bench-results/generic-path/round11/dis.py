import sys,re,subprocess,tempfile
# usage: dis.py FILE "Compiled method header substring" -> objdump listing with HotSpot comments interleaved
f,hdr=sys.argv[1],sys.argv[2]
lines=open(f).read().split('\n')
i=next(k for k,l in enumerate(lines) if hdr in l)
j=next(k for k in range(i,len(lines)) if '[MachCode]' in lines[k])
code=bytearray(); start=None; comments={}
for l in lines[j+1:]:
    if l.startswith('[Stub Code]') or l.startswith('[/MachCode]') or l.startswith('[Exception Handler]') or l.startswith('-----'): break
    m=re.match(r'\s*0x([0-9a-f]+): (.*)',l)
    if m:
        addr=int(m.group(1),16); rest=m.group(2)
        if rest.startswith(';'):
            comments.setdefault(addr,[]).append(rest.strip()); continue
        hexs=rest.replace('|','').replace(' ','')
        if not re.fullmatch(r"[0-9a-f]*",hexs): hexs=re.match(r"[0-9a-f]*",hexs).group(0); hexs=hexs[:len(hexs)//2*2]
        if start is None: start=addr
        if addr!=start+len(code): break
        code+=bytes.fromhex(hexs)
    elif l.strip().startswith(';') and 'addr' in dir():
        comments.setdefault(addr,[]).append(l.strip())
t=tempfile.NamedTemporaryFile(delete=False); t.write(code); t.close()
out=subprocess.run(['objdump','-D','-b','binary','-mi386:x86-64','--adjust-vma=%d'%start,t.name],capture_output=True,text=True).stdout
for l in out.split('\n'):
    m=re.match(r'\s*([0-9a-f]+):',l)
    if m:
        a=int(m.group(1),16)
        for c in comments.pop(a,[]): print('      '+c)
    print(l)
