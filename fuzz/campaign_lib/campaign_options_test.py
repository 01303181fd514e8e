#!/usr/bin/env python3
"""The campaign's names are dtrcheck's (issue 41): the pathology kinds are
read from `dtrcheck kinds` (layout.kinds), not spelled again here, and
`--cliff-gap` is `--cliff-delta` as in `dtrcheck scan` and `fuzz-decode`,
the old name still accepted for one release with a warning and left out of
--help.

    python3 fuzz/campaign_lib/campaign_options_test.py --dtrcheck build/bin/dtrcheck
"""
import argparse
import os
import subprocess
import sys
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'fuzz'))
from campaign_lib import cli, layout  # noqa: E402

FAILED: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        FAILED.append(what)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    dtrcheck = ap.parse_args().dtrcheck

    listed = subprocess.run([dtrcheck, 'kinds'], capture_output=True, text=True).stdout.split()
    check(layout.kinds(dtrcheck) == tuple(listed) and 'pinned-oom' in listed,
          f'layout.kinds is `dtrcheck kinds`: {layout.kinds(dtrcheck)}')
    try:
        layout.kinds('/nonexistent/dtrcheck')
        check(False, 'no dtrcheck: an error')
    except RuntimeError as e:
        check('/nonexistent/dtrcheck kinds' in str(e), f'no dtrcheck: an error naming it ({e})')

    args = cli.parse(['triage', '--cliff-delta', '0.03'])
    check(args.cliff_delta == 0.03, 'campaign triage --cliff-delta 0.03')
    old = subprocess.run(
        [sys.executable, '-c', 'import sys; sys.path.insert(0, sys.argv[1]); '
         'from campaign_lib import cli; '
         'print(cli.parse(["triage", "--cliff-gap", "0.04"]).cliff_delta)',
         os.path.join(ROOT, 'fuzz')], capture_output=True, text=True)
    check(old.stdout.strip() == '0.04' and old.stderr ==
          'fuzz/campaign: --cliff-gap is now --cliff-delta; the old name goes in the next '
          'release\n', f'campaign --cliff-gap sets --cliff-delta and warns: {old.stderr!r}')
    for command in ('run', 'triage'):
        usage = subprocess.run([os.path.join(ROOT, 'fuzz', 'campaign'), command, '--help'],
                               capture_output=True, text=True).stdout
        check('--cliff-delta' in usage and '--cliff-gap' not in usage,
              f'campaign {command} --help shows --cliff-delta, not --cliff-gap')

    print(f'{len(FAILED)} failed' if FAILED else 'all passed')
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
