#!/usr/bin/env python3
"""`--memory` in every simulating command besides run (issue 42, item 1):
sweep records under an allocator are run's, point for point (the sweep forks
one run at many budgets and gives each copy of the allocator its budget);
they read back (--resume, --merge, scan --records) with their memory fields;
scan reports the allocator-only pathologies (a fragmentation OOM: ok in
bytes, out of memory under cuda-caching, whose 2 MiB segment no 4-8 KiB
device holds); an unknown model or an option of another model is one line
on stderr, exit code 2, in every command."""
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory_test_lib import TRACE, Checks, dtrcheck_run  # noqa: E402

dtrcheck = sys.argv[1]
check = Checks()


def dt(args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return dtrcheck_run(dtrcheck, args, timeout=120)


def jsonl(text: str) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, 'holes.log')
    with open(log, 'w') as f:
        f.write(TRACE)
    grid = ['--bytes', '--from', '4096', '--to', '8192', '--step', '1024']
    for model in ['arena', 'cuda-caching']:
        out = os.path.join(d, f'{model}.jsonl')
        p = dt(['sweep', log, *grid, '--memory', model, '--format', 'jsonl', '-o', out])
        check(p.returncode == 0, f'sweep --memory {model}: {p.stderr}')
        with open(out) as f:
            swept = jsonl(f.read())
        check(len(swept) == 5 and all('memory' in r for r in swept),
              f'{model}: five records with memory figures')
        for r in swept:
            q = dt(['run', log, '--budget', str(r['budget']), '--memory', model, '--json'])
            alone = json.loads(q.stdout)
            # The sweep adds a sweep_check; everything else is run's.
            r = {k: v for k, v in r.items() if k != 'sweep_check'}
            check(r == alone, f'{model} at {r["budget"]}: sweep {r} != run {alone}')
        # Read back: resume (nothing left to run) and merge keep the records.
        p = dt(['sweep', log, *grid, '--memory', model, '--format', 'jsonl', '--resume', out])
        check(p.returncode == 0 and [{k: v for k, v in r.items() if k != 'sweep_check'}
                                     for r in jsonl(p.stdout)]
              == [{k: v for k, v in r.items() if k != 'sweep_check'} for r in swept],
              f'{model}: --resume gives the records back: {p.stderr}')
        p = dt(['sweep', '--merge', out, '--format', 'jsonl'])
        check(p.returncode == 0 and all('memory' in r for r in jsonl(p.stdout)),
              f'{model}: --merge keeps the memory figures: {p.returncode} {p.stderr}')
        # The records of another model are not this sweep's.
        p = dt(['sweep', log, *grid, '--format', 'jsonl', '--resume', out])
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
              f'{model}: bytes --resume from {model} records refused: {p.returncode} {p.stderr}')
    # The scan: under cuda-caching every budget is a fragmentation OOM, one
    # stretch, reported once at its largest budget.
    p = dt(['scan', log, *grid, '--memory', 'cuda-caching', '--json'])
    check(p.returncode == 0, f'scan --memory cuda-caching: {p.stderr}')
    scan = json.loads(p.stdout) if p.returncode == 0 else {}
    kinds = [f['kind'] for f in scan.get('findings', [])]
    check(kinds == ['fragmentation-oom'], f'one fragmentation OOM: {kinds}')
    frag = scan['findings'][0] if kinds else {}
    check(frag.get('high', {}).get('budget') == 8192 and frag['high']['status'] == 'oom'
          and frag['low']['status'] == 'ok', f'at 8192, oom under the allocator: {frag}')
    check(scan.get('memory', {}).get('model') == 'cuda-caching'
          and scan['memory']['floor_budget'] is None
          and scan['memory']['bytes_floor_budget'] == 4096, f'floors: {scan.get("memory")}')
    # The report's reduce command for it is one that reduce accepts and
    # whose property holds (fragmentation-oom has one budget, hi).
    report = os.path.join(d, 'report')
    p = dt(['scan', log, *grid, '--memory', 'cuda-caching', '--report', report])
    with open(os.path.join(report, 'report.md')) as f:
        reduce_commands = [line.split() for line in f if line.startswith('dtrcheck reduce')]
    check(len(reduce_commands) == 1 and '--hi-bytes' in reduce_commands[0]
          and '--lo-bytes' not in reduce_commands[0],
          f'one reduce command, at hi only: {reduce_commands}')
    if reduce_commands:
        out = os.path.join(d, 'reduced.log')
        p = dt(reduce_commands[0][1:-1] + [out])
        check(p.returncode == 0 and os.path.exists(out),
              f"the report's reduce command runs: {p.returncode} {p.stderr}")
    p = dt(['scan', log, '--memory', 'cuda-caching', '--records',
            os.path.join(d, 'cuda-caching.jsonl'), '--json'])
    check(p.returncode == 0 and [f['kind'] for f in json.loads(p.stdout)['findings']] == kinds,
          f'scan --records under cuda-caching: {p.stderr}')
    p = dt(['scan', log, *grid, '--json'])
    check(p.returncode == 0 and json.loads(p.stdout)['findings'] == [] and
          'memory' not in json.loads(p.stdout), 'bytes: no findings, no memory section')
    p = dt(['diagnose', log, '--budget', '8192', '--memory', 'cuda-caching'])
    check(p.returncode == 0 and 'oom' in p.stdout, f'diagnose --memory: {p.stdout}{p.stderr}')
    # Bad input in every command: one line, exit 2, nothing on stdout.
    commands = {
        'sweep': ['sweep', log, *grid],
        'scan': ['scan', log, *grid],
        'diagnose': ['diagnose', log, '--budget', '4096'],
        'compare': ['compare', log, '--at', '0.5', '--at', '0.9'],
        'reduce': ['reduce', log, '--property', 'fragmentation-oom', '--hi-bytes', '4096',
                   '-o', os.path.join(d, 'out.log')],
    }
    # The arena has no option of its own (OneFlow's defaults: one group, no
    # small-piece area; memory/README.md): the options of another model are
    # cuda-caching's, refused under bytes and under the arena.
    bad = [(['--memory', 'heap'], '--memory: unknown memory model "heap"'),
           (['--max-split-size-mb', '40'], '--max-split-size-mb: belongs'),
           (['--memory', 'arena', '--max-split-size-mb', '40'],
            '--max-split-size-mb: belongs to --memory cuda-caching, not arena'),
           (['--memory', 'cuda-caching', '--max-split-size-mb', '20'], 'more than 20'),
           (['--memory', 'arena', '--expandable-segments'], '--expandable-segments: belongs')]
    for name, args in commands.items():
        for extra, message in bad:
            p = dt(args + extra)
            check(p.returncode == 2 and p.stdout == '' and message in p.stderr
                  and len(p.stderr.strip().splitlines()) == 1,
                  f'{name} {extra}: {p.returncode} {p.stderr}')
    # fragmentation-oom needs an allocator model.
    p = dt(commands['reduce'])
    check(p.returncode == 2 and 'needs an allocator model' in p.stderr
          and len(p.stderr.strip().splitlines()) == 1, f'reduce without --memory: {p.stderr}')
# The archived allocator-cliff (ViT-B/16 under cuda-caching, DTR, overhead
# limit 8, reduced as a cliff under the allocator; archive_cliff_d94e4021*
# replays the allocator's half): in bytes the same pair is no cliff, so the
# reduction kept a cliff only the allocator has. simrd, whose memory is
# bytes, gives the bytes runs (1.058x, 1.410x) when installed.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cliff = os.path.join(ROOT, 'corpus', 'cliff', 'd94e4021c3af9ae4', 'trace.log')
overheads = {}
for model in ['bytes', 'cuda-caching']:
    for ratio in ['0.72', '0.73']:
        p = dt(['run', cliff, '--ratio', ratio, '--overhead-limit', '8', '--memory', model,
                '--json'])
        r = json.loads(p.stdout) if p.returncode == 0 else {}
        check(r.get('status') == 'ok', f'archived cliff, {model} at {ratio}: {p.stderr}')
        overheads[model, ratio] = ((r.get('model_compute', 0) + r.get('remat_compute', 0))
                                   / max(r.get('baseline_compute', 1), 1))
bytes_factor = overheads['bytes', '0.73'] / overheads['bytes', '0.72']
caching_factor = overheads['cuda-caching', '0.72'] / overheads['cuda-caching', '0.73']
check(max(bytes_factor, 1 / bytes_factor) < 2 and caching_factor >= 2,
      f'archived cliff: bytes {bytes_factor:.3f}x (no cliff), cuda-caching {caching_factor:.3f}x')
check.exit()
