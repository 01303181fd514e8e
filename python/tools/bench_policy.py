#!/usr/bin/env python3
"""Speed of a policy written in Python (dtrcheck.examples.dtr.PyDTR) against
simrd's own DTR and dtrcheck's built-in DTR, on the same trace and budget
(the records are checked equal first); optionally the time of a scan with
the Python policy. --policy DTE or Coop: the OneFlow ports
(dtrcheck.examples.oneflow) against the built-ins, under --memory arena or
cuda-caching (simrd has neither policy).

    PYTHONPATH=build/python python3 python/tools/bench_policy.py resnet32 --ratio 0.3
    PYTHONPATH=build/python python3 python/tools/bench_policy.py lstm \\
        --scan 0.25 0.29 0.001 --no-simrd
    PYTHONPATH=build/python python3 python/tools/bench_policy.py resnet32 --ratio 0.2 \\
        --policy DTE --memory arena

simrd runs through oracle/simrd_oracle.py (--time: the wall time of the main
run, without parsing and the baseline); dtrcheck's times are of the run
alone too (the trace parsed and the baseline run by a first call). Times
are CPU seconds; simrd's wall time of its main run is given beside.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any, Dict

import dtrcheck
from dtrcheck.examples.dtr import PyDTR
from dtrcheck.examples.oneflow import PyCoop, PyDTE

PORTS = {'DTR': PyDTR, 'DTE': PyDTE, 'Coop': PyCoop}

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed(f: Any) -> Any:
    """f()'s result and CPU seconds (this process, all threads: on a shared
    machine wall time moves with the other users' load)."""
    t0 = time.process_time()
    result = f()
    return result, time.process_time() - t0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('trace', help='trace file or name')
    p.add_argument('--ratio', type=float, help='budget ratio of the single-run comparison')
    p.add_argument('--overhead-limit', type=float, default=None)
    p.add_argument('--no-simrd', action='store_true', help='leave out simrd')
    p.add_argument('--scan', nargs=3, metavar=('FROM', 'TO', 'STEP'),
                   help='also time a scan with the Python policy (and the built-in DTR)')
    p.add_argument('--jobs', type=int, default=1, help='scan threads')
    p.add_argument('--policy', choices=sorted(PORTS), default='DTR',
                   help='the built-in and its Python port (DTE, Coop: no simrd)')
    p.add_argument('--memory', default='bytes', help="'bytes', 'arena' or 'cuda-caching'")
    args = p.parse_args()
    port_class, name = PORTS[args.policy], args.policy.lower()
    out: Dict[str, Any] = {'trace': args.trace, 'python': sys.version.split()[0],
                           'policy': args.policy, 'memory': args.memory}
    if args.ratio is not None:
        kw = dict(ratio=args.ratio, overhead_limit=args.overhead_limit, memory=args.memory)
        dtrcheck.run(args.trace, **kw)  # parse and baseline, cached
        builtin, t_builtin = timed(lambda: dtrcheck.run(args.trace, heuristic=args.policy, **kw))
        port, t_port = timed(lambda: dtrcheck.run(args.trace, heuristic=port_class, **kw))
        a, b = builtin.to_dict(), port.to_dict()
        a.pop('heuristic')
        b.pop('heuristic')
        if a != b:
            print('records differ', a, b, file=sys.stderr)
            return 1
        out.update(ratio=args.ratio, status=builtin.status,
                   evaluations=builtin.heuristic_eval_count,
                   **{f'builtin_{name}_cpu_s': round(t_builtin, 3),
                      f'python_{name}_cpu_s': round(t_port, 3)})
        if not args.no_simrd and args.policy == 'DTR' and args.memory == 'bytes':
            cmd = [sys.executable, os.path.join(ROOT, 'oracle', 'simrd_oracle.py'), 'run',
                   dtrcheck.trace_path(args.trace), '--ratio', repr(args.ratio), '--time']
            if args.overhead_limit is not None:
                cmd += ['--overhead-limit', repr(args.overhead_limit)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            simrd = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                              text=True).stdout)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            if simrd['eviction_digest'] != builtin.eviction_digest:
                print('simrd differs', simrd, file=sys.stderr)
                return 1
            # simrd's CPU time includes its parse and baseline run; its own
            # --time (wall, the main run only) is given beside it.
            out['simrd_dtr_cpu_s'] = round(cpu, 3)
            out['simrd_dtr_main_run_wall_s'] = round(simrd['seconds'], 3)
    if args.scan:
        lo, hi, step = args.scan
        res, t_scan = timed(lambda: dtrcheck.scan(args.trace, lo, hi, step, heuristic=port_class,
                                                  jobs=args.jobs, memory=args.memory,
                                                  overhead_limit=args.overhead_limit))
        ref, t_ref = timed(lambda: dtrcheck.scan(args.trace, lo, hi, step, jobs=args.jobs,
                                                 heuristic=args.policy, memory=args.memory,
                                                 overhead_limit=args.overhead_limit))
        same = [r.eviction_digest for r in res.points] == [r.eviction_digest for r in ref.points]
        out.update(scan=args.scan, scan_points=len(res.points), scan_findings=len(res.findings),
                   **{f'scan_python_{name}_cpu_s': round(t_scan, 1),
                      f'scan_builtin_{name}_cpu_s': round(t_ref, 1)},
                   scan_jobs=args.jobs, scan_same_records=same)
    print(json.dumps(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
