#!/usr/bin/env python3
"""Checks that synthetic traces are valid simrd input and that dtrcheck agrees.

For a sample of shapes, seeds and sizes it writes a trace with
`dtrcheck gen`, runs simrd on it through oracle/simrd_oracle.py (batch, one
configuration per budget and heuristic) and `dtrcheck run --json` on the
same configurations, and fails if simrd reports an error (an exception
inside simrd: the trace is not valid input) or if any parity field differs.

    oracle_check.py --dtrcheck build/bin/dtrcheck [--seeds 3] [--ratios 0.5,0.3]

Exit codes: 0 all agree, 1 an error or a difference, 77 simrd not available
(ctest treats 77 as skipped).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, '..', '..', 'oracle', 'simrd_oracle.py')
SHAPES = ['chain', 'resnet', 'unet', 'lstm', 'tree', 'dag']
# (layers, width) per shape: small enough for simrd, big enough to evict.
SIZES = {'chain': [(4, 1), (12, 3)], 'resnet': [(3, 1), (6, 2)], 'unet': [(2, 1), (3, 2)],
         'lstm': [(6, 1), (16, 2)], 'tree': [(3, 2), (4, 3)], 'dag': [(20, 2), (60, 3)]}
EQ_CLASS = {'DTREqClass', 'AbEqSizeStale', 'AbEqSize', 'AbEqStale', 'AbEq'}


def simrd_available():
    probe = subprocess.run([sys.executable, ORACLE, 'run', os.devnull, '--ratio', '1'],
                           capture_output=True, text=True)
    return probe.returncode != 3


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--dtrcheck', required=True)
    p.add_argument('--seeds', type=int, default=2)
    p.add_argument('--ratios', default='0.5,0.3')
    p.add_argument('--heuristics', default='DTR,DTREqClass,LRU')
    args = p.parse_args()
    if not simrd_available():
        print('oracle_check: simrd not available; skipped', file=sys.stderr)
        return 77
    ratios = [float(r) for r in args.ratios.split(',')]
    heuristics = args.heuristics.split(',')
    failures = 0
    checked = 0
    statuses = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            for layers, width in SIZES[shape]:
                for seed in range(args.seeds):
                    trace = os.path.join(tmp, '{}-{}-{}-{}.log'.format(shape, layers, width, seed))
                    subprocess.run([args.dtrcheck, 'gen', '--shape', shape, '--seed', str(seed),
                                    '--layers', str(layers), '--width', str(width), '-o', trace],
                                   check=True)
                    configs = [{'heuristic': h, 'ratio': r, 'overhead_limit': 50}
                               for h in heuristics for r in ratios]
                    out = subprocess.run([sys.executable, ORACLE, 'batch', trace],
                                         input=''.join(json.dumps(c) + '\n' for c in configs),
                                         capture_output=True, text=True)
                    records = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
                    if len(records) != len(configs):
                        print('FAIL {}: simrd printed {} records for {} configurations: {}'.format(
                            trace, len(records), len(configs), out.stderr[-500:]))
                        failures += 1
                        continue
                    for c, o in zip(configs, records):
                        name = '{} {} ratio {}'.format(os.path.basename(trace), c['heuristic'], c['ratio'])
                        if 'error' in o or o.get('status') == 'error':
                            print('FAIL {}: simrd error: {} {}'.format(name, o.get('error'), o.get('message')))
                            failures += 1
                            continue
                        run = subprocess.run([args.dtrcheck, 'run', trace, '--heuristic', c['heuristic'],
                                              '--ratio', repr(c['ratio']), '--overhead-limit', '50',
                                              '--json'], capture_output=True, text=True)
                        d = json.loads(run.stdout)
                        diff = [k for k in d if k in o and d[k] != o[k]
                                and not (k == 'heuristic_access_count' and c['heuristic'] in EQ_CLASS)]
                        checked += 1
                        statuses[o['status']] = statuses.get(o['status'], 0) + 1
                        if diff:
                            print('FAIL {}: dtrcheck differs from simrd in {}'.format(
                                name, {k: (o[k], d[k]) for k in diff}))
                            failures += 1
    print('oracle_check: checked {} runs ({}), {} failures'.format(
        checked, ', '.join('{} {}'.format(v, k) for k, v in sorted(statuses.items())), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
