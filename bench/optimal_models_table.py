#!/usr/bin/env python3
"""The tables of bench/optimal_models.sh (the real models) and
bench/optimal_small.sh (generated traces of up to 150 operators): DTR
beside the best schedule found and the best lower bound proven (issue 40,
item 4).

    python3 bench/optimal_models_table.py DTRCHECK TIME_LIMIT [DIR] > DIR/README.md

Reads DIR/records/*.json (DIR: corpus/optimal/models by default); the
trace SHA-256s and the commits come from the files and `DTRCHECK --version`.
"""
import glob
import hashlib
import json
import os
import subprocess
import sys
from typing import Any, Dict, List, Tuple

TRACES = ['resnet32', 'unet', 'lstm', 'treelstm', 'transformer', 'densenet121', 'inceptionv4',
          'unroll_gan', 'resnet50', 'mobilenet_v3_large', 'vit_b_16', 'convnext_tiny', 'unet_bn',
          'gpt2_small', 'lstm_lm']
RATIOS = ['0.3', '0.5', '0.7']


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def x(value: float) -> str:
    return f'{value:.3f}x'


def main() -> None:
    exe, limit = sys.argv[1], sys.argv[2]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    folder = sys.argv[3] if len(sys.argv) > 3 else 'corpus/optimal/models'
    models = os.path.basename(folder.rstrip('/')) == 'models'
    here = os.path.join(root, folder, 'records')
    version = subprocess.run([exe, '--version'], capture_output=True, text=True).stdout.strip()
    records: Dict[Tuple[str, str], Dict[str, Any]] = {}
    for path in glob.glob(os.path.join(here, '*.json')):
        j = json.load(open(path))
        name = os.path.basename(path)[:-len('.json')]
        trace, ratio = name.rsplit('-', 1)
        records[(trace, ratio)] = j
    traces = TRACES if models else sorted({t for t, _ in records},
                                          key=lambda t: (records[(t, RATIOS[0])]['nodes']
                                                         if (t, RATIOS[0]) in records else 0, t))
    if models:
        print('# How far DTR is from optimal on real models')
        print()
        print('Written by `bench/optimal_models.sh` (issue 40, item 4); do not edit.')
    else:
        print('# The optimum on generated traces of up to 150 operators')
        print()
        print('Written by `bench/optimal_small.sh` (issue 40, item 4: proven, or within 1% of '
              'a proven bound, in 60 s); do not edit. The traces: `dtrcheck gen --shape SHAPE '
              '--layers N --seed 1` (the name is SHAPE-N).')
    print(f'Each point: `dtrcheck optimal TRACE --ratio R --time-limit {limit} --warm-start all '
          '--json` (its record in records/, with the command).')
    print()
    print('- **DTR**: DTR on RuntimeV2EagerOptimized, its overhead (compute / baseline), or '
          'how it failed.')
    print('- **best found**: the cheapest schedule known, checked by the independent checker: '
          'an ok run of any accepted runtime/heuristic pair (`--warm-start all`), or an '
          "engine's.")
    print('- **lower bound**: proven for every schedule of the model: the best-first '
          "search's bound where it runs (at most 256 units), else the live-memory bound "
          '(optimal/live_memory_bound.h); both never above the optimum.')
    print('- **gap**: how far above the bound a schedule may be from the optimum: DTR / bound '
          '- 1, best / bound - 1. The optimum lies between the bound and the best found.')
    print()
    print('| trace | nodes | ratio | DTR | best found | by | lower bound | DTR gap | best gap '
          '| status | s |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    shas: Dict[str, Tuple[str, str]] = {}
    widest: List[Tuple[float, str, str]] = []
    for t in traces:
        for r in RATIOS:
            j = records.get((t, r))
            if j is None:
                print(f'| {t} | | {r} | not run | | | | | | | |')
                continue
            shas[t] = (j['trace'], sha256(j['trace']))
            base = j['baseline_compute']
            h = j['heuristic']
            dtr = x(h['overhead']) if h['status'] == 'ok' else h['status']
            bound = j['best_bound'] / base if j['best_bound'] else None
            best = j.get('overhead')
            by = j.get('warm_start') or j.get('engine', '')
            if j['status'] == 'optimal':
                by += ' (proven optimal)'
            dtr_gap = (f'{100 * (h["overhead"] / bound - 1):.1f}%'
                       if bound and h['status'] == 'ok' else '')
            best_gap = f'{100 * (best / bound - 1):.1f}%' if bound and best else ''
            if bound and best:
                widest.append((best / bound - 1, t, r))
            print(f'| {t} | {j["nodes"]} | {r} | {dtr} | {x(best) if best else "none"} | {by} '
                  f'| {x(bound) if bound else "none"} | {dtr_gap} | {best_gap} | {j["status"]} '
                  f'| {j.get("wall_seconds", j["seconds"])} |')
    print()
    if widest:
        widest.sort()
        mid = widest[len(widest) // 2]
        proven = sum(1 for j in records.values() if j['status'] == 'optimal')
        within = sum(1 for g, _, _ in widest if g <= 0.01)
        infeasible = sum(1 for j in records.values() if j['status'] == 'infeasible')
        met = infeasible + within  # a proven optimum is within 0%
        print(f'Of {len(records)} points, {proven} proven optimal, {infeasible} proven '
              f'infeasible, {within} with the best found within 1% of the bound (the proven '
              f'optima included): {met} proven or within 1%.')
        print(f'{len(widest)} points have both a schedule and a bound. The gap between them '
              f'(best found / bound - 1): smallest '
              f'{100 * widest[0][0]:.1f}% ({widest[0][1]} at {widest[0][2]}), median '
              f'{100 * mid[0]:.1f}%, widest {100 * widest[-1][0]:.1f}% ({widest[-1][1]} at '
              f'{widest[-1][2]}).')
        print()
    print('## Provenance')
    print()
    print(f'- `{exe} --version`: {version}')
    others = sorted({j.get('dtrcheck', '') for j in records.values()} - {version})
    for other in others:
        names = sorted(f'{t} at {r}' for (t, r), j in records.items()
                       if j.get('dtrcheck', '') == other)
        print(f'- recorded by another build ({other or "version not recorded"}): '
              + ', '.join(names))
    print('- traces (SHA-256):')
    for t in traces:
        if t in shas:
            print(f'  - {t}: `{shas[t][1]}` ({os.path.basename(shas[t][0])})')


if __name__ == '__main__':
    main()
