#!/usr/bin/env python3
"""Regenerates the fuzzers' seed corpora (committed; run by hand).

trace_parse_fuzzer_seed_corpus/: snippets of the eight public traces (found
with `dtrcheck trace-path`, the traces locator): each trace's first lines
from START, a window around the first line of every instruction kind, and
every kind's first line alone; the small logs of tests/data; and two small
complete synthetic logs (`dtrcheck gen`), which parse and simulate.

pathology_fuzzer_seed_corpus/: fuzz cases (fuzz/lib/fuzz_case.h) of every
shape under the paper's configuration and a few others, with fine grids, each
checked with `dtrcheck fuzz-decode` to show no finding (a seed that aborts
would stop libFuzzer before it starts).

    python3 fuzz/make_seeds.py [--dtrcheck build/bin/dtrcheck]
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from typing import Union

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KINDS = ['CONSTANT', 'MEMORY', 'COPY', 'COPY_FROM', 'RELEASE', 'CALL', 'MUTATE', 'ALIAS',
         'ANNOTATE']


def write_seed(directory: str, data: Union[str, bytes]) -> None:
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()  # libFuzzer's own corpus naming
    with open(os.path.join(directory, name), 'wb') as f:
        f.write(data)


def run_out(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True).stdout


def parse_seeds(dtrcheck: str, out: str) -> None:
    names = [line.split('\t')[0] for line in run_out([dtrcheck, 'traces']).splitlines() if line]
    for name in names:
        path = run_out([dtrcheck, 'trace-path', name]).strip()
        if not path:
            print(f'make_seeds: {name} not found, skipped', file=sys.stderr)
            continue
        with open(path) as f:
            lines = f.read().splitlines()
        start = next((i for i, line in enumerate(lines) if '"START"' in line), 0)
        write_seed(out, '\n'.join(lines[start:start + 60]) + '\n')
        for kind in KINDS:
            tag = f'"INSTRUCTION":"{kind}"'
            at = next((i for i in range(start, len(lines)) if tag in lines[i]), None)
            if at is None:
                continue
            write_seed(out, lines[at] + '\n')
            write_seed(out, '\n'.join(lines[max(start, at - 12):at + 12]) + '\n')
    for log in ('tiny_all_kinds.log', 'small_resnet.log'):
        with open(os.path.join(ROOT, 'tests', 'data', log)) as f:
            lines = f.read().splitlines()
        write_seed(out, '\n'.join(lines[:120]) + '\n')
    with tempfile.TemporaryDirectory() as tmp:
        for shape, layers, width in (('dag', 4, 2), ('chain', 1, 3)):
            path = os.path.join(tmp, shape + '.log')
            subprocess.run([dtrcheck, 'gen', '--shape', shape, '--layers', str(layers),
                            '--width', str(width), '--base-bytes', '4096', '-o', path], check=True)
            with open(path, 'rb') as f:
                write_seed(out, f.read())


def pathology_seeds(dtrcheck: str, out: str) -> None:
    rng = random.Random(20240601)
    shapes = range(6)
    written = 0
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            for variant in range(6):
                # Byte meanings: fuzz/lib/fuzz_case.h. Pair 0 is the paper's
                # (RuntimeV2EagerOptimized, DTR); steps 0-2 are 1-5 thousandths.
                b = bytearray(rng.getrandbits(8) for _ in range(15))
                b[0] = shape
                b[8] = 0 if variant < 4 else b[8]
                b[9] = (0, 5)[variant % 2]  # no overhead limit, or 8
                b[13] = variant % 3
                b[14] = 22  # 24 budgets
                path = os.path.join(tmp, 'case')
                with open(path, 'wb') as f:
                    f.write(b)
                decoded = json.loads(subprocess.run([dtrcheck, 'fuzz-decode', path, '--json'],
                                                    check=True, capture_output=True,
                                                    text=True).stdout)
                if decoded['findings']:
                    continue  # would abort before fuzzing starts
                write_seed(out, bytes(b))
                written += 1
    print(f'make_seeds: {written} pathology seeds', file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dtrcheck', default=os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
    args = ap.parse_args()
    fillers = (('trace_parse_fuzzer', parse_seeds), ('pathology_fuzzer', pathology_seeds))
    for target, fill in fillers:
        out = os.path.join(HERE, target + '_seed_corpus')
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        fill(args.dtrcheck, out)
        print(f'make_seeds: {len(os.listdir(out))} files in {out}', file=sys.stderr)


if __name__ == '__main__':
    main()
