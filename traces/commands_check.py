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
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def run(args: list[str], env: Optional[dict[str, str]] = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, env=e)


def sha256(path: str) -> str:
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument('--dtrcheck', required=True)
    d = p.parse_args().dtrcheck
    manifest = json.load(open(os.path.join(HERE, 'manifest.json')))
    names = [t['name'] for t in manifest['traces']]

    r = run([d, 'trace-path', 'resnet32'])
    if r.returncode == 0:
        path = r.stdout.strip()
        check(os.path.isabs(path), 'trace-path prints an absolute path')
        want = next(t['sha256'] for t in manifest['traces'] if t['name'] == 'resnet32')
        check(sha256(path) == want, 'the located resnet32 has the manifest SHA-256')
        r = run([d, 'traces'])
        check(r.returncode in (0, 1) and len(r.stdout.splitlines()) == len(names),
              'traces lists every trace')
    else:
        print('skip: resnet32 not available (' + r.stderr.strip() + ')')
    r = run([d, 'trace-path', 'resnet33'])
    check(r.returncode == 2 and ', '.join(names) in r.stderr,
          'an unknown name exits 2 listing the names')
    with tempfile.TemporaryDirectory() as empty:
        r = run([d, 'trace-path', 'unet'], env={'DTRCHECK_TRACES': empty})
        check(r.returncode == 2 and empty in r.stderr and 'fetch_traces.sh' in r.stderr,
              'a DTRCHECK_TRACES without the trace exits 2 naming it')

    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, 'a.log'), os.path.join(tmp, 'b.log')
        gen = [d, 'gen', '--shape', 'lstm', '--seed', '3', '--layers', '5', '--width', '2',
               '--base-bytes', '65536']
        check(run(gen + ['-o', a]).returncode == 0 and run(gen + ['-o', b]).returncode == 0,
              'gen writes traces')
        check(open(a, 'rb').read() == open(b, 'rb').read(), 'gen: same parameters, same bytes')
        r = run([d, 'gen', '--shape', 'moebius', '-o', a])
        check(r.returncode == 2, 'gen rejects an unknown shape with exit 2')

        # Find an inversion on a generated trace with a sweep, then reduce it.
        found: Optional[tuple[str, float, float]] = None
        for seed in range(40):
            trace = os.path.join(tmp, 'g{}.log'.format(seed))
            shape, layers = [('lstm', '6'), ('dag', '36'), ('tree', '4')][seed % 3]
            run([d, 'gen', '--shape', shape, '--seed', str(seed), '--layers', layers,
                 '--width', '2', '--base-bytes', '65536', '-o', trace])
            s = run([d, 'sweep', trace, '--from', '0.05', '--to', '0.95', '--step', '0.02',
                     '--overhead-limit', '8', '-j', '1', '--format', 'jsonl'])
            recs = [json.loads(line) for line in s.stdout.splitlines() if line.strip()]
            last_ok = None
            for rec in recs:
                if rec['status'] == 'ok':
                    last_ok = rec
                elif rec['status'] in ('oom', 'thrashed') and last_ok is not None:
                    found = (trace, last_ok['ratio'], rec['ratio'])
                    break
            if found:
                break
        check(found is not None, 'a generated trace shows an inversion')
        if found:
            trace, lo, hi = found
            outs = []
            for k in range(2):
                out = os.path.join(tmp, 'reduced{}.log'.format(k))
                r = run([d, 'reduce', trace, '--property', 'inversion', '--lo', repr(lo),
                         '--hi', repr(hi), '--overhead-limit', '8', '--no-oracle', '-o', out])
                check(r.returncode == 0,
                      'reduce exits 0 (' + r.stderr.strip().splitlines()[-1] + ')')
                outs.append(out)
            m = json.load(open(outs[0][:-4] + '.manifest.json'))
            check(m['before']['holds'] and m['after']['holds'],
                  'the inversion holds before and after')
            check(m['reduction']['one_minimal'], 'the reduced trace is 1-minimal')
            check(m['output']['operators'] < m['input']['operators'], 'reduce removed operators')
            check(m['output']['sha256'] == sha256(outs[0]),
                  'the manifest has the output SHA-256')
            check(open(outs[0], 'rb').read() == open(outs[1], 'rb').read(),
                  'reduce is deterministic')
            r = run([d, 'reduce', trace, '--property', 'inversion', '--lo', repr(hi),
                     '--hi', '0.99', '-o', os.path.join(tmp, 'x.log')])
            check(r.returncode in (1, 2),
                  'reduce refuses budgets where the property does not hold')
            r = run([d, 'reduce', trace, '--property', 'inversion', '--lo', repr(lo),
                     '--hi', repr(hi), '-o', os.path.join(tmp, 'no', 'such', 'dir.log')])
            check(r.returncode == 2 and 'cannot write' in r.stderr,
                  'an unwritable -o exits 2 before reducing')
    print('{} failure(s)'.format(len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
