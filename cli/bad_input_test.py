#!/usr/bin/env python3
"""Bad input to `dtrcheck run`: one clear error naming file and line, exit
code 2, nothing on stdout; unknown names list the valid ones."""
import json
import os
import subprocess
import sys
import tempfile
from typing import Dict, Tuple, Union

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from oracle import simrd_client  # noqa: E402

dtrcheck = sys.argv[1]
START = '{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n'
CONST = '{"INSTRUCTION":"CONSTANT","NAME":"x"}\n{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"x"}\n'
CALL_F = '{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"%s"}\n'
X_OF_SIZE = ('{"INSTRUCTION":"CONSTANT","NAME":"x"}\n'
             '{"INSTRUCTION":"MEMORY","MEMORY":"%s","NAME":"x"}\n')
# case: (trace text, the line the error must name)
CASES: Dict[str, Tuple[Union[str, bytes], int]] = {
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
    # Python's json.loads: "Extra data" after the object (Q-LINES).
    'NUL after the object': (START + '{"INSTRUCTION":"CONSTANT","NAME":"x"}\x00junk\n', 2),
    # A lone CR ends a line in Python's text mode: two halves, neither JSON.
    'lone CR inside an object': (START + '{"INSTRUCTION":"CONSTANT",\r"NAME":"x"}\n', 2),
    'form feed before the object': (START + '\x0c' + CONST, 2),
    'int() refuses a double underscore': (START + X_OF_SIZE % '1__0', 3),
    'int() refuses an exponent': (START + X_OF_SIZE % '1e3', 3),
    'null MEMORY': (START + CONST.replace('"8"', 'null'), 3),
    'a 2 MB bad line': (START + '{"INSTRUCTION":"CONSTANT","NAME":"' + 'x' * 2000000 + '"\n', 2),
    'a 17 MB line (Q-LONG-LINE)': (START + '{"INSTRUCTION":"CONSTANT","NAME":"' + 'x' * 17000000
                                   + '"}\n', 2),
    'a 2 MB unknown instruction': (START + '{"INSTRUCTION":"' + 'x' * 2000000 + '"}\n', 2),
    # simrd opens the log as UTF-8 text: UnicodeDecodeError.
    'invalid UTF-8 in a name': (START.encode() + CONST.encode()
                                + b'{"INSTRUCTION":"RELEASE","NAME":"\xc3\x28"}\n', 4),
    'invalid UTF-8 after the object': (
        START.encode() + b'{"INSTRUCTION":"CONSTANT","NAME":"x"}\xff\n', 2),
}
failed = 0
with tempfile.TemporaryDirectory() as d:
    for what, (text, line) in CASES.items():
        path = os.path.join(d, 'bad.log')
        if isinstance(text, bytes):
            open(path, 'wb').write(text)
        else:
            open(path, 'w', newline='').write(text)
        p = subprocess.run([dtrcheck, 'run', path, '--budget', '100', '--json'],
                           capture_output=True, text=True, timeout=30)
        ok = (p.returncode == 2 and p.stdout == '' and f'{path}:{line}:' in p.stderr
              and len(p.stderr) < 400 and p.stderr.count('\n') == 1)
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
    # Numeric options: what is wrong with the value, exit 2, nothing on stdout.
    good = os.path.join(d, 'good.log')
    open(good, 'w').write(START + CONST)
    # Integers beyond what dtrcheck's Int holds (-2^127 .. 2^127-1; simrd's
    # are unbounded): refused naming the option (QUIRKS.md, Q-INT-RANGE).
    big = str(2 ** 127)
    OPTIONS = [
        (['--ratio', 'nan'], 'is not a number'),
        (['--ratio', 'abc'], 'is not a number'),
        (['--ratio', '2e6'], 'is not in'),
        (['--budget', '1', '--overhead-limit', 'nan'], 'is not a number'),
        (['--budget', '1', '--overhead-limit', '-inf'], 'is not in'),
        (['--budget', big], '--budget: ' + big + ' is outside -2^127 .. 2^127-1'),
        (['--budget', '1', '--seed', str(-2 ** 127 - 1)], '--seed: '),
        (['--budget', '1', '--seed', '1' + '0' * 60], 'Q-INT-RANGE'),
        (['--budget', '1', '--remat-limit', big], '--remat-limit: '),
        (['--budget', '1x'], 'expected an integer'),
    ]
    for args, want in OPTIONS:
        p = subprocess.run([dtrcheck, 'run', good, *args, '--json'], capture_output=True, text=True)
        if not (p.returncode == 2 and p.stdout == '' and want in p.stderr):
            failed += 1
            print('FAIL option', args, p.returncode, p.stdout, p.stderr)
    for cmd in (['reduce', good, '--property', 'inversion', '--hi', 'nan'],
                ['reduce', good, '--property', 'inversion', '--hi-bytes', big, '-o',
                 os.path.join(d, 'r.log')]):
        p = subprocess.run([dtrcheck, *cmd], capture_output=True, text=True)
        if not (p.returncode == 2 and p.stdout == '' and '--hi' in p.stderr):
            failed += 1
            print('FAIL option', cmd, p.returncode, p.stdout, p.stderr)
    # TIME values summing past 2^64: text mode and --json print the exact
    # clock, as Python's unbounded ints give it (Q-INT-RANGE).
    times = [2 ** 63 - 1, 2 ** 63 - 2, 12345]
    calls = ''.join(
        '{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y%d"],"TIME":"%d"}\n'
        '{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"y%d"}\n'
        '{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y%d"}\n' % (k, t, k, k)
        for k, t in enumerate(times))
    open(good, 'w').write(START + CONST + calls)
    p = subprocess.run([dtrcheck, 'run', good, '--budget', '1000'], capture_output=True, text=True)
    clock = [int(line.split()[1]) for line in p.stdout.splitlines() if line.startswith('clock')]
    # simrd's clock, where simrd is installed; else at least past 2^64.
    want_clock = (simrd_client.run(good, {'budget': 1000})['clock']
                  if simrd_client.available() else None)
    if not (p.returncode == 0 and clock and clock[0] > sum(times) - 10
            and (want_clock is None or clock[0] == want_clock)):
        failed += 1
        print('FAIL big clock, text', p.returncode, p.stdout, p.stderr)
    p = subprocess.run([dtrcheck, 'run', good, '--budget', '1000', '--json'],
                       capture_output=True, text=True)
    record = json.loads(p.stdout) if p.returncode == 0 else {}
    if not (p.returncode == 0 and clock and record.get('clock') == clock[0]):
        failed += 1
        print('FAIL big clock, json', p.returncode, p.stdout, p.stderr)
    # A name released twice trips simrd's assertion in the run: the message
    # names the log line of the RELEASE that trips it.
    rel = '{"INSTRUCTION":"RELEASE","NAME":"x"}\n'
    open(good, 'w').write(START + CONST + '{"DST":"x2","INSTRUCTION":"COPY","SRC":"x"}\n'
                          + rel + rel + rel)
    p = subprocess.run([dtrcheck, 'run', good, '--budget', '1000', '--json'],
                       capture_output=True, text=True)
    err = json.loads(p.stderr) if p.stderr.startswith('{') else {}
    if not (p.returncode == 2 and p.stdout == '' and 'at log line 7)' in p.stderr
            and err.get('file') == good and err.get('line') == 7):
        failed += 1
        print('FAIL release twice', p.returncode, p.stdout, p.stderr)
    # ... and in text, FILE:LINE first, as every other bad input.
    p = subprocess.run([dtrcheck, 'run', good, '--budget', '1000'],
                       capture_output=True, text=True)
    if not (p.returncode == 2 and p.stdout == ''
            and p.stderr.startswith(f'dtrcheck run: {good}:7: simrd cannot replay')):
        failed += 1
        print('FAIL release twice, text', p.returncode, p.stdout, p.stderr)
    # simrd never reads a view's MEMORY value (`0 if alias != -1 else
    # int(memory)`): the run is simrd's, whatever the value.
    open(good, 'w').write(START + CONST + CALL_F % '5'
                          + '{"INSTRUCTION":"MEMORY","MEMORY":"lots","NAME":"y"}\n'
                          + '{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"y"}\n')
    p = subprocess.run([dtrcheck, 'run', good, '--budget', '100', '--json'],
                       capture_output=True, text=True)
    got = json.loads(p.stdout) if p.returncode == 0 else {}
    simrd_view = simrd_client.run(good, {'budget': 100}) if simrd_client.available() else None
    if not (p.returncode == 0 and got.get('status') == 'ok'
            and (simrd_view is None
                 or (simrd_view['status'], simrd_view['clock'], simrd_view['max_memory'])
                 == (got['status'], got['clock'], got['max_memory']))):
        failed += 1
        print('FAIL view MEMORY not read', p.returncode, p.stdout, p.stderr, simrd_view)
    extra = len(OPTIONS) + 7
print(f'{len(CASES) + 2 + extra - failed} passed, {failed} failed')
sys.exit(1 if failed else 0)
