#!/usr/bin/env python3
"""Records simrd's results for the parity corpus (corpus/oracle/*.jsonl).

Each output line is one configuration:
  {"trace": NAME, "trace_sha256": ..., "config": {...}, "record": {...},
   "command": "the oracle command that produced it"}
`dtrcheck replay corpus/oracle/NAME.jsonl` replays every line through the C++
simulator and compares the records field by field (ctest does this).

Usage, from the repository root: python3 -m oracle.record_corpus
    [--traces DIR] [--only NAME,...] [--small] [--local FILE...] [--out DIR]
       python3 -m oracle.record_corpus --captured [--only NAME,...]
       python3 -m oracle.record_corpus --local tests/data/big_times.log --big-ints
(--captured: the traces of traces/captured/; needs build/. --big-ints: the
local grid and BIG_INTS, the options past 64 bits)
Needs simrd (see oracle/README.md). The configuration grid is below; it is
deterministic, so re-running reproduces the same corpus.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

from oracle import simrd_client

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

Config = simrd_client.Config

RUNTIMES = ['RuntimeV1', 'RuntimeV2', 'RuntimeV2Eager', 'RuntimeV2Optimized',
            'RuntimeV2EagerOptimized']
HEURISTICS = ['DTR', 'DTREqClass', 'DTRLocal', 'DTRUnopt', 'MSPS', 'LRU', 'LargestStorage',
              'RandomStorage', 'AbESizeStale', 'AbESize', 'AbEStale', 'AbE', 'AbEqSizeStale',
              'AbEqSize', 'AbEqStale', 'AbEq', 'AbLocalSizeStale', 'AbLocalSize', 'AbLocalStale',
              'AbLocal', 'AbSizeStale', 'AbSize', 'AbStale', 'AbRandom']

# Small traces: every runtime x heuristic; big ones: the paper's configuration
# and a few heuristics, from near the feasibility floor up to 1.0.
GRIDS: Dict[str, Dict[str, Any]] = {
    'unet': dict(all_pairs=True, ratios=[0.1, 0.3, 0.6, 1.0], limits=[None, 2.0]),
    'resnet32': dict(all_pairs=True, ratios=[0.1, 0.104, 0.3, 0.6, 1.0], limits=[None, 2.0]),
    'transformer': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
    'densenet121': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
    'inceptionv4': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
    'treelstm': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
    'lstm': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
    'unroll_gan': dict(all_pairs=False, ratios=[0.05, 0.3, 0.6, 1.0], limits=[None, 1.05]),
}
FEW: List[Tuple[str, str]] = [
    ('RuntimeV2EagerOptimized', 'DTR'), ('RuntimeV2EagerOptimized', 'DTRLocal'),
    ('RuntimeV2EagerOptimized', 'LRU'), ('RuntimeV2Optimized', 'MSPS'),
    ('RuntimeV2EagerOptimized', 'DTREqClass'), ('RuntimeV1', 'LRU')]


# --small: a few configurations per trace, where simrd is quick (an early
# oom, an early thrash, and ample budgets).
SMALL: List[Config] = [
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', ratio=0.05),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', ratio=0.3, overhead_limit=1.05),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', ratio=1.0),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTRLocal', ratio=1.0),
    dict(runtime='RuntimeV1', heuristic='LRU', ratio=1.0)]


# The oom configuration of --small, where 0.05 is slow in simrd: TreeLSTM at
# 0.05 evicts some 550,000 times before its oom (over an hour in simrd); at
# 0.03 it is out of memory after 15,686 evictions.
SMALL_OOM_RATIO = {'treelstm': 0.03}


def configs_for(name: str, small: bool = False) -> List[Config]:
    if small:
        cfgs = [dict(c, stats=True) for c in SMALL]
        if name in SMALL_OOM_RATIO:
            cfgs[0]['ratio'] = SMALL_OOM_RATIO[name]
        return cfgs
    g = GRIDS[name]
    pairs = [(r, h) for r in RUNTIMES for h in HEURISTICS] if g['all_pairs'] else FEW
    out: List[Config] = []
    for ratio in g['ratios']:
        for limit in g['limits']:
            for rt, h in pairs:
                if not g['all_pairs'] and (rt, h) != FEW[0] and (limit is not None or ratio < 0.6):
                    continue  # big traces: simrd is slow there; other pairs only at ample budgets
                c: Config = {'runtime': rt, 'heuristic': h, 'ratio': ratio, 'stats': True}
                if limit is not None:
                    c['overhead_limit'] = limit
                if h in ('RandomStorage', 'AbRandom'):
                    c['seed'] = 1
                out.append(c)
    return out


LOCAL_GRID = dict(all_pairs=True, ratios=[0.2, 0.35, 0.5, 0.8, 1.0], limits=[None, 1.5])

# Budgets, limits and seeds past 64 bits, each up to what dtrcheck's Int
# holds (-2^127 .. 2^127-1; QUIRKS.md, Q-INT-RANGE); simrd's ints are
# unbounded. On tests/data/big_times.log, whose TIMEs are near 2^62, every
# clock passes 2^64 as well.
BIG_INTS: List[Config] = [
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', budget=2 ** 64),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', budget=2 ** 100,
         remat_limit=2 ** 90),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', budget=2 ** 127 - 1),
    dict(runtime='RuntimeV1', heuristic='LRU', budget=2 ** 64 + 1),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='LRU', ratio=0.9, remat_limit=2 ** 64 + 1),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='RandomStorage', ratio=0.95,
         seed=10 ** 30 + 7),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='RandomStorage', ratio=0.9,
         seed=2 ** 127 - 1),
    dict(runtime='RuntimeV2EagerOptimized', heuristic='AbRandom', ratio=0.95, seed=-2 ** 127),
    dict(runtime='RuntimeV2', heuristic='RandomStorage', ratio=0.9, seed=-2 ** 64 - 1),
]

# Captured traces (traces/captured/, capture/): all five runtimes at ratio 1.0 (DTR, which
# three of them refuse, and DTRLocal, which all accept), and DTR on RuntimeV2EagerOptimized
# at two constrained ratios.
CAPTURED = ([dict(runtime=rt, heuristic=h, ratio=1.0) for rt in RUNTIMES
             for h in ['DTR', 'DTRLocal']] +
            [dict(runtime='RuntimeV2EagerOptimized', heuristic='DTR', ratio=r)
             for r in [0.7, 0.5]])


def record(name: str, path: str, cfgs: List[Config], out_dir: str, trace_ref: str,
           trace_name: Optional[str] = None) -> None:
    """Runs cfgs through the oracle on path; writes out_dir/name.jsonl atomically."""
    with open(path, 'rb') as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    cmd = ['python3', 'oracle/simrd_oracle.py', 'batch', trace_ref]
    print(f'{name}: {len(cfgs)} configurations', file=sys.stderr, flush=True)
    try:
        recs = simrd_client.batch(path, cfgs)
    except (simrd_client.SimrdUnavailable, simrd_client.OracleError) as e:
        sys.exit(f'{name}: {e}')
    tmp = os.path.join(out_dir, name + '.jsonl.tmp')
    with open(tmp, 'w') as f:
        for c, r in zip(cfgs, recs):
            line = {'trace': trace_name or name, 'trace_sha256': sha, 'config': c, 'record': r,
                    'command': ' '.join(cmd) + '  <<< ' + json.dumps(c)}
            if not trace_ref.startswith('traces:') and trace_name is None:
                line['trace_file'] = os.path.relpath(path, out_dir)
            f.write(json.dumps(line) + '\n')
    os.replace(tmp, os.path.join(out_dir, name + '.jsonl'))  # atomic
    statuses: Dict[str, int] = {}
    for r in recs:
        k = r.get('status', 'refused')
        statuses[k] = statuses.get(k, 0) + 1
    print(f'{name}: {statuses}', file=sys.stderr, flush=True)


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--local', nargs='*', default=None,
                    help='record these small trace files (all pairs) instead of the public traces')
    shared = os.path.join(REPO, '..', 'shared', 'traces')
    ap.add_argument('--traces', default=os.environ.get('DTRCHECK_TRACES', shared))
    ap.add_argument('--only', default='')
    ap.add_argument('--small', action='store_true', help='only the SMALL configurations per trace')
    ap.add_argument('--out', default=os.path.join(REPO, 'corpus', 'oracle'))
    ap.add_argument('--big-ints', action='store_true',
                    help='with --local: also the configurations of BIG_INTS')
    ap.add_argument('--captured', action='store_true',
                    help='record the captured traces (traces/captured/manifest.json; --only '
                         'filters) as captured_NAME.jsonl')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    if args.captured:
        only = {name for name in args.only.split(',') if name}
        with open(os.path.join(REPO, 'traces', 'captured', 'manifest.json')) as f:
            captured = json.load(f)
        dtrcheck = os.path.join(REPO, 'build', 'bin', 'dtrcheck')
        for e in captured['traces']:
            if only and e['name'] not in only:
                continue
            # dtrcheck hands out the verified decompressed log (traces/captured.h)
            path = subprocess.run([dtrcheck, 'trace-path', e['name']], check=True,
                                  capture_output=True, text=True).stdout.strip()
            record('captured_' + e['name'], path, [dict(c, stats=True) for c in CAPTURED],
                   args.out, '$(dtrcheck trace-path ' + e['name'] + ')', trace_name=e['name'])
        return
    if args.local is not None:
        GRIDS['local'] = LOCAL_GRID
        for path in args.local:
            name = 'local_' + os.path.splitext(os.path.basename(path))[0]
            cfgs = configs_for('local') + ([dict(c, stats=True) for c in BIG_INTS]
                                           if args.big_ints else [])
            record(name, os.path.abspath(path), cfgs, args.out,
                   os.path.relpath(os.path.abspath(path), REPO))
        return
    with open(os.path.join(REPO, 'traces', 'manifest.json')) as f:
        manifest = json.load(f)
    only = {name for name in args.only.split(',') if name}
    for e in manifest['traces']:
        name = e['name']
        if name not in GRIDS or (only and name not in only):
            continue
        record(name, os.path.join(args.traces, e['file']), configs_for(name, args.small), args.out,
               'traces:' + e['file'])


if __name__ == '__main__':
    main()
