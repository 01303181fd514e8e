#!/usr/bin/env python3
"""Tabulates the "optimal" blocks of the archive's manifests (written by
`dtrcheck check-finding --optimal --record`, bench/optimal_archive.sh) as
markdown: per entry the optimum and the heuristic at each budget, the regret,
whether it is a proven heuristic defect, and the solve times; then totals."""
import glob
import json
import os
import subprocess
import sys
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cell(run: Dict[str, Any]) -> str:
    status = run['status'].split(' ')[0]
    opt = f'{status} {run["overhead"]:.3f}x' if 'overhead' in run else status
    h = run['heuristic']
    heur = h['status'] + (f' {h["overhead"]:.3f}x' if h['status'] == 'ok' else '')
    return f'{opt} / {heur}'


def main() -> int:
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    rows: List[str] = []
    times: List[float] = []
    engines: Dict[str, int] = {}
    solved = defects = small = small_solved = 0
    worst = (0.0, '')
    for path in sorted(glob.glob(os.path.join(ROOT, 'corpus', '*', '*', 'manifest.json'))):
        m = json.load(open(path))
        o = m.get('optimal')
        if not o:
            continue
        runs = [o[k] for k in ('lo', 'hi') if k in o]
        ops = m['operators']['after']
        proven = all(r['status'] == 'optimal' or r['status'] == 'infeasible' for r in runs)
        for r in runs:
            times.append(r['seconds'])
            engine = r.get('engine', 'CBC (recorded before the search existed)')
            engines[engine] = engines.get(engine, 0) + 1
            if r['seconds'] > worst[0]:
                worst = (r['seconds'], m['archive'])
        solved += proven
        defects += bool(o.get('proven_defect'))
        if ops <= 40:
            small += 1
            small_solved += proven and all(r['seconds'] <= 60 for r in runs)
        regret = [f'{r["regret"]:.3f}x' for r in runs if 'regret' in r]
        rows.append(f'| {m["archive"]} | {m["config"]["heuristic"]} | {ops} | '
                    + ' | '.join(cell(r) for r in runs) + (' | ' if len(runs) == 2 else ' | - | ')
                    + (', '.join(regret) or '-') + ' | '
                    + ('**yes**' if o.get('proven_defect') else '') + ' | '
                    + ' + '.join(f'{r["seconds"]:.2f}' for r in runs) + ' |')
    print('# The optimum of every archived counterexample\n')
    print(f'Made by `{command}` (bench/optimal_archive.sh) at dtrcheck {commit}; each run is '
          '`dtrcheck check-finding --optimal --record` (the best-first search, then CBC on '
          'the Checkmate program with storages freed one by one if the search has not '
          'answered; optimal/README.md, "Two engines"), each schedule replayed by the '
          'independent checker.\n')
    print(f'- entries: {len(rows)}; both budgets proven (optimal or infeasible): {solved}')
    print(f'- entries of up to 40 operators: {small}, solved exactly within a minute per '
          f'budget: {small_solved}')
    print(f'- proven heuristic defects (the heuristic fails at a budget where a schedule '
          f'exists): {defects}')
    print('- budgets by what settled them: '
          + ', '.join(f'{e} {n}' for e, n in sorted(engines.items(), key=lambda x: -x[1])))
    if times:
        print(f'- solve time per budget: total {sum(times):.1f} s, median '
              f'{sorted(times)[len(times) // 2]:.2f} s, worst {worst[0]:.2f} s ({worst[1]})\n')
    print('Cells: optimum / heuristic, overhead over the baseline compute '
          '(lo, then hi; a pinned-oom entry has hi only).\n')
    print('| entry | heuristic | operators | lo | hi | regret | proven defect | seconds |')
    print('|---|---|---|---|---|---|---|---|')
    print('\n'.join(rows))
    return 0


if __name__ == '__main__':
    sys.exit(main())
