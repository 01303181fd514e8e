#!/usr/bin/env python3
"""Scan a trace with an eviction policy written in Python and plot overhead
against budget (the notebook path of python/README.md, as a script).

    PYTHONPATH=build/python python3 examples/python/scan_policy.py \\
        [--trace resnet32] [--from 0.10 --to 0.15 --step 0.002] [--plot overhead.png]

The policy is DTR with its size term squared (a made-up variant): define
your own the same way. Every cell of a notebook can be one block below.
The plot needs matplotlib (Debian's python3-matplotlib); without it the
script prints the table only.
"""
from __future__ import annotations

import argparse
import math
import sys
from typing import List, Union

import dtrcheck


class SizeSquaredDTR(dtrcheck.Heuristic):
    """DTR's e* / (size^2 * staleness): favours evicting big storages more."""

    features = frozenset({'regions', 'last_access_int'})

    def score(self, storage: int, view: dtrcheck.View) -> Union[int, float]:
        compute = (view.compute(storage) + view.region_compute(storage)
                   + view.region_rev_compute(storage))
        size = view.size(storage)
        denominator = size * size * (view.clock() - view.last_access(storage))
        return compute / denominator if denominator > 0 else math.inf


def plot(points: List[dtrcheck.Record], reference: List[dtrcheck.Record], path: str) -> bool:
    try:
        import matplotlib  # type: ignore[import-not-found]
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt  # type: ignore[import-not-found]
    except ImportError:
        print('matplotlib not installed (apt-get install python3-matplotlib): no plot')
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for records, label in ((points, SizeSquaredDTR.policy_name()), (reference, 'DTR')):
        ok = [r for r in records if r.status == 'ok']
        ax.plot([r.ratio for r in ok], [r.overhead for r in ok], marker='.', label=label)
        failed = [r.ratio for r in records if r.status != 'ok']
        if failed:
            ax.plot(failed, [1.0] * len(failed), 'x', label=f'{label}: oom/thrashed')
    ax.set_xlabel('budget (ratio of peak)')
    ax.set_ylabel('overhead')
    ax.legend()
    fig.savefig(path)
    print(f'plot: {path}')
    return True


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--trace', default='resnet32')
    p.add_argument('--from', dest='start', default='0.10')
    p.add_argument('--to', dest='stop', default='0.15')
    p.add_argument('--step', default='0.002')
    p.add_argument('--overhead-limit', type=float, default=8.0)
    p.add_argument('--plot', default='', help='write the plot here (PNG, SVG, ...)')
    args = p.parse_args()

    # A scan with the Python policy, and the built-in DTR for comparison.
    result = dtrcheck.scan(args.trace, args.start, args.stop, args.step,
                           heuristic=SizeSquaredDTR, overhead_limit=args.overhead_limit)
    reference = dtrcheck.sweep(args.trace, args.start, args.stop, args.step,
                               overhead_limit=args.overhead_limit)

    print(f'{"ratio":>8} {"policy":>16} {"DTR":>16}')
    for mine, dtr in zip(result.points, reference):
        def cell(r: dtrcheck.Record) -> str:
            return f'{r.overhead:.3f}x' if r.status == 'ok' else r.status
        print(f'{mine.ratio:>8} {cell(mine):>16} {cell(dtr):>16}')
    for finding in result.findings:
        print('finding:', finding.description)
    if len(result.points) != len(reference) or not result.points:
        print('scan and sweep disagree on the grid', file=sys.stderr)
        return 1
    if args.plot:
        plot(result.points, reference, args.plot)
    return 0


if __name__ == '__main__':
    sys.exit(main())
