#!/usr/bin/env python3
"""CPU time of the Python DTR port (dtrcheck.examples.dtr.PyDTR) and the
built-in DTR on each point of a ratio grid, one JSON line per point as it
finishes, in the spread order of time_simrd_scan.py (every 8th point
first), so that a run stopped early has measured points across the grid.

    PYTHONPATH=build/python nice -n 19 \\
        python3 python/tools/time_policy_points.py lstm 0.25 0.29 0.001

The trace is parsed and the baseline run by a first call; each figure is
one dtrcheck.run() alone. The records of the two are checked equal. A scan
(bench_policy.py --scan) runs the same points sharing their common prefix,
so its total is at most the sum of these.
"""
from __future__ import annotations

import json
import sys
import time
from decimal import Decimal

import dtrcheck
from dtrcheck.examples.dtr import PyDTR
from time_simrd_scan import spread


def main() -> int:
    trace = sys.argv[1]
    lo, hi, step = (Decimal(a) for a in sys.argv[2:5])
    n = int((hi - lo) / step) + 1
    ratios = [float(lo + i * step) for i in range(n)]
    dtrcheck.run(trace, ratio=1.0)  # parse and baseline, cached
    for i in spread(n):
        t0 = time.process_time()
        builtin = dtrcheck.run(trace, ratio=ratios[i])
        t1 = time.process_time()
        port = dtrcheck.run(trace, ratio=ratios[i], heuristic=PyDTR)
        t2 = time.process_time()
        a, b = builtin.to_dict(), port.to_dict()
        a.pop('heuristic')
        b.pop('heuristic')
        print(json.dumps({'index': i, 'ratio': ratios[i], 'status': builtin.status,
                          'evaluations': builtin.heuristic_eval_count,
                          'builtin_cpu_s': round(t1 - t0, 3), 'python_cpu_s': round(t2 - t1, 3),
                          'same_records': a == b,
                          'eviction_digest': builtin.eviction_digest}), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
