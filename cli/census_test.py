#!/usr/bin/env python3
"""dtrcheck census on a small trace: sharded sweeps tabulate exactly as the
merged sweep (byte-identical tables), the counts add up, the per-policy sum
follows, the hidden cost is the documented trapezoid area recomputed here
from the records, and a malformed input is refused with exit 2."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from typing import Dict, List

dtrcheck = sys.argv[1]
trace = sys.argv[2]
GRID = ['--from', '0.3', '--to', '1.0', '--step', '0.05']
failed: List[str] = []


def sh(cmd: List[str], expect: int = 0) -> str:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        failed.append(f'{cmd}: exit {p.returncode}: {p.stderr}')
    return p.stdout + p.stderr


def hidden_cost(records: List[Dict]) -> float:
    """Trapezoids between adjacent ok points of (raw - running best)."""
    area, best, prev = 0.0, 0.0, None
    for r in sorted(records, key=lambda r: r['budget']):
        if r['status'] != 'ok':
            continue
        o = (r['model_compute'] + r['remat_compute']) / r['baseline_compute']
        x = r['budget'] / r['baseline_peak']
        best = o if prev is None else min(best, o)
        if prev is not None:
            area += (x - prev[0]) * ((o - best) + prev[1]) / 2
        prev = (x, o - best)
    return area


with tempfile.TemporaryDirectory() as d:
    whole = os.path.join(d, 'whole.jsonl')
    sh([dtrcheck, 'sweep', trace, '--heuristics', 'DTR,LRU,LargestStorage', '--format', 'jsonl',
        '-o', whole] + GRID)
    shards = []
    for i in range(3):
        s = os.path.join(d, f's{i}.jsonl')
        sh([dtrcheck, 'sweep', trace, '--heuristics', 'DTR,LRU,LargestStorage', '--format',
            'jsonl', '--shard', f'{i}/3', '-o', s] + GRID)
        shards.append(s)
    a = sh([dtrcheck, 'census', f'{trace}={whole}', '--csv', os.path.join(d, 'a.csv')])
    b = sh([dtrcheck, 'census', f'{trace}={",".join(shards)}', '--csv', os.path.join(d, 'b.csv'),
            '--svg-dir', d])
    if a != b or open(os.path.join(d, 'a.csv')).read() != open(os.path.join(d, 'b.csv')).read():
        failed.append('census of the shards differs from that of the merged sweep')
    rows = list(csv.DictReader(io.StringIO(open(os.path.join(d, 'a.csv')).read())))
    records = [json.loads(line) for line in open(whole)]
    for row in rows:
        if int(row['ok']) + int(row['oom']) + int(row['thrashed']) != int(row['points']):
            failed.append(f'counts do not add up: {row}')
        mine = [r for r in records if r['heuristic'] == row['policy']]
        if row['trace'] != 'all' and abs(float(row['hidden_cost']) - hidden_cost(mine)) > 1e-4:
            failed.append(f'hidden cost {row["hidden_cost"]} != {hidden_cost(mine):.4f}')
    if len(rows) != 6 or [r['trace'] for r in rows[3:]] != ['all'] * 3:
        failed.append(f'expected 3 policies and 3 sums: {rows}')
    if not any(f.endswith('.svg') for f in os.listdir(d)):
        failed.append('no svg written')
    out = sh([dtrcheck, 'census', 'no-equals-sign'], expect=2)
    if 'TRACE=RECORDS' not in out:
        failed.append(f'bad input message: {out!r}')
# The committed LSTM records (corpus/census, overhead limit 8, grid step
# 0.005): the study's regime cliffs (ratio 0.26-0.28) are there, so the
# census must find DTR's, its cliff window widened to the grid step; with
# scan's 0.001 window it reported none.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lstm = os.path.join(ROOT, 'corpus', 'census', 'records', 'lstm-limit8.jsonl')
if subprocess.run([dtrcheck, 'trace-path', 'lstm'], capture_output=True).returncode == 0:
    with tempfile.TemporaryDirectory() as d, open(lstm) as src:
        only_dtr = os.path.join(d, 'dtr.jsonl')  # the records hold plugin policies too
        with open(only_dtr, 'w') as dst:
            dst.writelines(r for r in src if json.loads(r)['heuristic'] == 'DTR')
        sh([dtrcheck, 'census', f'lstm={only_dtr}', '--csv', os.path.join(d, 'l.csv')])
        with open(os.path.join(d, 'l.csv')) as table:
            dtr = [r for r in csv.DictReader(table) if r['policy'] == 'DTR' and r['trace'] == 'lstm']
        if not (dtr and int(dtr[0]['cliffs']) > 0):
            failed.append(f'no DTR cliff in the LSTM census at limit 8: {dtr}')
for f in failed:
    print('FAIL', f)
sys.exit(1 if failed else 0)
