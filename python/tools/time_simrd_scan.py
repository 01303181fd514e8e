#!/usr/bin/env python3
"""CPU time of simrd's own DTR on the points of a ratio grid, one JSON line
per point as it finishes (the comparison of python/tools/bench_policy.py
--scan, for simrd; bench/RESULTS.md).

    nice -n 19 python3 python/tools/time_simrd_scan.py TRACE_FILE 0.25 0.29 0.001 > OUT.jsonl
    # the same grid as two processes, one per core (concatenate their lines)
    python3 python/tools/time_simrd_scan.py TRACE_FILE 0.25 0.29 0.001 --shard 0/2 > A.jsonl &
    python3 python/tools/time_simrd_scan.py TRACE_FILE 0.25 0.29 0.001 --shard 1/2 > B.jsonl

The trace is parsed and the baseline run once (timed apart, the first
line); each point is simrd's main run alone, through oracle/simrd_oracle.py
(its records, with the eviction digest to compare against dtrcheck's). The
points run in a spread order (every 8th first, then the ones between), so
that a run stopped early has measured points across the whole grid.
"""
from __future__ import annotations

import json
import os
import sys
import time
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'oracle'))
import simrd_oracle as so  # noqa: E402


def spread(n: int) -> list[int]:
    """0..n-1, every 8th first, then every 4th, 2nd, the rest."""
    order: list[int] = []
    for stride in (8, 4, 2, 1):
        order += [i for i in range(0, n, stride) if i not in order]
    return order


def main() -> int:
    args = sys.argv[1:]
    shard, shards = 0, 1
    if '--shard' in args:
        at = args.index('--shard')
        shard, shards = (int(x) for x in args[at + 1].split('/'))
        del args[at:at + 2]
        if not 0 <= shard < shards:
            sys.exit('time_simrd_scan.py: --shard K/N needs 0 <= K < N')
    trace = args[0]
    lo, hi, step = (Decimal(a) for a in args[1:4])
    n = int((hi - lo) / step) + 1
    ratios = [float(lo + i * step) for i in range(n)]
    simrd = so.load_simrd()

    def work() -> int:
        oracle = so.Oracle(simrd, trace)
        t0 = time.process_time()
        oracle.parse()
        oracle.baseline(so.DEFAULT_BASELINE_RUNTIME)
        print(json.dumps({'parse_and_baseline_cpu_s': round(time.process_time() - t0, 3)}),
              flush=True)
        # Shard K of N takes every Nth point of the spread order, so each
        # shard still covers the whole grid.
        for i in spread(n)[shard::shards]:
            c = so.normalize_config({'ratio': ratios[i], 'time': True})
            t0 = time.process_time()
            rec, _ = oracle.run_config(c)
            cpu = time.process_time() - t0
            print(json.dumps({'index': i, 'ratio': ratios[i], 'cpu_s': round(cpu, 3),
                              'wall_s': round(rec.get('seconds', 0), 3),
                              'status': rec.get('status'), 'clock': rec.get('clock'),
                              'eviction_digest': rec.get('eviction_digest')}), flush=True)
        return 0

    return so.run_in_big_thread(work)


if __name__ == '__main__':
    sys.exit(main())
