#!/usr/bin/env python3
"""The table of corpus/scan-report-memory/README.md from the scan.json of
each report directory (scan.sh): per trace and heuristic, the smallest ok
budget of the grid under bytes and under cuda-caching, the fragmentation at
the allocator's floor, and the allocator-only findings with their ratios.

    python3 summarize.py DIR [DIR...] > table.md   (DIR: a scan --report directory)
"""
import json
import os
import sys
from typing import Any, Dict, List, Optional

ALLOCATOR_ONLY = ['fragmentation-oom', 'allocator-inversion', 'allocator-cliff',
                  'reserved-peak-inversion']


def ratio(budget: Optional[int], peak: int) -> str:
    return '-' if budget is None else f'{budget / peak:.2f}'


def grouped(n: Optional[int]) -> str:
    return '-' if n is None else f'{n:,}'


def span(f: Dict[str, Any]) -> str:
    """A fragmentation OOM is one budget; the other kinds a pair."""
    lo, hi = f['low']['ratio'], f['high']['ratio']
    if lo is None or hi is None:
        return f'{f["low"]["budget"]:,} B->{f["high"]["budget"]:,} B'
    return f'{hi:.2f}' if f['low']['budget'] == f['high']['budget'] else f'{lo:.2f}->{hi:.2f}'


def findings_text(findings: List[Dict[str, Any]]) -> str:
    parts = []
    for kind in ALLOCATOR_ONLY:
        mine = [f for f in findings if f['kind'] == kind]
        if not mine:
            continue
        where = ', '.join(span(f) for f in mine)
        parts.append(f'{len(mine)} {kind} ({where})')
    return '; '.join(parts) if parts else 'none'


def row(directory: str) -> str:
    with open(os.path.join(directory, 'scan.json')) as f:
        j = json.load(f)
    m = j['memory']
    peak = j['baseline_peak']
    name = os.path.basename(os.path.normpath(directory))
    allocator_only = [f for f in j['findings'] if f['kind'] in ALLOCATOR_ONLY]
    same = m['floor_budget'] == m['bytes_floor_budget'] and not allocator_only
    floor = m['floor_budget'] is not None
    return '| ' + ' | '.join([
        f'[{name}]({name}/report.md)', j['heuristic'],
        ratio(m['bytes_floor_budget'], peak), ratio(m['floor_budget'], peak),
        grouped(m['floor_peak_reserved_minus_allocated']) if floor else '-',
        grouped(m['floor_peak_largest_free_block']) if floor else '-',
        grouped(m['floor_evictions_bytes_fit']) if floor else '-',
        findings_text(allocator_only),
        'nothing' if same else 'changes',
    ]) + ' |'


print('| report | heuristic | smallest ok ratio, bytes | smallest ok ratio, cuda-caching | '
      'at that floor: reserved - allocated at the peak (B) | largest free block (B) | '
      'evictions where the bytes fit | allocator-only findings (ratios) | the allocator |')
print('|---|---|---|---|---|---|---|---|---|')
for d in sys.argv[1:]:
    print(row(d))
