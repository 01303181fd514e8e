#!/usr/bin/env python3
"""The README tables of the census under the allocator (tabulate.sh runs it):
reads census-<model>.csv and the records' baseline peaks, prints markdown,
and draws floors.svg with matplotlib where it is installed.

Under every memory model a ratio is a fraction of the trace's byte-sum
baseline peak (simrd's: the baseline runs unbounded in bytes) and the budget
is the device's capacity, so the models' floors compare directly; they are
recomputed here from the budgets in bytes to say so."""
import csv
import json
import os
import statistics
import sys
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ['cuda-caching', 'arena']
POLICIES = ['DTR', 'DTREqClass', 'MSPS', 'MegEngineDTR', 'DTE', 'Coop']
BYTES_POLICIES = ['DTR', 'DTREqClass', 'MSPS']
RATIOS = ['0.3', '0.4', '0.5', '0.7', '0.9']
PATHOLOGIES = ['inversions', 'cliffs', 'overhead_rises', 'pinned_frontier_ooms',
               'fragmentation_ooms', 'allocator_inversions', 'allocator_cliffs',
               'reserved_peak_inversions']


def rows(model: str) -> List[Dict[str, str]]:
    with open(os.path.join(HERE, f'census-{model}.csv')) as f:
        return list(csv.DictReader(f))


def policy_name(row: Dict[str, str]) -> str:
    return row['policy'].split(' memory ')[0]


def bytes_peak(trace: str) -> int:
    """The byte-sum baseline peak (simrd's) of `trace`, from its records
    (named as run.sh names the trace: the census says tv_densenet121 for
    the log tv_densenet121-84-..., run.sh densenet121)."""
    name = trace[len('tv_'):] if trace.startswith('tv_') else trace
    with open(os.path.join(HERE, 'records', f'{name}-bytes.jsonl')) as f:
        return int(json.loads(f.readline())['baseline_peak'])


def cell(v: Optional[float], digits: int = 3) -> str:
    return '-' if v is None else f'{v:.{digits}f}'


def main() -> int:
    census = {m: rows(m) for m in MODELS + ['bytes']}
    traces = [r['trace'] for r in census['bytes'] if r['trace'] != 'all']
    traces = list(dict.fromkeys(traces))
    floor: Dict[tuple, Optional[float]] = {}  # (model, trace, policy) -> fraction of bytes peak
    for m, rs in census.items():
        for r in rs:
            if r['trace'] == 'all':
                continue
            b = r['smallest_feasible_bytes']
            floor[(m, r['trace'], policy_name(r))] = (
                None if b == '-' else int(b) / bytes_peak(r['trace']))

    print('## Smallest feasible budget, as a fraction of the byte-sum peak\n')
    print('Each cell: the smallest ok budget of the grid (ratios 0.05-1.00 step 0.005), '
          "in bytes over the trace's byte-sum baseline peak (simrd's); under an allocator "
          "the budget is the device's capacity. '-': no ok budget on the grid.\n")
    head = ['trace'] + [f'{p} bytes' for p in BYTES_POLICIES]
    for m in MODELS:
        head += [f'{p} {m}' for p in POLICIES]
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for t in traces:
        cells = [t] + [cell(floor.get(('bytes', t, p))) for p in BYTES_POLICIES]
        for m in MODELS:
            cells += [cell(floor.get((m, t, p))) for p in POLICIES]
        print('| ' + ' | '.join(cells) + ' |')

    print('\n## Coop and DTE against DTR, floor by floor\n')
    print("The floor of Coop (and DTE, MegEngineDTR) over DTR's under the same allocator: "
          'below 1, the policy runs in less memory than DTR there.\n')
    print('| model | policy | traces where both are feasible | lower floor than DTR | '
          'higher | equal | median floor ratio | min | max |')
    print('|---|---|---|---|---|---|---|---|---|')
    for m in MODELS:
        for p in ['Coop', 'DTE', 'MegEngineDTR']:
            ratios = []
            for t in traces:
                a, d = floor.get((m, t, p)), floor.get((m, t, 'DTR'))
                if a is not None and d is not None:
                    ratios.append(a / d)
            if not ratios:
                print(f'| {m} | {p} | 0 | - | - | - | - | - | - |')
                continue
            lower = sum(1 for x in ratios if x < 1 - 1e-9)
            higher = sum(1 for x in ratios if x > 1 + 1e-9)
            print(f'| {m} | {p} | {len(ratios)} | {lower} | {higher} | '
                  f'{len(ratios) - lower - higher} | {statistics.median(ratios):.3f} | '
                  f'{min(ratios):.3f} | {max(ratios):.3f} |')

    print('\n## Overhead at fixed ratios of the byte-sum peak\n')
    print('Per policy: traces ok at that ratio out of 15, and the median overhead over '
          'them.\n')
    head = ['model', 'policy'] + [f'at {r}' for r in RATIOS]
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for m in MODELS + ['bytes']:
        for p in (POLICIES if m != 'bytes' else BYTES_POLICIES):
            cells = [m, p]
            for ratio in RATIOS:
                vals = []
                for row in census[m]:
                    if row['trace'] == 'all' or policy_name(row) != p:
                        continue
                    v = row[f'overhead_at_{ratio}']
                    try:
                        vals.append(float(v))
                    except ValueError:
                        pass
                med = f' ({statistics.median(vals):.3f})' if vals else ''
                cells.append(f'{len(vals)}/{len(traces)}{med}')
            print('| ' + ' | '.join(cells) + ' |')

    print('\n## Fragmentation at the floor, and the pathologies (sums over the 15 traces)\n')
    print('Fragmentation at the floor: the most bytes reserved but not allocated at one '
          'time over the budget, at the smallest ok budget; median and max over the '
          'traces.\n')
    head = ['model', 'policy', 'ok', 'oom', 'thrashed', 'fragmentation median',
            'fragmentation max'] + PATHOLOGIES
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for m in MODELS + ['bytes']:
        for row in census[m]:
            if row['trace'] != 'all':
                continue
            p = policy_name(row)
            fr = [float(r['floor_fragmentation']) for r in census[m]
                  if r['trace'] != 'all' and policy_name(r) == p
                  and r.get('floor_fragmentation', '-') != '-']
            cells = [m, p, row['ok'], row['oom'], row['thrashed'],
                     cell(statistics.median(fr) if fr else None, 4),
                     cell(max(fr) if fr else None, 4)]
            cells += [row.get(c, '-') for c in PATHOLOGIES]
            print('| ' + ' | '.join(cells) + ' |')

    try:
        import matplotlib
        matplotlib.use('Agg')
        matplotlib.rcParams['svg.hashsalt'] = 'dtrcheck'  # the same file from the same data
        import matplotlib.pyplot as plt
    except ImportError:
        print('\n(matplotlib is not installed: floors.svg not drawn)', file=sys.stderr)
        return 0
    fig, axes = plt.subplots(len(MODELS), 1, figsize=(14, 4.5 * len(MODELS)), sharex=True)
    width = 0.8 / (len(POLICIES) + 1)
    for ax, m in zip(axes, MODELS):
        xs = range(len(traces))
        series = [('DTR bytes', 'bytes', 'DTR')] + [(p, m, p) for p in POLICIES]
        for i, (label, model, p) in enumerate(series):
            ys = [floor.get((model, t, p)) or 0 for t in traces]
            ax.bar([x + i * width for x in xs], ys, width, label=label)
        ax.set_title(f'smallest feasible budget under {m} (fraction of the byte-sum peak; '
                     '0: none on the grid)')
        ax.set_ylabel('floor / byte-sum peak')
        ax.legend(ncol=len(series), fontsize='small')
    axes[-1].set_xticks([x + 0.4 for x in range(len(traces))])
    axes[-1].set_xticklabels(traces, rotation=30, ha='right')
    fig.tight_layout()
    fig.savefig(os.path.join(HERE, 'floors.svg'), metadata={'Date': None})
    return 0


if __name__ == '__main__':
    sys.exit(main())
