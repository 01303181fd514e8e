#!/usr/bin/env python3
"""Bad input to `dtrcheck run`: one clear error naming file and line, exit
code 2, nothing on stdout; unknown names list the valid ones."""
import os
import subprocess
import sys
import tempfile

dtrcheck = sys.argv[1]
START = '{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n'
CONST = '{"INSTRUCTION":"CONSTANT","NAME":"x"}\n{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"x"}\n'
CALL_F = '{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"%s"}\n'
X_OF_SIZE = ('{"INSTRUCTION":"CONSTANT","NAME":"x"}\n'
             '{"INSTRUCTION":"MEMORY","MEMORY":"%s","NAME":"x"}\n')
# case: (trace text, the line the error must name)
CASES = {
    'bad JSON': (START + '{"INSTRUCTION": CALL}\n', 2),
    'unknown instruction': (START + '{"INSTRUCTION":"FROB"}\n', 2),
    'CALL without MEMORY': (START + CONST + CALL_F % '1', 4),
    'undefined tensor': (START + '{"DST":"b","INSTRUCTION":"COPY","SRC":"a"}\n', 2),
    'duplicate result': (START + CONST + '{"DST":"x","INSTRUCTION":"COPY","SRC":"x"}\n', 4),
    'negative size': (START + X_OF_SIZE % '-1', 3),
    'non-numeric time': (START + CONST + CALL_F % 'soon'
                         + '{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"y"}\n'
                         + '{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}\n', 4),
    'overflowing number': (START + X_OF_SIZE % ('1' + '0' * 40), 3),
    'no START': (CONST, 2),
}
failed = 0
with tempfile.TemporaryDirectory() as d:
    for what, (text, line) in CASES.items():
        path = os.path.join(d, 'bad.log')
        open(path, 'w').write(text)
        p = subprocess.run([dtrcheck, 'run', path, '--budget', '100', '--json'],
                           capture_output=True, text=True, timeout=30)
        ok = p.returncode == 2 and p.stdout == '' and f'{path}:{line}:' in p.stderr
        if not ok:
            failed += 1
            print(f'FAIL {what}: exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}')
    p = subprocess.run([dtrcheck, 'run', path, '--budget', '1', '--runtime', 'RuntimeV9'],
                       capture_output=True, text=True)
    if not (p.returncode == 2 and 'RuntimeV2EagerOptimized' in p.stderr and p.stdout == ''):
        failed += 1
        print('FAIL unknown runtime:', p.returncode, p.stderr)
    p = subprocess.run([dtrcheck, 'run', path, '--budget', '1', '--heuristic', 'Nope'],
                       capture_output=True, text=True)
    if not (p.returncode == 2 and 'AbRandom' in p.stderr and p.stdout == ''):
        failed += 1
        print('FAIL unknown heuristic:', p.returncode, p.stderr)
print(f'{len(CASES) + 2 - failed} passed, {failed} failed')
sys.exit(1 if failed else 0)
