#!/usr/bin/env python3
"""`dtrcheck reduce --property inversion` keeps the failure it started from.

The fuzzer input archived as corpus/inversion/0b46ad16978ff6a9 decodes to a
109-operator DAG on which DTR (RuntimeV2EagerOptimized, overhead limit 3)
is ok at ratio 0.532 and thrashes at 0.533. Reduced with `--failure any`
(the property as it was before 2026-12-04) the 37-operator result runs out
of memory at 0.533 instead: another mechanism. By default (`--failure
same`) every candidate must thrash at hi, the manifest records
"failure": "thrashed", and check-finding replays it; `--failure oom` on a
trace that thrashes is refused before reducing, saying why.

    python3 tests/cli/reduce_failure_test.py build/bin/dtrcheck
"""
import json
import os
import subprocess
import sys
import tempfile
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUT = os.path.join(ROOT, 'tests', 'data', 'archive', 'inversion', '0b46ad16978ff6a9',
                     'input.bin')
ARGS = ['--property', 'inversion', '--lo', '0.532', '--hi', '0.533', '--runtime',
        'RuntimeV2EagerOptimized', '--heuristic', 'DTR', '--baseline-runtime',
        'RuntimeV2EagerOptimized', '--overhead-limit', '3', '--no-oracle']

failures: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def reduce(dtrcheck: str, tmp: str, name: str, extra: List[str]) -> Dict:
    out = os.path.join(tmp, name + '.log')
    p = subprocess.run([dtrcheck, 'reduce', os.path.join(tmp, 'original.log')] + ARGS + extra
                       + ['-o', out], capture_output=True, text=True)
    check(p.returncode == 0, f'{name}: reduce exits 0 ({p.stderr.strip()[-300:]})')
    with open(os.path.join(tmp, name + '.manifest.json')) as f:
        manifest: Dict = json.load(f)
    return manifest


def main() -> int:
    dtrcheck = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([dtrcheck, 'fuzz-decode', INPUT, '-o',
                            os.path.join(tmp, 'original.log')], capture_output=True, text=True)
        check(p.returncode == 0, 'fuzz-decode')

        same = reduce(dtrcheck, tmp, 'same', [])
        check(same.get('failure') == 'thrashed', f'manifest failure: {same.get("failure")}')
        check(same['expected']['hi']['status'] == 'thrashed',
              f'default keeps thrashed: {same["expected"]["hi"]}')
        check(same['expected']['lo']['status'] == 'ok', 'lo stays ok')
        check(same['operators']['after'] < same['operators']['before'], 'reduced')

        anything = reduce(dtrcheck, tmp, 'any', ['--failure', 'any'])
        check('failure' not in anything, '--failure any records no failure')
        check(anything['expected']['hi']['status'] == 'oom',
              f'--failure any drifts to oom: {anything["expected"]["hi"]}')

        p = subprocess.run([dtrcheck, 'reduce', os.path.join(tmp, 'original.log')] + ARGS
                           + ['--failure', 'oom', '-o', os.path.join(tmp, 'oom.log')],
                           capture_output=True, text=True)
        check(p.returncode == 1 and 'not the oom it must end in' in p.stderr,
              f'--failure oom on a thrashing trace: exit {p.returncode}: {p.stderr.strip()}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
