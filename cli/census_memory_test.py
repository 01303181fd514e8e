#!/usr/bin/env python3
"""`dtrcheck census --memory` (issue 42, item 1): census rows of allocator
records carry the model and the allocator-only pathology columns.

- A tiny trace whose bytes fit 4-8 KiB: under cuda-caching every budget is
  out of memory (no 2 MiB segment fits a device of 4-8 KiB, c10's smallest
  segment), one stretch of fragmentation OOMs, counted once; under the arena
  every budget is ok (cli/memory_option_test.py: the arena evicts into its
  holes). A census of bytes and allocator records together shows "-" in the
  allocator columns of the bytes row.
- The published U-Net scan (corpus/scan-report-memory/unet): the census of
  its records counts the allocator-only findings its scan.json lists, and its
  smallest feasible ratio is the scan's floor under the allocator.
- The columns that compare policies at the same memory, each recomputed
  here from the records: the smallest ok budget in bytes, the overhead (or
  the failure) at the fixed ratios 0.3, 0.4, 0.5, 0.7, 0.9, and under an
  allocator the floor's fragmentation (the record's most bytes reserved but
  not allocated, over that budget).
- `--memory` asks that the records be runs under that model; records of
  another model, an unknown model or an option of another model are one line
  on stderr, exit code 2."""
import collections
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from typing import Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory_test_lib import TRACE, Checks, dtrcheck_run  # noqa: E402

dtrcheck = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOCATOR_COLUMNS = ['fragmentation_ooms', 'allocator_inversions', 'allocator_cliffs',
                     'reserved_peak_inversions']
KIND_COLUMN = {'fragmentation-oom': 'fragmentation_ooms',
               'allocator-inversion': 'allocator_inversions',
               'allocator-cliff': 'allocator_cliffs',
               'reserved-peak-inversion': 'reserved_peak_inversions'}
check = Checks()


def dt(args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return dtrcheck_run(dtrcheck, args)


def census_rows(args: List[str]) -> List[Dict[str, str]]:
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'census.csv')
        p = dt(['census', *args, '--csv', out])
        if p.returncode != 0:
            check(False, f'census {args}: exit {p.returncode}: {p.stderr}')
            return []
        with open(out) as f:
            return list(csv.DictReader(io.StringIO(f.read())))


def overhead(record: Dict) -> float:
    """A record's overhead, as RunRecord::Overhead computes it."""
    return (record['model_compute'] + record['remat_compute']) / record['baseline_compute']


def refused(args: List[str], message: str) -> None:
    p = dt(['census', *args])
    check(p.returncode == 2 and p.stdout == '' and message in p.stderr
          and len(p.stderr.strip().splitlines()) == 1,
          f'census {args}: {p.returncode} {p.stderr!r}, expected {message!r}')


with tempfile.TemporaryDirectory() as d:
    log = os.path.join(d, 'holes.log')
    with open(log, 'w') as f:
        f.write(TRACE)
    grid = ['--bytes', '--from', '4096', '--to', '8192', '--step', '1024']
    records = {}
    for model in ['bytes', 'cuda-caching', 'arena']:
        records[model] = os.path.join(d, f'{model}.jsonl')
        p = dt(['sweep', log, *grid, '--memory', model, '--format', 'jsonl', '-o',
                records[model]])
        check(p.returncode == 0, f'sweep --memory {model}: {p.stderr}')

    rows = census_rows([f'{log}={records["cuda-caching"]}', '--memory', 'cuda-caching'])
    row = rows[0] if rows else {}
    check(len(rows) == 2 and row.get('policy') == 'DTR memory cuda-caching'
          and rows[1]['trace'] == 'all', f'one policy and its sum: {rows}')
    check(row.get('points') == '5' and row.get('ok') == '0' and row.get('oom') == '5'
          and row.get('smallest_feasible') == '-', f'cuda-caching: every budget oom: {row}')
    check([row.get(c) for c in ALLOCATOR_COLUMNS] == ['1', '0', '0', '0'],
          f'cuda-caching: one stretch of fragmentation OOMs, nothing else: {row}')
    check(row.get('inversions') == '0' and row.get('cliffs') == '0',
          f'cuda-caching: no inversion of its own: {row}')
    # Without --memory the records say their model: the same table.
    check(census_rows([f'{log}={records["cuda-caching"]}']) == rows,
          'cuda-caching records without --memory: the same rows')

    rows = census_rows([f'{log}={records["arena"]}', '--memory', 'arena'])
    row = rows[0] if rows else {}
    check(row.get('policy') == 'DTR memory arena' and row.get('ok') == '5'
          and [row.get(c) for c in ALLOCATOR_COLUMNS] == ['0'] * 4,
          f'arena: ok at every budget, no allocator-only finding: {row}')

    # Bytes and allocator records in one census: the bytes row has no
    # allocator figures ("-"); bytes alone has no allocator columns at all.
    rows = census_rows([f'{log}={records["bytes"]}', f'{log}={records["cuda-caching"]}'])
    check([r['policy'] for r in rows] == ['DTR', 'DTR memory cuda-caching', 'DTR',
                                          'DTR memory cuda-caching'],
          f'mixed: two policies and two sums: {[r.get("policy") for r in rows]}')
    check(bool(rows) and [rows[0][c] for c in ALLOCATOR_COLUMNS] == ['-'] * 4
          and rows[0]['ok'] == '5',
          f'mixed: the bytes row is ok everywhere, no allocator figures: {rows[:1]}')
    rows = census_rows([f'{log}={records["bytes"]}'])
    check(bool(rows) and not any(c in rows[0] for c in ALLOCATOR_COLUMNS),
          f'bytes only: no allocator columns: {rows[:1]}')

    # Bad input: one line, exit 2.
    cuda = f'{log}={records["cuda-caching"]}'
    refused([cuda, '--memory', 'arena'], 'the records are runs under --memory cuda-caching, '
            'not --memory arena')
    refused([f'{log}={records["bytes"]}', '--memory', 'cuda-caching'],
            'the records are runs under --memory bytes, not --memory cuda-caching')
    refused([cuda, '--memory', 'cuda-caching', '--max-split-size-mb', '40'],
            'not --memory cuda-caching --max-split-size-mb 40')
    refused([cuda, '--memory', 'heap'], '--memory: unknown memory model "heap"')
    refused([cuda, '--max-split-size-mb', '40'], '--max-split-size-mb: belongs')
    refused([cuda, '--memory', 'arena', '--max-split-size-mb', '40'],
            '--max-split-size-mb: belongs to --memory cuda-caching, not arena')
    refused([cuda, '--memory', 'arena', '--expandable-segments'],
            '--expandable-segments: belongs')

# The published U-Net scan under cuda-caching (DTR, ratio 0.10-1.00 step
# 0.01): the census finds what the scan found.
if dt(['trace-path', 'unet']).returncode == 0:
    report = os.path.join(ROOT, 'corpus', 'scan-report-memory', 'unet')
    with open(os.path.join(report, 'scan.json')) as f:
        scan = json.load(f)
    kinds = collections.Counter(f['kind'] for f in scan['findings'])
    rows = census_rows([f'unet={os.path.join(report, "points.jsonl")}', '--memory',
                        'cuda-caching', '--jobs', '1'])
    row = rows[0] if rows else {}
    expected = {c: str(kinds.get(k, 0)) for k, c in KIND_COLUMN.items()}
    check({c: row.get(c) for c in ALLOCATOR_COLUMNS} == expected,
          f"unet: the scan's allocator-only findings {expected}: {row}")
    check(expected['fragmentation_ooms'] == '3' and expected['allocator_inversions'] == '2',
          f'unet: the published 3 fragmentation OOMs and 2 allocator-inversions: {expected}')
    # The fixed-ratio and floor columns, from the records.
    with open(os.path.join(report, 'points.jsonl')) as f:
        points = sorted((json.loads(line) for line in f if line.strip()),
                        key=lambda r: r['budget'])
    ok = [r for r in points if r['status'] == 'ok']
    check(bool(ok) and row.get('smallest_feasible_bytes') == str(ok[0]['budget']),
          f'unet: smallest feasible bytes {row.get("smallest_feasible_bytes")}')
    if ok:
        frag = ok[0]['memory']['peak_reserved_minus_allocated'] / ok[0]['budget']
        check(row.get('floor_fragmentation') == f'{frag:.4f}',
              f'unet: floor fragmentation {row.get("floor_fragmentation")} != {frag:.4f}')
    for ratio in ['0.3', '0.4', '0.5', '0.7', '0.9']:
        at = [r for r in points if r.get('ratio') == float(ratio)]
        want = '-' if not at else (f'{overhead(at[0]):.3f}' if at[0]['status'] == 'ok'
                                   else at[0]['status'])
        check(row.get(f'overhead_at_{ratio}') == want,
              f'unet: overhead at {ratio}: {row.get(f"overhead_at_{ratio}")} != {want}')
    floor = scan['memory']['floor_budget'] / scan['baseline_peak']
    check(row.get('smallest_feasible') == f'{floor:.3f}',
          f'unet: smallest feasible {row.get("smallest_feasible")} != scan floor {floor:.3f}')
    counts = scan['status_counts']
    check(row.get('ok') == str(counts.get('ok', 0)) and row.get('oom') == str(counts.get('oom', 0)),
          f'unet: statuses {counts}: {row}')
else:
    print('unet: no trace (DTRCHECK_TRACES), the published records are not checked')
check.exit()
