#!/usr/bin/env python3
"""A new user's path through dtrcheck's conventions (issue 17): a trace is
named by file or by name in every command; an unknown one lists the names;
--version names both commits; help names the traces; a typo in a command or an option names the
closest; every error starts with `dtrcheck` (and the command), and with
--json is one JSON object on stderr with stdout empty; check-finding refuses
an archived trace whose bytes changed.

    python3 tests/cli/user_path_test.py build/bin/dtrcheck
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMALL = os.path.join(ROOT, 'tests', 'data', 'small_resnet.log')
# The smallest archived inversion (7 operators).
ENTRY = os.path.join(ROOT, 'tests', 'data', 'archive', 'inversion', '35bb6d445d81d295')

failures: List[str] = []


def check(ok: bool, what: str, p: 'subprocess.CompletedProcess[str]') -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)
        print(f'  exit {p.returncode}\n  stdout {p.stdout[:600]!r}\n  stderr {p.stderr[:600]!r}')


def run(args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck] + args, capture_output=True, text=True, timeout=300)


dtrcheck = sys.argv[1]

# Names: a name that is neither a file nor a trace lists the names, in every
# command that takes a TRACE (at parse time, before anything runs).
for command in [['run', '--budget', '1'], ['diff', '--budget', '1'], ['sweep'], ['scan'],
                ['diagnose', '--budget', '1'], ['compare'], ['optimal', '--budget', '1'],
                ['reduce', '--property', 'cliff']]:
    p = run([command[0], 'resnet23'] + command[1:])
    check(p.returncode == 2 and p.stdout == '' and 'resnet32' in p.stderr
          and p.stderr.startswith('dtrcheck ' + command[0] + ': '),
          f'{command[0]}: an unknown trace name lists the names', p)

# The help of a command that takes a TRACE, and of trace-path, names the
# public and the captured traces (put in when help is printed).
for name in ['run', 'diff', 'sweep', 'reduce', 'trace-path']:
    p = run([name, '--help'])
    check(p.returncode == 0 and 'resnet32' in p.stdout and 'captured: resnet50' in p.stdout
          and '{trace names}' not in p.stdout,
          f'{name} --help names the public and captured traces', p)

# A public trace by name, where the public traces are present.
where = run(['trace-path', 'resnet32'])
if where.returncode == 0:
    by_name = run(['run', 'resnet32', '--ratio', '1', '--json'])
    by_path = run(['run', where.stdout.strip(), '--ratio', '1', '--json'])
    check(by_name.returncode == 0 and by_name.stdout == by_path.stdout,
          'run resnet32 is run on its file', by_name)
else:
    print('skip run by name: the public traces are not here')
# A file is used as given.
p = run(['run', SMALL, '--ratio', '1'])
check(p.returncode == 0, 'run FILE still works', p)

# --version: version, dtrcheck commit, simrd commit.
p = run(['--version'])
check(p.returncode == 0 and p.stdout.startswith('dtrcheck ') and 'commit' in p.stdout
      and 'eff53cc4804cc7d6246a6e5086861ce2b846f62b' in p.stdout, '--version', p)

# Typos name the closest command or option.
p = run(['swep', SMALL])
check(p.returncode == 2 and "did you mean 'sweep'" in p.stderr
      and p.stderr.startswith('dtrcheck: '), 'swep -> sweep', p)
p = run(['run', SMALL, '--ratoi', '0.5'])
check(p.returncode == 2 and 'did you mean --ratio' in p.stderr
      and p.stderr.startswith('dtrcheck run: '), '--ratoi -> --ratio', p)
p = run(['run', SMALL, '--ratio', '0.5', '--heuristc', 'DTR'])
check(p.returncode == 2 and 'did you mean --heuristic' in p.stderr, '--heuristc', p)
p = run(['frobnicate'])
check(p.returncode == 2 and 'did you mean' not in p.stderr, 'no suggestion when nothing is close',
      p)

# One error style; with --json the error is a JSON object on stderr.
p = run(['run', 'resnet23', '--budget', '1', '--json'])
try:
    error = json.loads(p.stderr)
except ValueError:
    error = {}
check(p.returncode == 2 and p.stdout == '' and error.get('command') == 'run'
      and 'resnet32' in error.get('error', ''), '--json: a parse error is JSON on stderr', p)
with tempfile.TemporaryDirectory() as d:
    bad = os.path.join(d, 'bad.log')
    with open(bad, 'w') as f:
        f.write('{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n{"INSTRUCTION": CALL}\n')
    p = run(['run', bad, '--budget', '1', '--json'])
    try:
        error = json.loads(p.stderr)
    except ValueError:
        error = {}
    check(p.returncode == 2 and p.stdout == '' and error.get('file') == bad
          and error.get('line') == 2, '--json: a trace error names file and line', p)
    p = run(['run', bad, '--budget', '1'])
    check(p.returncode == 2 and p.stderr.startswith(f'dtrcheck run: {bad}:2:'),
          'text: "dtrcheck run: FILE:LINE: ..."', p)

    # Integrity: an edited archived trace is reported, not replayed.
    entry = os.path.join(d, 'entry')
    shutil.copytree(ENTRY, entry)
    p = run(['check-finding', entry])
    check(p.returncode == 0 and 'still holds' in p.stdout, 'check-finding on a copy holds', p)
    with open(os.path.join(entry, 'trace.log'), 'a') as f:
        f.write('\n')
    p = run(['check-finding', entry])
    check(p.returncode == 1 and 'SHA-256 differs' in p.stdout and 'still holds' not in p.stdout,
          'check-finding reports an edited trace', p)


def json_out(p: 'subprocess.CompletedProcess[str]') -> Dict[str, Any]:
    try:
        result: Dict[str, Any] = json.loads(p.stdout)
        return result
    except ValueError:
        return {}


# --json on every command that gives a verdict.
p = run(['traces', '--json'])
check(p.returncode in (0, 1) and
      any(t.get('name') == 'resnet32' for t in json_out(p).get('traces', [])), 'traces --json', p)
p = run(['check-finding', '--json', ENTRY])
check(p.returncode == 0 and json_out(p).get('findings', [{}])[0].get('verdict') == 'holds',
      'check-finding --json', p)
p = run(['replay', '--json', os.path.join(ROOT, 'corpus', 'oracle', 'local_chain.jsonl')])
check(p.returncode == 0 and json_out(p).get('failed') == 0 and json_out(p).get('passed', 0) > 0,
      'replay --json', p)
with tempfile.TemporaryDirectory() as d:
    manifest = json.load(open(os.path.join(ENTRY, 'manifest.json')))
    hi = manifest['budgets']['hi']['ratio']
    lo = manifest['budgets']['lo']['ratio']
    p = run(['reduce', os.path.join(ENTRY, 'trace.log'), '--property', 'inversion',
             '--lo', str(lo), '--hi', str(hi), '--runtime', manifest['config']['runtime'],
             '--heuristic', manifest['config']['heuristic'], '--no-oracle', '--json',
             '-o', os.path.join(d, 'x.log')])
    check(p.returncode == 0 and json_out(p).get('trace_sha256') is not None, 'reduce --json', p)
p = run(['diff', SMALL, '--ratio', '0.5', '--json'])
if p.returncode == 3:
    print('skip diff --json: simrd is not installed')
else:
    check(p.returncode == 0 and json_out(p).get('verdict') == 'identical', 'diff --json', p)

# A scan whose grid step is wider than the cliff window says so, and widens it.
p = run(['scan', SMALL, '--from', '0.3', '--to', '0.6', '--step', '0.005'])
check(p.returncode == 0 and 'wider than the cliff window' in p.stderr
      and '0.500% of peak' in p.stdout, 'scan: a wide step widens the cliff window', p)
p = run(['scan', SMALL, '--from', '0.3', '--to', '0.6', '--step', '0.005', '--cliff-delta',
         '0.001'])
check(p.returncode == 0 and 'keeping --cliff-delta' in p.stderr, 'scan: a chosen window stays', p)
p = run(['scan', SMALL, '--from', '0.3', '--to', '0.6', '--step', '0.001'])
check(p.returncode == 0 and 'wider' not in p.stderr, 'scan: no warning when the step fits', p)

# A scan report says how to reproduce it (a provenance block, apart from the
# rest, which stays byte-identical) and how to reduce each finding.
BEGIN, END = '<!-- provenance: varies between runs -->', '<!-- end provenance -->'


def without_provenance(text: str) -> str:
    return text[:text.find(BEGIN)] + text[text.find(END) + len(END):]


with tempfile.TemporaryDirectory() as d:
    reports = []
    for name in ['a', 'b']:
        p = run(['scan', SMALL, '--from', '0.1', '--to', '1', '--step', '0.01', '--overhead-limit',
                 '2', '--report', os.path.join(d, name)])
        reports.append(open(os.path.join(d, name, 'report.md')).read())
    md = reports[0]
    check(p.returncode == 0 and BEGIN in md and 'simrd: commit eff53cc4' in md
          and 'command: `dtrcheck scan ' in md and 'SHA-256' in md and 'date: ' in md,
          'scan report.md has its provenance', p)
    check('## Findings' not in md or 'dtrcheck reduce ' in md, 'scan report: reduce commands', p)
    check(without_provenance(reports[0]).replace('/a', '/b') ==
          without_provenance(reports[1]).replace('/a', '/b'),
          'scan report: identical apart from its provenance', p)

# An interrupted reproduce says it stopped and leaves a README saying the
# report is partial (where the public traces are present; the LSTM part is long
# enough to be interrupted on any machine).
if where.returncode == 0:
    with tempfile.TemporaryDirectory() as d:
        child = subprocess.Popen([dtrcheck, 'reproduce', '--no-ablation', '-o', d,
                                  '-j', '1'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=300)
        p = subprocess.CompletedProcess(child.args, child.returncode, out, err)
        readme = os.path.join(d, 'README.md')
        text = open(readme).read() if os.path.exists(readme) else ''
        check(child.returncode == 130 and 'dtrcheck reproduce: interrupted' in err
              and 'PARTIAL REPORT' in text and BEGIN in text and 'Traceback' not in err,
              'reproduce: Ctrl-C leaves a partial README', p)

# Ctrl-C under diff (sent to the process group, as a terminal does): no
# Python traceback from the oracle.
if where.returncode == 0:
    child = subprocess.Popen([dtrcheck, 'diff', 'lstm', '--ratio', '0.265'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    time.sleep(2.0)
    finished_early = child.poll() is not None
    if not finished_early:
        os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=120)
    p = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    if finished_early:
        print('skip diff Ctrl-C: it finished within 2 s (exit %d)' % child.returncode)
    else:
        check('Traceback' not in err and 'KeyboardInterrupt' not in err,
              'diff: Ctrl-C gives no Python traceback', p)

# Sweep csv: no overhead for a failed run; the plot's title says what it shows.
with tempfile.TemporaryDirectory() as d:
    svg = os.path.join(d, 'sweep.svg')
    p = run(['sweep', SMALL, '--from', '0.05', '--to', '0.3', '--step', '0.05', '--format', 'csv',
             '--overhead-limit', '8', '--plot', svg])
    rows = [line.split(',') for line in p.stdout.splitlines()[1:]]
    check(p.returncode == 0 and any(r[2] == 'oom' for r in rows)
          and all((r[3] == '') == (r[2] != 'ok') for r in rows), 'csv: no overhead for oom', p)
    title = 'small_resnet.log: DTR on RuntimeV2EagerOptimized, overhead limit 8'
    check(os.path.exists(svg) and title in open(svg).read(), 'sweep plot title', p)

print(f'{len(failures)} failed')
sys.exit(1 if failures else 0)
