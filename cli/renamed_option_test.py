#!/usr/bin/env python3
"""One name per idea (issue 41): the options renamed in this release work
under their new names, their old names still work for one release with a
warning on stderr and are left out of --help (cli/renamed_option.h); the
pathology kinds come from `dtrcheck kinds`, as fuzz/campaign reads them.

    renamed_option_test.py DTRCHECK"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CLIFF = os.path.join(REPO, 'tests', 'data', 'archive', 'cliff', '6b5134e813fbac0a')
FAILED: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        FAILED.append(what)


def run(dtrcheck: str, args: List[str]) -> subprocess.CompletedProcess:
    return subprocess.run([dtrcheck] + args, capture_output=True, text=True, timeout=300)


def warning(command: str, old: str, new: str) -> str:
    return f'dtrcheck {command}: {old} is now {new}; the old name goes in the next release\n'


def help_hides(dtrcheck: str, command: List[str], old: str, new: str) -> None:
    text = run(dtrcheck, command + ['--help']).stdout
    check(re.search(r'(?<![\w-])' + re.escape(old) + r'(?![\w-])', text) is None,
          f'{" ".join(command)} --help does not show {old}')
    check(new in text, f'{" ".join(command)} --help shows {new}')


def reduce_cliff(dtrcheck: str, tmp: str, factor_option: str, factor: str) -> \
        subprocess.CompletedProcess:
    """The archived cliff (overheads 2.05x and 1.00x at ratios 0.894 and
    0.899) reduced again: it holds for a factor of 2, not of 2.1."""
    return run(dtrcheck, ['reduce', os.path.join(CLIFF, 'trace.log'), '--property', 'cliff',
                          '--lo', '0.894', '--hi', '0.899', factor_option, factor,
                          '--no-oracle', '--json', '-o', os.path.join(tmp, 'out.log')])


def main() -> int:
    dtrcheck = sys.argv[1]
    help_hides(dtrcheck, ['reproduce'], '--out', '--output')
    help_hides(dtrcheck, ['reduce'], '--factor', '--cliff-factor')
    help_hides(dtrcheck, ['reduce'], '--factor', '--rise-factor')
    help_hides(dtrcheck, ['fuzz-decode'], '--cliff-gap', '--cliff-delta')

    with tempfile.TemporaryDirectory() as tmp:
        # reduce: --factor sets the cliff factor (and the rise factor).
        for option in ('--cliff-factor', '--factor'):
            holds = reduce_cliff(dtrcheck, tmp, option, '2')
            fails = reduce_cliff(dtrcheck, tmp, option, '2.1')
            renamed = option == '--factor'
            expected = warning('reduce', '--factor', '--cliff-factor and --rise-factor')
            check(holds.returncode == 0 and fails.returncode == 1 and
                  'the cliff property does not hold' in fails.stderr,
                  f'reduce {option} 2 holds, {option} 2.1 does not: exit {holds.returncode}, '
                  f'{fails.returncode}')
            check(holds.stderr.startswith(expected) == renamed and
                  fails.stderr.count(expected) == int(renamed),
                  f'reduce {option}: {"one warning" if renamed else "no warning"}')
            if holds.returncode == 0:
                manifest = json.loads(holds.stdout)
                check(manifest['factor'] == 2 and
                      ' --cliff-factor 2 ' in manifest['commands']['reduce'] and
                      '--factor' not in manifest['commands']['reduce'],
                      f"reduce {option}: the manifest's command names --cliff-factor")

        # reproduce: --out is -o/--output (the directory that cannot be made).
        # (It locates the public traces first: without them, nothing to see.)
        located = run(dtrcheck, ['trace-path', 'resnet32']).returncode == 0
        if not located:
            print('skip reproduce: the public traces are not here (DTRCHECK_TRACES)')
        for option in ('-o', '--output', '--out') if located else ():
            out = run(dtrcheck, ['reproduce', option, '/dev/null/report'])
            renamed = option == '--out'
            check(out.returncode == 2 and '/dev/null/report: cannot create' in out.stderr and
                  (warning('reproduce', '--out', '--output') in out.stderr) == renamed,
                  f'reproduce {option} DIR names DIR (exit {out.returncode}): {out.stderr!r}')

        # fuzz-decode: --cliff-gap is --cliff-delta (the options in its JSON).
        artifact = os.path.join(CLIFF, 'input.bin')
        for option in ('--cliff-delta', '--cliff-gap'):
            out = run(dtrcheck, ['fuzz-decode', artifact, option, '0.02', '--json'])
            renamed = option == '--cliff-gap'
            ok = out.returncode == 0 and json.loads(out.stdout)['options']['cliff_gap'] == 0.02
            check(ok and (warning('fuzz-decode', '--cliff-gap', '--cliff-delta') in out.stderr)
                  == renamed, f'fuzz-decode {option} 0.02 (exit {out.returncode})')

    # The kinds: one list in dtrcheck, the archive's folders, the campaign's.
    out = run(dtrcheck, ['kinds', '--json'])
    kinds = json.loads(out.stdout)['kinds'] if out.returncode == 0 else []
    check(kinds == ['inversion', 'cliff', 'pinned-oom', 'overhead-rise', 'fragmentation-oom'],
          f'dtrcheck kinds --json: {kinds}')
    check(run(dtrcheck, ['kinds']).stdout.split() == kinds, 'dtrcheck kinds: one a line')
    # Every archived finding (corpus/<kind>/<id>/manifest.json) is of a kind
    # listed (corpus/parity/ and corpus/optimal-violation/ hold fuzz-diff's
    # and fuzz-optimal's violations, not pathologies).
    found = set()
    for manifest in glob.glob(os.path.join(REPO, 'corpus', '*', '*', 'manifest.json')):
        with open(manifest) as f:
            kind = json.load(f).get('kind')
        folders = manifest.split(os.sep)
        if kind is not None and 'parity' not in folders and 'optimal-violation' not in folders:
            found.add((os.path.basename(os.path.dirname(os.path.dirname(manifest))), kind))
    check(bool(found) and all(folder == kind and kind in kinds for folder, kind in found),
          f'every archived finding is in the folder of a listed kind: {sorted(found)}')

    print(f'{len(FAILED)} failed' if FAILED else 'all passed')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
