#!/usr/bin/env python3
"""Logs that Python reads as the same log (QUIRKS.md, Q-LINES and Q-INT) give
the same record: line endings (CR only, CRLF), trailing whitespace that
str.rstrip() removes, and numbers written as int() reads them (surrounding
whitespace, '+', underscores, non-ASCII digits, JSON integers, floats that
truncate, booleans). Each variant's `dtrcheck run --json` must equal the
record of the canonical log; where simrd is installed, simrd's record of the
variant must equal it too (parity fields), which shows simrd reads the
variant as the canonical log.

Usage: python_reading_test.py DTRCHECK LOG
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from oracle import simrd_client  # noqa: E402


def numbers(text: str, fmt: Callable[[str, str], str]) -> str:
    """Rewrites every "KEY":"digits" of TIME and MEMORY with fmt(key, digits)."""
    return re.sub(r'"(TIME|MEMORY)":"(\d+)"',
                  lambda m: '"%s":%s' % (m.group(1), fmt(m.group(1), m.group(2))), text)


def arabic(digits: str) -> str:
    return ''.join(chr(0x660 + int(d)) for d in digits)


def alias_floats(text: str) -> str:
    return re.sub(r'"ALIAS":"(-?\d+)"', lambda m: '"ALIAS":' + m.group(1) + '.0', text)


VARIANTS: dict[str, Callable[[str], str]] = {
    'CR line endings': lambda t: t.replace('\n', '\r'),
    'CRLF line endings': lambda t: t.replace('\n', '\r\n'),
    'trailing form feed, \\v, \\x1c, U+3000, U+00A0': lambda t: t.replace(
        '\n', ' \x0c\x0b\x1c\u3000\u00a0\n'),
    'spaces and + around numbers': lambda t: numbers(t, lambda k, d: '" +%s\\t"' % d),
    'underscores in numbers': lambda t: numbers(
        t, lambda k, d: '"%s"' % '_'.join(d) if len(d) > 1 else '"%s"' % d),
    'Arabic-Indic digits': lambda t: numbers(t, lambda k, d: '"%s"' % arabic(d)),
    'JSON integers': lambda t: numbers(t, lambda k, d: d),
    'JSON floats that truncate': lambda t: numbers(t, lambda k, d: d + '.75'),
    'ALIAS as JSON floats': lambda t: alias_floats(t),
}


def run(cmd: list[str]) -> tuple[int, str, str]:
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def main() -> int:
    dtrcheck, log = sys.argv[1], sys.argv[2]
    text = open(log, newline='').read()
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        canon = os.path.join(d, 'canonical.log')
        open(canon, 'w', newline='').write(text)
        code, out, err = run([dtrcheck, 'run', canon, '--ratio', '1', '--json'])
        peak = json.loads(out)['baseline_peak']
        budgets = [str(peak), str(peak * 6 // 10)]
        want = {}
        for b in budgets:
            code, out, err = run([dtrcheck, 'run', canon, '--budget', b, '--json'])
            want[b] = json.loads(out)
        simrd_checked = 0
        with_simrd = simrd_client.available()
        for k, (what, variant) in enumerate(VARIANTS.items()):
            path = os.path.join(d, 'variant%d.log' % k)
            changed = variant(text)
            assert changed != text, what
            open(path, 'w', newline='', encoding='utf-8').write(changed)
            for b in budgets:
                code, out, err = run([dtrcheck, 'run', path, '--budget', b, '--json'])
                got = json.loads(out) if code == 0 else None
                if got != want[b]:
                    failed += 1
                    print('FAIL %s, budget %s: exit %d %s' % (what, b, code, err.strip()))
            if with_simrd:
                # simrd reads the variant; dtrcheck replay compares every
                # parity field of its records with dtrcheck's.
                configs = [{'budget': int(b)} for b in budgets]
                records = simrd_client.batch(path, configs)
                cases = [{'trace': path, 'config': c, 'record': r}
                         for c, r in zip(configs, records)]
                if simrd_client.replay(dtrcheck, cases).returncode != 0:
                    failed += 1
                    print('FAIL %s: simrd reads it differently' % what)
                simrd_checked += len(cases)
    print('%d variants x %d budgets, %d checked against simrd, %d failed'
          % (len(VARIANTS), len(budgets), simrd_checked, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
