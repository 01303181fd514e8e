#!/usr/bin/env python3
"""Checks that synthetic traces are valid simrd input and that dtrcheck agrees.

For a sample of shapes, seeds and sizes it writes a trace with
`dtrcheck gen`, runs simrd on it through oracle/simrd_client.py (batch, one
configuration per budget and heuristic), fails if simrd reports an error (an
exception inside simrd: the trace is not valid input), and replays simrd's
records through `dtrcheck replay` (every parity field compared).

    PYTHONPATH=. python3 traces/synthetic/oracle_check.py --dtrcheck build/bin/dtrcheck
        [--seeds 3] [--ratios 0.5,0.3] [--heuristics DTR,DTREqClass,LRU]

Exit codes: 0 all agree, 1 an error or a difference, 77 simrd not available
(ctest treats 77 as skipped).
"""

import argparse
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

from oracle import simrd_client

SHAPES = ['chain', 'resnet', 'unet', 'lstm', 'tree', 'dag']
# (layers, width) per shape: small enough for simrd, big enough to evict.
SIZES = {'chain': [(4, 1), (12, 3)], 'resnet': [(3, 1), (6, 2)], 'unet': [(2, 1), (3, 2)],
         'lstm': [(6, 1), (16, 2)], 'tree': [(3, 2), (4, 3)], 'dag': [(20, 2), (60, 3)]}


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or '').split('\n\n')[0])
    p.add_argument('--dtrcheck', required=True)
    p.add_argument('--seeds', type=int, default=2)
    p.add_argument('--ratios', default='0.5,0.3')
    p.add_argument('--heuristics', default='DTR,DTREqClass,LRU')
    args = p.parse_args()
    if not simrd_client.available():
        print('oracle_check: simrd not available; skipped', file=sys.stderr)
        return 77
    ratios = [float(r) for r in args.ratios.split(',')]
    heuristics = args.heuristics.split(',')
    failures = 0
    statuses: Dict[str, int] = {}
    cases: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            for layers, width in SIZES[shape]:
                for seed in range(args.seeds):
                    trace = os.path.join(tmp, f'{shape}-{layers}-{width}-{seed}.log')
                    subprocess.run([args.dtrcheck, 'gen', '--shape', shape, '--seed', str(seed),
                                    '--layers', str(layers), '--width', str(width), '-o', trace],
                                   check=True)
                    configs = [{'heuristic': h, 'ratio': r, 'overhead_limit': 50}
                               for h in heuristics for r in ratios]
                    try:
                        records = simrd_client.batch(trace, configs)
                    except simrd_client.OracleError as e:
                        print(f'FAIL {trace}: {e}')
                        failures += 1
                        continue
                    for c, o in zip(configs, records):
                        if 'error' in o or o.get('status') == 'error':
                            print(f'FAIL {os.path.basename(trace)} {c}: simrd error: '
                                  f'{o.get("error")} {o.get("message")}')
                            failures += 1
                            continue
                        statuses[o['status']] = statuses.get(o['status'], 0) + 1
                        cases.append({'trace': trace, 'config': c, 'record': o})
        replay = simrd_client.replay(args.dtrcheck, cases)
    print('oracle_check: {} runs replayed ({}), {} simrd errors, replay exit {}'.format(
        len(cases), ', '.join(f'{v} {k}' for k, v in sorted(statuses.items())), failures,
        replay.returncode))
    return 1 if failures or replay.returncode != 0 else 0


if __name__ == '__main__':
    sys.exit(main())
