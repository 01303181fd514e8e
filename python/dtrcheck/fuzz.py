"""The pathology fuzzer's check with a policy written in Python.

    python3 -m dtrcheck.fuzz --policy MODULE:CLASS CORPUS_DIR [CORPUS_DIR|FILE ...]

Each input (a file of the pathology fuzzer's corpus, e.g.
fuzz/pathology_fuzzer_seed_corpus, or a crash artifact) decodes as the
fuzzer decodes it (fuzz/lib/fuzz_case.h) into a synthetic trace, a runtime
and a budget grid, with the policy as the heuristic (the runtimes that
accept its features; the decoder picks among the registered policies'
pairs only, as with `fuzz/campaign --plugin`); the grid is swept and checked
for the fuzzer's properties (fuzz/lib/fuzz_check.h: inversions,
pinned-frontier ooms, cliffs, simrd assertions). One line per input and one
per finding; --json prints one JSON object per input instead.

CLASS is a dtrcheck.Heuristic subclass or a heuristic class written for
simrd. Exit status: 0 when every input was checked (findings are what the
fuzzer looks for, not failures, unless --fail-on-finding), 1 if the policy
failed on an input (the error names the policy and the input), 2 for bad
usage.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Iterator, List, Optional

from . import _dtrcheck
from .heuristic import heuristic_name
from .record import FuzzCheck


def load_policy(spec: str) -> type:
    """MODULE:CLASS (a module on sys.path or a .py file) -> the class."""
    module_name, sep, attr = spec.rpartition(':')
    if not sep or not module_name or not attr:
        raise ValueError(f'--policy {spec}: expected MODULE:CLASS')
    if module_name.endswith('.py'):
        sys.path.insert(0, os.path.dirname(os.path.abspath(module_name)))
        module_name = os.path.splitext(os.path.basename(module_name))[0]
    module = importlib.import_module(module_name)
    try:
        return getattr(module, attr)  # type: ignore[no-any-return]
    except AttributeError:
        raise ValueError(f'--policy {spec}: module {module_name} has no {attr}') from None


def inputs(paths: List[str]) -> Iterator[str]:
    """The files given, and those in the directories given (sorted)."""
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                f = os.path.join(p, name)
                if os.path.isfile(f):
                    yield f
        elif os.path.isfile(p):
            yield p
        else:
            raise ValueError(f'{p}: no such file or directory')


def check_input(data: bytes) -> FuzzCheck:
    """The fuzzer's check of one input, with the registered policies."""
    return FuzzCheck.from_dict(json.loads(_dtrcheck.fuzz_check(data)))


def select(policy: type) -> str:
    """Registers the policy and makes the decoder pick its pairs only
    ($DTRCHECK_FUZZ_HEURISTICS, fuzz/lib/fuzz_case.h); returns its name."""
    name = heuristic_name(policy)
    os.environ['DTRCHECK_FUZZ_HEURISTICS'] = name
    return name


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog='python3 -m dtrcheck.fuzz', description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--policy', required=True, metavar='MODULE:CLASS')
    p.add_argument('--json', action='store_true', help='one JSON object per input')
    p.add_argument('--fail-on-finding', action='store_true',
                   help='exit 1 if any input has a finding')
    p.add_argument('corpus', nargs='+', metavar='CORPUS_DIR')
    args = p.parse_args(argv)
    try:
        name = select(load_policy(args.policy))
        files = list(inputs(args.corpus))
    except (ValueError, ImportError, _dtrcheck.Error) as e:
        print(f'dtrcheck.fuzz: {e}', file=sys.stderr)
        return 2
    found = 0
    for f in files:
        with open(f, 'rb') as fh:
            data = fh.read()
        try:
            check = check_input(data)
        except _dtrcheck.Error as e:
            print(f'dtrcheck.fuzz: {f}: {e}', file=sys.stderr)
            return 1
        found += len(check.findings)
        if args.json:
            d = check.to_dict()
            d['input'] = f
            print(json.dumps(d))
            continue
        c = check.case['config']
        statuses = ' '.join(r.status for r in check.points)
        print(f'{os.path.basename(f)}: {c["runtime"]} {len(check.points)} points: {statuses}')
        for finding in check.findings:
            print(f'  {finding.description}')
    if not args.json:
        print(f'dtrcheck.fuzz: {name}: {len(files)} inputs, {found} findings')
    return 1 if args.fail_on_finding and found else 0


if __name__ == '__main__':
    sys.exit(main())
