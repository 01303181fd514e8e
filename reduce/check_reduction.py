#!/usr/bin/env python3
"""Reduces a public trace with `dtrcheck reduce` and checks the outcome.

    check_reduction.py --dtrcheck BIN --out DIR [--max-fraction F] -- REDUCE-ARGS...

Runs `BIN reduce REDUCE-ARGS -o DIR/reduced.log` and checks, from
DIR/reduced.manifest.json, that the property held before and holds after,
that the reduction ended 1-minimal, that at most F of the original operators
remain, and, when simrd was available, that simrd confirms the reduced trace.
Prints the counts and the time. Exit 0 if all hold, 1 otherwise, 77 (skip)
if the trace cannot be located.
"""
import argparse
import json
import os
import subprocess
import sys
import time


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument('--dtrcheck', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--max-fraction', type=float, default=0.10)
    p.add_argument('reduce_args', nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = [x for x in a.reduce_args if x != '--']
    trace = args[0]
    if subprocess.run([a.dtrcheck, 'trace-path', trace], capture_output=True).returncode != 0:
        print('check_reduction: trace {} not available; skipped'.format(trace))
        return 77
    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, 'reduced.log')
    start = time.monotonic()
    run = subprocess.run([a.dtrcheck, 'reduce'] + args + ['-o', out], capture_output=True,
                         text=True)
    seconds = time.monotonic() - start
    sys.stdout.write(run.stderr)
    if run.returncode != 0:
        print('FAIL: dtrcheck reduce exited with {}'.format(run.returncode))
        return 1
    m = json.load(open(os.path.join(a.out, 'reduced.manifest.json')))
    before, after = m['input']['operators'], m['output']['operators']
    print('operators {} -> {} ({:.1%}), instructions {} -> {}, {} tests, {:.1f} s'.format(
        before, after, after / before, m['input']['instructions'], m['output']['instructions'],
        m['reduction']['tests'], seconds))
    failures = []
    if not m['before']['holds']:
        failures.append('the property did not hold on the input')
    if not m['after']['holds']:
        failures.append('the property does not hold on the output')
    if not m['reduction']['one_minimal']:
        failures.append('the reduction did not reach a 1-minimal trace')
    if after > a.max_fraction * before:
        failures.append('{} operators remain, more than {:.0%} of {}'.format(
            after, a.max_fraction, before))
    simrd = m['after']['simrd']
    if simrd.get('available'):
        if not simrd.get('confirmed'):
            failures.append('simrd does not confirm the reduced trace: ' + json.dumps(simrd)[:500])
        else:
            print('simrd confirms: ' + ', '.join(r['status'] for r in simrd['records']))
    else:
        print('simrd not available: not confirmed')
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
