#!/usr/bin/env python3
"""Hostile option values (issue 45, class 6): every numeric option of every command
given an empty value, NaN, infinities, a negative number, numbers past its type, and
text; and files named by options that do not exist or are truncated. Each is refused
with exit 2 and a message naming the option (or the file and line), never run with a
value CLI11 made up (an empty value read as 0, -1 wrapped to 2^64-1), never a hang.

    options_test.py DTRCHECK"""
import os
import shutil
import subprocess
import sys
import tempfile
from typing import List, Tuple

from verdict import verdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TRACE = os.path.join(REPO, 'tests', 'data', 'small_resnet.log')
FAILED: List[str] = []

# Values no numeric option may take (each option adds the ones its range excludes).
ALWAYS = ['', 'nan', '-nan', 'inf', '-inf', 'abc', '1e400', '1x']
NEGATIVE = ['-1']
PAST_64_BITS = ['18446744073709551616', '-18446744073709551617']
PAST_INT = ['1' + '0' * 40]

# (command and the arguments it needs to get as far as parsing the option, the option,
# the values it must refuse beyond ALWAYS). Every numeric option of every command.
CASES: List[Tuple[List[str], str, List[str]]] = [
    (['run', TRACE, '--ratio', '0.5'], '--budget', NEGATIVE + PAST_INT),
    (['run', TRACE, '--budget', '1000'], '--ratio', NEGATIVE),
    (['run', TRACE, '--ratio', '0.5'], '--remat-limit', NEGATIVE + PAST_INT),
    (['run', TRACE, '--ratio', '0.5'], '--overhead-limit', NEGATIVE + ['0.5']),
    (['run', TRACE, '--ratio', '0.5'], '--seed', PAST_INT),
    (['optimal', TRACE, '--ratio', '0.5'], '--budget', NEGATIVE),
    (['optimal', TRACE, '--ratio', '0.5'], '--time-limit', NEGATIVE + ['0']),
    (['optimal', TRACE, '--ratio', '0.5'], '--seed', PAST_INT),
    (['diagnose', TRACE, '--ratio', '0.5'], '--budget', NEGATIVE),
    (['diff', TRACE, '--ratio', '0.5'], '--perturb-eviction', NEGATIVE + PAST_64_BITS),
    (['sweep', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--jobs',
     NEGATIVE + ['2000']),
    (['sweep', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--shard',
     NEGATIVE + ['0/0', '2/2', '1/' + PAST_64_BITS[0]]),
    (['sweep', TRACE, '--to', '0.5', '--step', '0.1'], '--from', NEGATIVE),
    (['sweep', TRACE, '--from', '0.3', '--step', '0.1'], '--to', NEGATIVE),
    (['sweep', TRACE, '--from', '0.3', '--to', '0.5'], '--step', NEGATIVE),
    (['compare', TRACE, '--at', '0.3'], '--at', NEGATIVE),
    (['scan', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--cliff-factor',
     NEGATIVE),
    (['scan', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--cliff-delta',
     NEGATIVE),
    (['scan', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--cliff-delta-bytes',
     NEGATIVE),
    (['scan', TRACE, '--from', '0.3', '--to', '0.5', '--step', '0.1'], '--rise-factor',
     NEGATIVE),
    (['reduce', TRACE, '--property', 'cliff', '-o', '/nonexistent/x.log'], '--lo-bytes',
     NEGATIVE),
    (['reduce', TRACE, '--property', 'cliff', '-o', '/nonexistent/x.log'], '--hi-bytes',
     NEGATIVE),
    (['reduce', TRACE, '--property', 'cliff', '-o', '/nonexistent/x.log'], '--cliff-factor',
     NEGATIVE),
    (['reduce', TRACE, '--property', 'overhead-rise', '-o', '/nonexistent/x.log'],
     '--rise-factor', NEGATIVE),
    (['reduce', TRACE, '--property', 'cliff', '-o', '/nonexistent/x.log'], '--remat-limit',
     NEGATIVE),
    (['reduce', TRACE, '--property', 'cliff', '-o', '/nonexistent/x.log'], '--seed', PAST_INT),
    (['gen', '--shape', 'chain', '-o', '/dev/null'], '--seed', NEGATIVE + PAST_64_BITS),
    (['gen', '--shape', 'chain', '-o', '/dev/null'], '--layers', NEGATIVE + ['0', '5000']),
    (['gen', '--shape', 'chain', '-o', '/dev/null'], '--width', NEGATIVE + ['17']),
    (['gen', '--shape', 'chain', '-o', '/dev/null'], '--base-bytes', NEGATIVE + ['3']),
    (['fuzz-diff', '--cases', '0'], '--seed', NEGATIVE + PAST_64_BITS),
    (['fuzz-diff'], '--time', NEGATIVE + ['0']),
    (['fuzz-diff'], '--cases', NEGATIVE + PAST_64_BITS),
    (['fuzz-diff'], '--case', NEGATIVE + PAST_64_BITS),
    (['fuzz-diff', '--cases', '0'], '--jobs', NEGATIVE + ['0', '257']),
    (['fuzz-diff', '--cases', '0'], '--configs', NEGATIVE + ['0']),
    (['fuzz-diff', '--cases', '0'], '--max-operators', NEGATIVE + ['0']),
    (['fuzz-diff', '--cases', '0'], '--max-mutations', NEGATIVE + ['65']),
    (['fuzz-diff', '--cases', '0'], '--reduce-time', NEGATIVE + ['0']),
    (['fuzz-diff', '--cases', '0'], '--perturb-eviction', NEGATIVE + PAST_64_BITS),
    (['replay', TRACE], '--jobs', NEGATIVE + ['0']),
    (['census', 'x=y.jsonl'], '--jobs', NEGATIVE + ['2000']),
    (['reproduce'], '--jobs', NEGATIVE + ['2000']),
    (['fuzz-decode', 'x'], '--cliff-factor', NEGATIVE),
    (['fuzz-decode', 'x'], '--cliff-delta', NEGATIVE),
    (['check-finding', 'x'], '--time-limit', NEGATIVE),
    (['archive', 'add', 'x'], '--time-to-find', NEGATIVE),
]


def run(args: List[str], timeout: int = 30) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -999, '', 'TIMEOUT')


def refused(cmd: List[str], needles: List[str], what: str) -> None:
    p = run(cmd)
    if p.returncode != 2 or 'internal error' in p.stderr or \
            not all(n in p.stderr for n in needles):
        FAILED.append(f'{what}: exit {p.returncode}, stderr {p.stderr.strip()[:300]!r}')


def main() -> int:
    dtr = sys.argv[1]
    for base, option, extra in CASES:
        for value in ALWAYS + extra:
            refused([dtr] + base + [option, value], [option],
                    f'{base[0]} {option} {value!r}')

    # The accepted range is named where the type bounds it (not wrapped into it).
    refused([dtr, 'gen', '--shape', 'chain', '-o', '/dev/null', '--seed', '-1'],
            ['--seed', '[0, 18446744073709551615]'], 'gen --seed range')
    refused([dtr, 'fuzz-diff', '--seed', '-1'], ['--seed', '[0, 18446744073709551615]'],
            'fuzz-diff --seed range')
    refused([dtr, 'optimal', TRACE, '--budget', ''], ['--budget', 'expected an integer'],
            'optimal --budget ""')
    refused([dtr, 'run', TRACE, '--ratio', '0.5', '--remat-limit', ''],
            ['--remat-limit', 'expected an integer'], 'run --remat-limit ""')
    refused([dtr, 'fuzz-diff', '--time', 'nan'], ['--time', 'not a number'],
            'fuzz-diff --time nan')

    with tempfile.TemporaryDirectory() as tmp:
        # A replay of nothing checks nothing: refused, not "0 failed".
        refused([dtr, 'fuzz-diff', '--replay', os.path.join(tmp, 'nonexistent')],
                ['--replay', 'no such directory'], 'fuzz-diff --replay missing')
        empty = os.path.join(tmp, 'empty')
        os.mkdir(empty)
        refused([dtr, 'fuzz-diff', '--replay', empty], ['--replay', 'no archived'],
                'fuzz-diff --replay empty')
        # A truncated parity manifest: the file and the line, exit 2.
        corpus = os.path.join(REPO, 'corpus', 'parity')
        entry = sorted(e for e in os.listdir(corpus)
                       if os.path.exists(os.path.join(corpus, e, 'manifest.json')))[0]
        archive = os.path.join(tmp, 'archive')
        shutil.copytree(os.path.join(corpus, entry), os.path.join(archive, entry))
        manifest = os.path.join(archive, entry, 'manifest.json')
        text = open(manifest).read()
        with open(manifest, 'w') as truncated:
            truncated.write(text[:len(text) // 2])
        line = text[:len(text) // 2].count('\n') + 1
        refused([dtr, 'fuzz-diff', '--replay', archive], [f'{manifest}:{line}: not JSON'],
                'truncated parity manifest')

    return verdict(FAILED)


if __name__ == '__main__':
    sys.exit(main())
