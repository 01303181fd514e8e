#!/usr/bin/env python3
"""Parity of `dtrcheck diagnose --json` with simrd (simrd_diagnose.py).

For each configuration below, every field simrd_diagnose.py observes in
simrd must equal dtrcheck's. Exit 0 when all agree, 1 on a difference,
77 (skipped) when the traces or simrd are not there.

    PYTHONPATH=. python3 tests/sweep/diagnose_parity.py --dtrcheck BIN --traces DIR
"""
import argparse
import json
import os
import subprocess
import sys
from typing import Any, List, Tuple

from oracle import simrd_client

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RESNET = 'resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log'
UNET = 'unet-6-8000000000.0-2020-10-1-10-57-18-default.log'
# (trace, ratio, overhead limit): the published ResNet-32 points around the
# inversion, and two UNet budgets (an oom and an ok run).
CASES = [(RESNET, 0.101, 8), (RESNET, 0.104, 8), (RESNET, 0.107, 8),
         (UNET, 0.3, 8), (UNET, 0.6, 8)]


def differences(want: Any, got: Any) -> List[Tuple[str, Any, Any]]:
    diffs = []
    for k in ('status', 'max_locked_bytes', 'max_locked_clock'):
        if want[k] != got[k]:
            diffs.append((k, want[k], got[k]))
    if (want['oom'] is None) != (got['oom'] is None):
        diffs.append(('oom', want['oom'], got['oom']))
    elif want['oom'] is not None:
        for k, v in want['oom'].items():
            if got['oom'].get(k) != v:
                diffs.append(('oom.' + k, v, got['oom'].get(k)))
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    ap.add_argument('--traces', required=True)
    a = ap.parse_args()
    if not simrd_client.available():
        print('skip:', simrd_client.unavailable_reason())
        return 77
    # simrd_diagnose.py imports the client as this script does.
    env = dict(os.environ, PYTHONPATH=REPO)
    bad = 0
    for trace, ratio, limit in CASES:
        path = os.path.join(a.traces, trace)
        if not os.path.exists(path):
            print('skip: no', path)
            return 77
        args = ['--ratio', str(ratio), '--overhead-limit', str(limit)]
        oracle = subprocess.run([sys.executable, os.path.join(HERE, 'simrd_diagnose.py'), path]
                                + args, capture_output=True, text=True, env=env)
        if oracle.returncode != 0:
            print('simrd_diagnose.py failed:', oracle.stderr[-2000:])
            return 1
        want = json.loads(oracle.stdout)
        got = json.loads(subprocess.run([a.dtrcheck, 'diagnose', path, '--json'] + args,
                                        check=True, capture_output=True, text=True).stdout)
        got['status'] = got['record']['status']
        diffs = differences(want, got)
        print(trace.split('-')[0], ratio, 'ok' if not diffs else 'DIFF %s' % diffs)
        bad += bool(diffs)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
