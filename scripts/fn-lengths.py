#!/usr/bin/env python3
"""List Rust functions longer than N lines (default 80), longest first: brace matching with
strings and comments skipped. Usage: scripts/fn-lengths.py [N] [FOLDER...] (default src)."""
import re, sys, os
N = int(sys.argv[1]) if len(sys.argv) > 1 else 80
roots = sys.argv[2:] or ["src"]
fn_re = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"C"\s+)?fn\s+(\w+)')
def strip(line, state):
    out=[]; i=0
    while i < len(line):
        c=line[i]
        if state['block']:
            if line.startswith('*/', i): state['block']=False; i+=2; continue
            i+=1; continue
        if state['str']:
            if c=='\\': i+=2; continue
            if c=='"': state['str']=False
            i+=1; continue
        if line.startswith('//', i): break
        if line.startswith('/*', i): state['block']=True; i+=2; continue
        if c=='"': state['str']=True; i+=1; continue
        if c=="'" and i+2 < len(line) and (line[i+2]=="'" or line[i+1]=='\\'):
            j=line.find("'", i+2 if line[i+1]!='\\' else i+3); i = j+1 if j>0 else i+1; continue
        out.append(c); i+=1
    return ''.join(out)
res=[]
for root in roots:
    for d,_,fs in os.walk(root):
        for f in fs:
            if not f.endswith('.rs'): continue
            p=os.path.join(d,f); lines=open(p).read().split('\n')
            state={'block':False,'str':False}
            clean=[strip(l,state) for l in lines]
            in_test=None
            for i,l in enumerate(lines):
                m=fn_re.match(clean[i])
                if not m: continue
                depth=0; started=False
                for j in range(i,len(lines)):
                    for c in clean[j]:
                        if c=='{': depth+=1; started=True
                        elif c=='}': depth-=1
                        elif c==';' and not started and depth==0: break
                    else:
                        if started and depth==0: break
                        continue
                    break
                if started:
                    n=j-i+1
                    if n>N: res.append((n,p,i+1,m.group(7)))
for n,p,l,name in sorted(res,reverse=True): print(f"{n:5} {p}:{l} {name}")
