#!/usr/bin/env python3
"""dtrcheck optimal on an archived counterexample: at both of its budgets
the optimum is proven, its schedule (--schedule) passes the independent
checker, its overhead is its compute over the baseline compute (as run's
records) and never above DTR's where DTR finishes; --ratio gives run's
budget; an impossible budget is infeasible (exit 0); --smallest-budget
is feasible and one byte less is not; a bad budget exits 2."""
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

dtrcheck = sys.argv[1]
entry = sys.argv[2]  # corpus/<kind>/<id>
trace = os.path.join(entry, 'trace.log')
failed: List[str] = []


def run(args: List[str], expect: int = 0) -> str:
    p = subprocess.run([dtrcheck] + args, capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        failed.append(f'{args}: exit {p.returncode}, expected {expect}: {p.stderr}')
    return p.stdout


def as_json(text: str) -> Dict[str, Any]:
    return json.loads(text) if text.strip() else {}


with open(os.path.join(entry, 'manifest.json')) as f:
    budgets = json.load(f)['budgets']
with tempfile.TemporaryDirectory() as tmp:
    for end in ('lo', 'hi'):
        budget = str(budgets[end]['bytes'])
        schedule = os.path.join(tmp, f'{end}.txt')
        o = as_json(run(['optimal', trace, '--budget', budget, '--json', '--schedule', schedule]))
        r = as_json(run(['run', trace, '--budget', budget, '--json']))
        if o.get('status') != 'optimal' or o.get('schedule_check') != 'ok':
            failed.append(f'{end}: {o}')
            continue
        if abs(o['overhead'] - o['compute'] / r['baseline_compute']) > 1e-12:
            failed.append(f'{end}: overhead {o["overhead"]} is not compute / baseline compute')
        if r['status'] == 'ok':
            dtr = (r['model_compute'] + r['remat_compute']) / r['baseline_compute']
            if o['overhead'] > dtr + 1e-12:
                failed.append(f'{end}: optimum {o["overhead"]} above DTR {dtr}')
            if abs(o['heuristic']['overhead'] - dtr) > 1e-12 or o['heuristic']['status'] != 'ok':
                failed.append(f"{end}: the heuristic beside the optimum is not run's: {o}")
        if o['best_bound'] > o['compute'] + 1e-6:
            failed.append(f'{end}: proven bound {o["best_bound"]} above the optimum {o["compute"]}')
        with open(schedule) as text:
            steps = [line for line in text if not line.startswith('#')]
        computes = sum(1 for s in steps if s.startswith('compute '))
        if computes < o['nodes']:
            failed.append(f'{end}: {computes} computations for {o["nodes"]} operators')
    by_ratio = as_json(run(['optimal', trace, '--ratio', '0.5', '--json']))
    record = as_json(run(['run', trace, '--ratio', '0.5', '--json']))
    if by_ratio.get('budget') != record.get('budget'):
        failed.append(f'--ratio 0.5: budget {by_ratio.get("budget")}, run {record.get("budget")}')
    if as_json(run(['optimal', trace, '--budget', '0', '--json'])).get('status') != 'infeasible':
        failed.append('--budget 0 is not infeasible')
    # The smallest budget: feasible there, infeasible one byte below.
    least = as_json(run(['optimal', trace, '--budget', str(budgets['lo']['bytes']), '--json',
                         '--smallest-budget'])).get('smallest_budget', {}).get('budget')
    if least is None:
        failed.append('--smallest-budget found nothing')
    else:
        at = as_json(run(['optimal', trace, '--budget', str(least), '--json']))
        below = as_json(run(['optimal', trace, '--budget', str(least - 1), '--json']))
        if at.get('status') != 'optimal' or below.get('status') != 'infeasible':
            failed.append(f'smallest budget {least}: {at.get("status")}, one byte less '
                          f'{below.get("status")}')
    run(['optimal', trace, '--budget', 'abc'], expect=2)
    run(['optimal', trace], expect=2)
    run(['optimal', trace, '--budget', '1', '--ratio', '0.5'], expect=2)

for failure in failed:
    print('FAIL', failure)
sys.exit(1 if failed else 0)
