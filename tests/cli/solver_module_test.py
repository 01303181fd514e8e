#!/usr/bin/env python3
"""The CBC solver is a module loaded on first use (optimal/cbc_module.h):

- `dtrcheck run` and `--version` never load CBC or LAPACK (the dynamic
  loader's own log, LD_DEBUG=files, names every object it loads);
- `dtrcheck optimal --engine milp` loads the module and solves;
- with DTRCHECK_CBC_MODULE naming a missing file, `optimal` exits 1 with a
  message that names the path and the variable, and nothing on stdout.

Usage: solver_module_test.py DTRCHECK
"""
import json
import os
import subprocess
import sys
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = os.path.join(os.path.dirname(HERE), 'data', 'tiny_all_kinds.log')
dtrcheck = sys.argv[1]
failures: List[str] = []


def run(args: List[str], env: Dict[str, str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck] + args, env=dict(os.environ, **env), capture_output=True,
                          text=True, timeout=120)


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def loaded(stderr: str) -> List[str]:
    """The objects the dynamic loader loaded, from LD_DEBUG=files."""
    return [line.split('file=', 1)[1].split()[0] for line in stderr.splitlines()
            if 'file=' in line and ('needed by' in line or 'dynamically loaded by' in line)]


for args in (['--version'], ['run', TRACE, '--ratio', '0.8', '--json']):
    p = run(args, {'LD_DEBUG': 'files'})
    objects = loaded(p.stderr)
    check(p.returncode == 0 and objects != [],
          f'{args[0]}: ran, loader log read ({len(objects)} objects)')
    solver_parts = ('Cbc', 'Clp', 'Coin', 'lapack', 'blas', 'dtrcheck_cbc')
    heavy = [o for o in objects if any(k in o for k in solver_parts)]
    check(heavy == [], f'{args[0]}: loads no solver library (found: {heavy})')

# At the peak: below it (0.95 already) one operator's arguments and results
# exceed the budget, which the live-memory bound proves before CBC is
# loaded at all.
p = run(['optimal', TRACE, '--ratio', '1', '--engine', 'milp', '--json'], {'LD_DEBUG': 'files'})
objects = loaded(p.stderr)
check(p.returncode == 0 and any('dtrcheck_cbc.so' in o for o in objects)
      and any('libCbc' in o for o in objects), 'optimal --engine milp: loads the module and CBC')
try:
    result = json.loads(p.stdout)
except ValueError:
    result = {}
# CBC's completed search is a fact about the program's log-order space, not
# a proof: an empty space is "not proven" with that proof named
# (optimal/README.md, "Statuses and their proofs").
check(result.get('engine') == 'CBC'
      and (result.get('status') in ('optimal', 'infeasible', 'feasible (not proven optimal)')
           or 'CBC search completed' in result.get('proof', '')),
      f'optimal --engine milp: CBC answered ({result.get("engine")}, {result.get("status")})')

missing = '/nonexistent/dtrcheck_cbc.so'
p = run(['optimal', TRACE, '--ratio', '1', '--engine', 'milp'], {'DTRCHECK_CBC_MODULE': missing})
check(p.returncode == 1 and p.stdout == '' and missing in p.stderr
      and 'DTRCHECK_CBC_MODULE' in p.stderr and p.stderr.startswith('dtrcheck optimal:')
      and 'internal error' not in p.stderr,
      f'a missing module: exit 1 and a message naming it (exit {p.returncode}: {p.stderr.strip()})')

if failures:
    print(f'{len(failures)} failed')
    sys.exit(1)
print('all passed')
