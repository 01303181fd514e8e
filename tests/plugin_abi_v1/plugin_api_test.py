#!/usr/bin/env python3
"""Plugin API versions 1 and 2 (ctest plugin_api_versions).

Usage: plugin_api_test.py DTRCHECK V1_PLUGIN V2_PLUGIN

V1_PLUGIN is examples/plugin/policies.cc built against the frozen
version-1 header in this folder, V2_PLUGIN the same file against today's
(which adds FitWindow, a version-2 heuristic that reads addresses and
evicts windows). Checks:
* the version-1 build still loads, and every heuristic it has gives records
  identical to the version-2 build's (and PublicDTR's to the built-in
  DTR's), under --memory bytes, arena and cuda-caching;
* FitWindow (version 2) runs under arena and cuda-caching, its decisions
  evict windows (more storages than decisions), and --memory bytes refuses
  it with one line, exit 2; the version-1 build has no FitWindow;
* dtrcheck's address-aware policies (DTE, Coop, MegEngineDTR,
  MegEngineDTRSqrt) run under both allocator models and are refused under
  bytes the same way.
"""
import glob
import json
import os
import subprocess
import sys
from typing import Dict, List

RATIOS = ['--from', '0.3', '--to', '0.8', '--step', '0.1']  # 6 budgets


def trace_path(name: str) -> str:
    found = glob.glob(os.path.join(os.environ.get('DTRCHECK_TRACES', ''), name + '-*.log'))
    return found[0] if found else name


def run(cmd: List[str], expect: int = 0) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != expect:
        sys.exit(f'FAIL: {" ".join(cmd)}: exit {p.returncode}, expected {expect}\n'
                 f'{p.stdout[-2000:]}{p.stderr[-2000:]}')
    return p


def check(ok: bool, what: str) -> None:
    if not ok:
        sys.exit('FAIL: ' + what)
    print('ok: ' + what)


def records(dtr: str, plugin: str, trace: str, heuristic: str, memory: str) -> List[Dict]:
    cmd = [dtr, 'sweep', trace, '--heuristic', heuristic, '--format', 'jsonl', '-j', '2',
           '--memory', memory] + RATIOS
    if plugin:
        cmd += ['--plugin', plugin]
    out = []
    for line in run(cmd).stdout.splitlines():
        r = json.loads(line)
        r.pop('heuristic', None)
        r.pop('sweep_check', None)  # a digest of the record, heuristic included
        out.append(r)
    return out


def main() -> int:
    dtr, v1, v2 = sys.argv[1:4]
    resnet = trace_path('resnet32')
    if not os.path.exists(resnet):
        print('skipped: the public trace resnet32 is not in DTRCHECK_TRACES')
        return 77
    for memory in ['bytes', 'arena', 'cuda-caching']:
        for h in ['PublicDTR', 'DTRLockAware', 'DTRStableTie']:
            a = records(dtr, v1, resnet, h, memory)
            b = records(dtr, v2, resnet, h, memory)
            check(len(a) == 6 and a == b, f'{h} --memory {memory}: version 1 == version 2')
        builtin = records(dtr, '', resnet, 'DTR', memory)
        check(records(dtr, v1, resnet, 'PublicDTR', memory) == builtin,
              f'version-1 PublicDTR == built-in DTR, --memory {memory}')

    p = run([dtr, 'run', resnet, '--plugin', v1, '--heuristic', 'FitWindow', '--ratio', '0.5'], 2)
    check('FitWindow' in p.stderr, 'the version-1 build has no FitWindow')

    policies = [(v2, 'FitWindow'), ('', 'DTE'), ('', 'Coop'), ('', 'MegEngineDTR'),
                ('', 'MegEngineDTRSqrt')]
    for plugin, h in policies:
        extra = ['--plugin', plugin] if plugin else []
        p = run([dtr, 'run', resnet, '--heuristic', h, '--ratio', '0.5'] + extra, 2)
        lines = p.stderr.strip().splitlines()
        check(len(lines) == 1 and "requires {'addresses'}" in lines[0] and
              '--memory bytes' in lines[0], f'{h} refused under --memory bytes: {lines}')
        for memory in ['arena', 'cuda-caching']:
            rs = records(dtr, plugin, resnet, h, memory)
            ok = [r for r in rs if r.get('status', 'ok') == 'ok' and not r.get('oom')]
            check(len(rs) == 6 and bool(ok), f'{h} --memory {memory}: {len(ok)} of 6 ratios ok')
    # Coop scores nothing itself: one evaluation per decision, so more
    # evictions than evaluations means windows of several storages.
    coop = records(dtr, '', resnet, 'Coop', 'arena')
    check(any(r['evictions'] > r['heuristic_eval_count'] > 0 for r in coop),
          'Coop evicts windows: ' + ', '.join(
              f"{r['evictions']} evictions in {r['heuristic_eval_count']} decisions"
              for r in coop))
    # FitWindow's windows act when the allocator refuses after the bytes
    # fit: on ResNet-32 the arena never does (every run equals DTR's), the
    # caching allocator does at ratios 0.5 and 0.8.
    window = records(dtr, v2, resnet, 'FitWindow', 'cuda-caching')
    dtr_caching = records(dtr, v2, resnet, 'PublicDTR', 'cuda-caching')
    differ = [a['ratio'] for a, b in zip(window, dtr_caching) if a != b]
    check(bool(differ) and all(r['memory']['evictions_bytes_fit'] > 0 for r in window
                               if r['ratio'] in differ),
          f'FitWindow decides otherwise than DTR under cuda-caching at ratios {differ}')
    # A scan of an address-aware policy under an allocator: there is no run
    # in bytes to set beside it, so no allocator-only kinds and no bytes floor.
    for h in ['Coop', 'MegEngineDTR']:
        p = run([dtr, 'scan', resnet, '--heuristic', h, '--memory', 'arena', '--from', '0.3',
                 '--to', '0.8', '--step', '0.1', '--json'])
        scan = json.loads(p.stdout)
        kinds = {f['kind'] for f in scan['findings']}
        check(scan['memory']['bytes_floor_budget'] is None and
              not kinds & {'fragmentation-oom', 'allocator-inversion', 'allocator-cliff'},
              f'scan --heuristic {h} --memory arena: no bytes comparison ({sorted(kinds)})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
