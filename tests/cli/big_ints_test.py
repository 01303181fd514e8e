#!/usr/bin/env python3
"""Integers past 64 bits (QUIRKS.md, Q-INT-RANGE): dtrcheck's records print
them exactly, its readers read them back exactly, and its records equal
simrd's field by field. On tests/data/big_times.log, whose TIMEs are near
2^62, every clock passes 2^64:

- `run --json --stats` for the BIG_INTS configurations of
  oracle/record_corpus.py (budgets, limits and seeds past 64 bits, up to
  2^127-1) and two heuristics at two ratios equals simrd's record, every field:
  simrd's live record where simrd is installed, else its recorded one in
  corpus/oracle/local_big_times.jsonl (each line names the oracle command
  that made it);
- `diff` agrees with simrd on every eviction and its clock (simrd's eviction
  log is read exactly, options past 64 bits are sent exactly), and finds a
  perturbed one at its exact clock;
- sweeps (by ratio, and by bytes past 2^64) written as JSONL, cut and
  `--resume`d, or sharded and `--merge`d, give the same bytes;
- values beyond what Int holds (-2^127 .. 2^127-1) are refused, exit 2,
  naming the option or the field.

Usage: big_ints_test.py DTRCHECK
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
from oracle import record_corpus, simrd_client  # noqa: E402

dtrcheck = sys.argv[1]
TRACE = os.path.join(REPO, 'tests', 'data', 'big_times.log')
RECORDED = os.path.join(REPO, 'corpus', 'oracle', 'local_big_times.jsonl')
failed = 0


def check(ok: bool, what: str, *detail: Any) -> None:
    global failed
    if not ok:
        failed += 1
        print('FAIL', what, *detail)


def run(args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck, *args], capture_output=True, text=True, timeout=300)


def options(c: Dict[str, Any]) -> List[str]:
    """The `dtrcheck run` options of an oracle configuration."""
    out = ['--runtime', c['runtime'], '--heuristic', c['heuristic']]
    for key in ('ratio', 'budget', 'remat_limit', 'seed'):
        if key in c:
            out += ['--' + key.replace('_', '-'), str(c[key])]
    return out + (['--stats'] if c.get('stats') else [])


def simrd_records(configs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    if simrd_client.available():
        print('simrd: live')
        return simrd_client.batch(TRACE, configs)
    print('simrd: not installed; the recorded', os.path.relpath(RECORDED, REPO))
    with open(TRACE, 'rb') as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    recorded = {}
    with open(RECORDED) as f:
        for line in f:
            case = json.loads(line)
            assert case['trace_sha256'] == sha, 'the recorded corpus is of another trace'
            recorded[json.dumps(case['config'], sort_keys=True)] = case['record']
    return [recorded[json.dumps(c, sort_keys=True)] for c in configs]


# Records: every field, not only the parity ones.
configs = [dict(c, stats=True) for c in record_corpus.BIG_INTS] + [
    dict(runtime='RuntimeV2EagerOptimized', heuristic=h, ratio=r, stats=True)
    for h in ('DTR', 'LRU') for r in (0.8, 1.0)]
for c, want in zip(configs, simrd_records(configs)):
    p = run(['run', TRACE, *options(c), '--json'])
    got = json.loads(p.stdout) if p.returncode == 0 else {}
    want = {k: v for k, v in want.items() if k not in ('trace_sha256', 'oracle')}
    check(p.returncode == 0 and got == want, 'record', c, p.stderr,
          [(k, got.get(k), want.get(k)) for k in want if got.get(k) != want.get(k)])
    check(got.get('clock', 0) > 2 ** 64, 'clock past 2^64', c, got.get('clock'))
    # The text summary prints the same exact clock.
    text = run(['run', TRACE, *options(c)]).stdout
    check(f"clock       {got.get('clock')}\n" in text, 'text clock', c, text)

# diff reads simrd's eviction log, clocks past 2^64, exactly; a nlohmann
# double would differ from the first eviction on.
if simrd_client.available():
    p = run(['diff', TRACE, '--ratio', '0.9', '--json'])
    v = json.loads(p.stdout) if p.returncode == 0 else {}
    check(v.get('verdict') == 'identical' and v.get('clock') == 156797324626539748514,
          'diff identical', p.returncode, p.stdout, p.stderr)
    # ... and sends simrd options past 64 bits exactly (the C++ client).
    for args in (['--ratio', '0.95', '--heuristic', 'RandomStorage', '--seed', str(10 ** 30 + 7)],
                 ['--budget', str(2 ** 100), '--remat-limit', str(2 ** 64 + 1)]):
        p = run(['diff', TRACE, *args, '--json'])
        v = json.loads(p.stdout) if p.returncode == 0 else {}
        check(v.get('verdict') == 'identical' and v.get('clock', 0) > 2 ** 64, 'diff', args,
              p.stdout, p.stderr)
    p = run(['diff', TRACE, '--ratio', '0.9', '--perturb-eviction', '8'])
    check(p.returncode == 1 and 'first divergent eviction: #8\n' in p.stdout
          and 'at clock 73786976294842430370' in p.stdout, 'diff perturbed', p.stdout, p.stderr)

# Sweeps: JSONL records past 2^64 written, resumed and merged byte for byte.
with tempfile.TemporaryDirectory() as d:
    for grid in (['--from', '0.85', '--to', '0.95', '--step', '0.05'],
                 ['--bytes', '--from', str(2 ** 64), '--to', str(2 ** 64 + 4), '--step', '2']):
        base = ['sweep', TRACE, *grid, '--format', 'jsonl', '--stats']
        full = os.path.join(d, 'full.jsonl')
        p = run([*base, '-o', full])
        lines = open(full).read().splitlines(keepends=True) if p.returncode == 0 else []
        check(len(lines) == 3, 'sweep', grid, p.stderr)
        records = [json.loads(line) for line in lines]
        check(all(r['clock'] > 2 ** 64 for r in records), 'sweep clocks', grid)
        if '--bytes' in grid:
            check([r['budget'] for r in records] == [2 ** 64, 2 ** 64 + 2, 2 ** 64 + 4],
                  'sweep budgets', [r.get('budget') for r in records])
        part = os.path.join(d, 'part.jsonl')
        open(part, 'w').write(lines[0] if lines else '')
        p = run([*base, '--resume', part, '-o', part])
        check(p.returncode == 0 and open(part).read() == ''.join(lines), 'resume', grid, p.stderr)
        shards = [os.path.join(d, f'shard{i}.jsonl') for i in range(2)]
        for i, shard in enumerate(shards):
            run([*base, '--shard', f'{i}/2', '-o', shard])
        p = run(['sweep', '--merge', *shards, '--format', 'jsonl'])
        check(p.returncode == 0 and p.stdout == ''.join(lines), 'merge', grid, p.stderr)
        # A resumed record edited past what Int holds: refused, file, line, field.
        if lines:
            rec = json.loads(lines[1])
            rec['clock'] = 2 ** 127
            open(part, 'w').write(lines[0] + json.dumps(rec) + '\n')
            p = run([*base, '--resume', part, '-o', os.path.join(d, 'out.jsonl')])
            check(p.returncode == 2 and f'{part}:2: field "clock": the integer {2 ** 127} is '
                  'outside -2^127 .. 2^127-1' in p.stderr, 'resume past Int', p.stderr)

    # A replay case whose configuration is beyond Int: the field is named.
    case = os.path.join(d, 'case.jsonl')
    open(case, 'w').write(json.dumps({'trace': TRACE, 'config': {'budget': -2 ** 127 - 1},
                                      'record': {}}) + '\n')
    p = run(['replay', case])
    check(p.returncode == 2 and f'{case}:1: field "config.budget": the integer '
          f'{-2 ** 127 - 1} is outside' in p.stderr, 'replay past Int', p.stderr)

# Options beyond Int: exit 2, naming the option.
for args, option in [(['--budget', str(2 ** 127)], '--budget'),
                     (['--budget', '1', '--seed', str(-2 ** 127 - 1)], '--seed'),
                     (['--budget', '1', '--remat-limit', '1' + '0' * 60], '--remat-limit'),
                     (['--budget', '-' + '9' * 50], '--budget')]:
    p = run(['run', TRACE, *args, '--json'])
    reason = 'must not be negative' if args[1].startswith('-') else 'Q-INT-RANGE'
    check(p.returncode == 2 and p.stdout == '' and option in p.stderr and reason in p.stderr,
          'option', args, p.returncode, p.stderr)
p = run(['sweep', TRACE, '--bytes', '--from', '0', '--to', str(2 ** 127), '--step', '1'])
check(p.returncode == 2 and '--to' in p.stderr and 'Q-INT-RANGE' in p.stderr, 'sweep --to',
      p.stderr)
# ... and the largest Int is a budget like any other.
p = run(['run', TRACE, '--budget', str(2 ** 127 - 1), '--json'])
check(p.returncode == 0 and json.loads(p.stdout)['budget'] == 2 ** 127 - 1, 'budget 2^127-1',
      p.stderr)

print(f'{len(configs)} records compared; {failed} failed')
sys.exit(1 if failed else 0)
