#!/usr/bin/env python3
"""`dtrcheck run --memory`: the default record is unchanged and has no memory
figures; an allocator model adds them; a trace whose bytes fit evicts under
the arena (a hole too small) and runs out of memory under the caching
allocator (a 2 MiB segment past a 4 KiB device); bad options are one line on
stderr naming the option, exit code 2. The help of --heuristic (run, reduce)
and --heuristics (sweep) lists dtrcheck's own heuristics, as needing
--memory cuda-caching or arena."""
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory_test_lib import TRACE  # noqa: E402

dtrcheck = sys.argv[1]
failed = 0


def run(args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck, 'run', *args], capture_output=True, text=True, timeout=60)


def record(args: List[str]) -> Dict[str, Any]:
    p = run(args + ['--json'])
    if p.returncode != 0:
        raise SystemExit(f'dtrcheck run {args}: exit {p.returncode}: {p.stderr}')
    result: Dict[str, Any] = json.loads(p.stdout)
    return result


def check(ok: bool, what: str) -> None:
    global failed
    if not ok:
        failed += 1
        print('FAIL', what)


with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, 'holes.log')
    with open(log, 'w') as f:
        f.write(TRACE)
    base = [log, '--budget', '4096']
    default = record(base)
    check(record(base + ['--memory', 'bytes']) == default, 'bytes is the default record')
    check('memory' not in default, 'the default record has no memory figures')
    # One eviction: the eager eviction of the released y1.
    check(default['status'] == 'ok' and default['evictions'] == 1, f'bytes fit: {default}')
    arena = record(base + ['--memory', 'arena'])
    check(arena['status'] == 'ok' and arena['memory']['evictions_bytes_fit'] == 1
          and arena['evictions'] == 2, f'the arena evicts where bytes fit: {arena}')
    check(arena['memory']['reserved_peak'] == 4096, 'the arena reserves the budget')
    caching = record(base + ['--memory', 'cuda-caching'])
    check(caching['status'] == 'oom' and caching['memory']['reserved_peak'] == 0,
          f'a 4 KiB device holds no 2 MiB segment: {caching}')
    text = run(base + ['--memory', 'arena']).stdout
    check('evictions where the bytes alone would have fit' in text, 'text output has the figures')
    bad = [(['--memory', 'heap'], '--memory: unknown memory model "heap"'),
           (['--memory', 'arena', '--max-split-size-mb', '40'], '--max-split-size-mb: belongs'),
           (['--max-split-size-mb', '40'], '--max-split-size-mb: belongs'),
           (['--memory', 'cuda-caching', '--max-split-size-mb', '20'], 'more than 20'),
           (['--memory', 'cuda-caching', '--expandable-segments'], 'not modelled'),
           (['--memory', 'arena', '--expandable-segments'], '--expandable-segments: belongs')]
    for args, message in bad:
        p = run(base + args)
        check(p.returncode == 2 and p.stdout == '' and message in p.stderr
              and len(p.stderr.strip().splitlines()) == 1, f'{args}: {p.returncode} {p.stderr}')
OWN = ("dtrcheck's own that read addresses (only with --memory cuda-caching or arena): "
       'DTE Coop MegEngineDTR MegEngineDTRSqrt;')
for command in ('run', 'reduce', 'sweep'):
    p = subprocess.run([dtrcheck, command, '--help'], capture_output=True, text=True, timeout=60)
    # CLI11 wraps nothing: each option's help is one line (sweep has both).
    lines = [ln for ln in p.stdout.splitlines() if ln.lstrip().startswith('--heuristic')]
    check(len(lines) == (2 if command == 'sweep' else 1) and all(
        OWN in ln and "simrd's: DTR DTREqClass" in ln and ' AbRandom;' in ln for ln in lines),
        f'{command} --help lists the own heuristics: {lines!r}')
print(f'{9 + len(bad) - failed} passed, {failed} failed')
sys.exit(1 if failed else 0)
