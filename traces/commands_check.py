#!/usr/bin/env python3
"""End-to-end checks of `dtrcheck trace-path`, `traces`, `gen` and `reduce`.

    commands_check.py --dtrcheck build/bin/dtrcheck

Asserts exit codes, messages and outputs: located traces verify against the
manifest, unknown names exit 2 listing the names, a wrong DTRCHECK_TRACES
exits 2, `gen` is deterministic and rejects bad shapes, and `reduce` finds
and keeps an inversion on a generated trace (the budgets come from a sweep of
that trace), writes a 1-minimal trace and its manifest, deterministically.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
failures: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def run(args: List[str],
        env: Optional[Dict[str, str]] = None) -> 'subprocess.CompletedProcess[str]':
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, env=e)


def read_bytes(path: str) -> bytes:
    with open(path, 'rb') as f:
        return f.read()


def sha256(path: str) -> str:
    return hashlib.sha256(read_bytes(path)).hexdigest()


def check_locate(d: str) -> None:
    with open(os.path.join(HERE, 'manifest.json')) as f:
        manifest = json.load(f)
    names = [t['name'] for t in manifest['traces']]
    with open(os.path.join(HERE, 'captured', 'manifest.json')) as f:
        captured = json.load(f)
    captured_names = [t['name'] for t in captured['traces']]

    r = run([d, 'trace-path', 'resnet32'])
    if r.returncode == 0:
        path = r.stdout.strip()
        check(os.path.isabs(path), 'trace-path prints an absolute path')
        want = next(t['sha256'] for t in manifest['traces'] if t['name'] == 'resnet32')
        check(sha256(path) == want, 'the located resnet32 has the manifest SHA-256')
        r = run([d, 'traces'])
        listed = [line.split('\t')[0] for line in r.stdout.splitlines()]
        check(r.returncode in (0, 1) and listed == names + captured_names,
              'traces lists every public and captured trace')
    else:
        print('skip: resnet32 not available (' + r.stderr.strip() + ')')
    r = run([d, 'trace-path', 'resnet33'])
    check(r.returncode == 2 and ', '.join(names) in r.stderr
          and ', '.join(captured_names) in r.stderr,
          'an unknown name exits 2 listing the names')
    with tempfile.TemporaryDirectory() as cache:
        r = run([d, 'trace-path', captured_names[0]], env={'XDG_CACHE_HOME': cache})
        path = r.stdout.strip()
        want = captured['traces'][0]['sha256']
        check(r.returncode == 0 and path.startswith(cache) and sha256(path) == want,
              'trace-path decompresses a captured trace into the cache, verified')
    with tempfile.TemporaryDirectory() as empty:
        r = run([d, 'trace-path', 'unet'], env={'DTRCHECK_TRACES': empty})
        check(r.returncode == 2 and empty in r.stderr and 'fetch_traces.sh' in r.stderr,
              'a DTRCHECK_TRACES without the trace exits 2 naming it')


def check_gen(d: str, tmp: str) -> None:
    a, b = os.path.join(tmp, 'a.log'), os.path.join(tmp, 'b.log')
    gen = [d, 'gen', '--shape', 'lstm', '--seed', '3', '--layers', '5', '--width', '2',
           '--base-bytes', '65536']
    check(run(gen + ['-o', a]).returncode == 0 and run(gen + ['-o', b]).returncode == 0,
          'gen writes traces')
    check(read_bytes(a) == read_bytes(b), 'gen: same parameters, same bytes')
    r = run([d, 'gen', '--shape', 'moebius', '-o', a])
    check(r.returncode == 2, 'gen rejects an unknown shape with exit 2')


def find_inversion(d: str, tmp: str) -> Optional[Tuple[str, float, float]]:
    """A generated trace with an inversion, found by a sweep: (trace, lo, hi)."""
    for seed in range(40):
        trace = os.path.join(tmp, 'g{}.log'.format(seed))
        shape, layers = [('lstm', '6'), ('dag', '36'), ('tree', '4')][seed % 3]
        run([d, 'gen', '--shape', shape, '--seed', str(seed), '--layers', layers, '--width', '2',
             '--base-bytes', '65536', '-o', trace])
        s = run([d, 'sweep', trace, '--from', '0.05', '--to', '0.95', '--step', '0.02',
                 '--overhead-limit', '8', '-j', '1', '--format', 'jsonl'])
        recs = [json.loads(line) for line in s.stdout.splitlines() if line.strip()]
        last_ok: Optional[Dict[str, Any]] = None
        for rec in recs:
            if rec['status'] == 'ok':
                last_ok = rec
            elif rec['status'] in ('oom', 'thrashed') and last_ok is not None:
                return trace, last_ok['ratio'], rec['ratio']
    return None


def check_reduce(d: str, tmp: str) -> None:
    found = find_inversion(d, tmp)
    check(found is not None, 'a generated trace shows an inversion')
    if not found:
        return
    trace, lo, hi = found
    budgets = ['--lo', repr(lo), '--hi', repr(hi)]
    outs = []
    for k in range(2):
        out = os.path.join(tmp, 'reduced{}.log'.format(k))
        r = run([d, 'reduce', trace, '--property', 'inversion'] + budgets +
                ['--overhead-limit', '8', '--no-oracle', '-o', out])
        check(r.returncode == 0, 'reduce exits 0 (' + r.stderr.strip().splitlines()[-1] + ')')
        outs.append(out)
    with open(outs[0][:-4] + '.manifest.json') as f:
        m = json.load(f)
    check(m['before']['holds'] and m['holds'], 'the inversion holds before and after')
    check(m['reduction']['one_minimal'], 'the reduced trace is 1-minimal')
    check(m['operators']['after'] < m['operators']['before'], 'reduce removed operators')
    check(m['trace_sha256'] == sha256(outs[0]) and m['trace'] == 'reduced0.log',
          'the manifest names the output and its SHA-256')
    check(m['simrd_status'] == 'not confirmed by simrd'
          and m['simrd']['reason'] == '--no-oracle', 'reduce --no-oracle does not confirm')
    check(read_bytes(outs[0]) == read_bytes(outs[1]), 'reduce is deterministic')
    r = run([d, 'reduce', trace, '--property', 'inversion', '--lo', repr(hi), '--hi', '0.99',
             '-o', os.path.join(tmp, 'x.log')])
    check(r.returncode in (1, 2), 'reduce refuses budgets where the property does not hold')
    r = run([d, 'reduce', trace, '--property', 'inversion'] + budgets +
            ['-o', os.path.join(tmp, 'no', 'such', 'dir.log')])
    check(r.returncode == 2 and 'cannot write' in r.stderr,
          'an unwritable -o exits 2 before reducing')


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument('--dtrcheck', required=True)
    d = p.parse_args().dtrcheck
    check_locate(d)
    with tempfile.TemporaryDirectory() as tmp:
        check_gen(d, tmp)
        check_reduce(d, tmp)
    print('{} failure(s)'.format(len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
