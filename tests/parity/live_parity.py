#!/usr/bin/env python3
"""Live parity: a fresh random sample of configurations, run through the real
simrd (oracle/simrd_client.py) and replayed through dtrcheck (dtrcheck replay,
which holds the one field-by-field comparison).

    PYTHONPATH=. python3 tests/parity/live_parity.py build/bin/dtrcheck [COUNT]

Exits 77 (ctest SKIP_RETURN_CODE) when simrd or the traces are not available.
The sampling seed is printed; set DTRCHECK_LIVE_SEED to repeat a sample.
"""
import os
import random
import subprocess
import sys
import time
from typing import Any, Dict, List

from oracle import simrd_client

SKIP = 77

RUNTIMES = ['RuntimeV1', 'RuntimeV2', 'RuntimeV2Eager', 'RuntimeV2Optimized',
            'RuntimeV2EagerOptimized']
NEEDS_OPT = {'DTR', 'DTREqClass', 'MSPS', 'AbESizeStale', 'AbESize', 'AbEStale', 'AbE',
             'AbEqSizeStale', 'AbEqSize', 'AbEqStale', 'AbEq'}
OTHERS = ['DTRLocal', 'DTRUnopt', 'LRU', 'LargestStorage', 'RandomStorage', 'AbLocalSizeStale',
          'AbLocalSize', 'AbLocalStale', 'AbLocal', 'AbSizeStale', 'AbSize', 'AbStale', 'AbRandom']


def sample(rng: random.Random, count: int) -> List[simrd_client.Config]:
    cfgs = []
    for _ in range(count):
        rt = rng.choice(RUNTIMES)
        pool = OTHERS + (sorted(NEEDS_OPT) if 'Optimized' in rt else [])
        c: simrd_client.Config = {
            'runtime': rt, 'heuristic': rng.choice(pool), 'stats': True,
            # 4 decimals: never one of the recorded ratios
            'ratio': round(rng.uniform(0.05, 1.0), 4) + 0.00005}
        if rng.random() < 0.4:
            c['overhead_limit'] = round(rng.uniform(1.05, 3.0), 2)
        if c['heuristic'] in ('RandomStorage', 'AbRandom'):
            c['seed'] = rng.randrange(1 << 40)
        cfgs.append(c)
    return cfgs


def main() -> int:
    dtrcheck, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
    if not simrd_client.available():
        print('SKIPPED: simrd is not available: ' + str(simrd_client.unavailable_reason()))
        return SKIP
    seed = int(os.environ.get('DTRCHECK_LIVE_SEED', time.time_ns() % 1_000_000_007))
    print(f'live parity sampling seed: {seed} (DTRCHECK_LIVE_SEED={seed} repeats it)')
    rng = random.Random(seed)
    cases: List[Dict[str, Any]] = []
    for name in ['unet', 'resnet32']:
        path = subprocess.run([dtrcheck, 'trace-path', name], capture_output=True, text=True)
        if path.returncode != 0:
            print('SKIPPED: trace not available: ' + path.stderr.strip())
            return SKIP
        cfgs = sample(rng, count // 2)
        try:
            records = simrd_client.batch(path.stdout.strip(), cfgs)
        except simrd_client.OracleError as e:
            print(e)
            return 1
        cases += [{'trace': name, 'config': c, 'record': r} for c, r in zip(cfgs, records)]
    return simrd_client.replay(dtrcheck, cases).returncode


if __name__ == '__main__':
    sys.exit(main())
