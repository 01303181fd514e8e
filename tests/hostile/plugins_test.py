#!/usr/bin/env python3
"""Hostile plugins (issue 45, class 5): API misuse, exceptions of any type, entry points
that are not functions, crashes. Each gets one message naming the plugin and the
heuristic (exit 2), or, for a crash, a message naming them before the process dies of
the signal; never a hang, a silent crash, an earlier output lost or a temporary left.

    plugins_test.py DTRCHECK MISUSE.so DATA_ENTRY.so DATA_REGISTER.so REGISTER_THROWS.so
                    ABI_THROWS.so SEGV_IN_REGISTER.so

The plugins are tests/hostile/plugins/*.cc, built by CMake in that order."""
import os
import signal
import subprocess
import sys
import tempfile
from typing import List

from verdict import verdict

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = os.path.join(HERE, '..', 'data', 'small_resnet.log')
FAILED: List[str] = []


def run(args: List[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -999, '', 'TIMEOUT after 60 s')


def check(ok: bool, what: str, p: subprocess.CompletedProcess) -> None:
    if not ok:
        FAILED.append(f'{what}: exit {p.returncode}, stderr {p.stderr[-600:]!r}')


def refused(dtr: str, plugin: str, heuristic: str, needles: List[str]) -> None:
    """`run` with HEURISTIC from PLUGIN: exit 2, one error line naming plugin, heuristic
    and each needle."""
    p = run([dtr, 'run', TRACE, '--ratio', '0.3', '--plugin', plugin, '--heuristic', heuristic])
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and f'plugin {plugin}' in p.stderr
          and f'heuristic {heuristic}' in p.stderr and 'internal error' not in p.stderr
          and all(n in p.stderr for n in needles), f'{heuristic} {needles}', p)


def crashed(dtr: str, args: List[str], sig: int, needles: List[str], what: str) -> None:
    p = run([dtr] + args)
    check(p.returncode == -sig and all(n in p.stderr for n in needles), what, p)


def main() -> int:
    dtr, misuse, data_entry, data_register, register_throws, abi_throws, segv_register = \
        sys.argv[1:8]
    run_args = [dtr, 'run', TRACE, '--ratio', '0.3', '--plugin', misuse]
    # The control: the plugin loads and its plain heuristic runs.
    p = run(run_args + ['--heuristic', 'SizeScore'])
    check(p.returncode == 0 and 'SizeScore' in p.stdout, 'control run', p)

    # Every View call checks its arguments (each was a hang or a segfault).
    refused(dtr, misuse, 'RandBelowZero', ['Choose threw', 'RandBelow(0)', 'empty range'])
    refused(dtr, misuse, 'RandBelowNegative', ['RandBelow(-5)', 'empty range'])
    refused(dtr, misuse, 'PoolNthPastEnd', ['Choose threw', 'View::PoolNth(', 'past the pool'])
    refused(dtr, misuse, 'PoolSlotPastEnd', ['View::PoolSlot(', 'past the pool'])
    refused(dtr, misuse, 'BadHandle', ['Score threw', 'View::Size(1099511627776)',
                                       'no storage'])
    refused(dtr, misuse, 'DivideByZero', ['Score threw', 'division by zero'])
    # Exceptions of any type, from any of the plugin's functions.
    refused(dtr, misuse, 'ScoreThrowsInt', ['Score threw a non-standard exception'])
    refused(dtr, misuse, 'ChooseThrowsString', ['Choose threw a non-standard exception'])
    refused(dtr, misuse, 'FactoryThrowsInt', ['factory threw a non-standard exception'])
    refused(dtr, misuse, 'FactoryThrowsStd', ['factory threw: no model file'])

    # Libraries that are not plugins, or whose entry points fail: refused before or
    # while calling them, never a segfault.
    def load_refused(plugin: str, needles: List[str], what: str) -> None:
        p = run([dtr, 'run', TRACE, '--ratio', '0.3', '--plugin', plugin])
        check(p.returncode == 2 and f'plugin {plugin}' in p.stderr
              and all(n in p.stderr for n in needles), what, p)
    load_refused(data_entry, ['dtrcheck_plugin_abi_version is not a function'], 'data abi')
    load_refused(data_register, ['dtrcheck_plugin_register is not a function'], 'data register')
    load_refused(register_throws, ['registration threw a non-standard exception'],
                 'registration throws')
    load_refused(abi_throws, ['dtrcheck_plugin_abi_version threw'], 'abi throws')

    # Crashes: the process dies of the signal (as before), having said where it was.
    crash_needles = [f'plugin {misuse}', 'heuristic SegvInScore', 'Score', 'SIGSEGV']
    crashed(dtr, ['run', TRACE, '--ratio', '0.3', '--plugin', misuse, '--heuristic',
                  'SegvInScore'], signal.SIGSEGV, crash_needles, 'segfault in Score')
    crashed(dtr, ['run', TRACE, '--ratio', '0.3', '--plugin', misuse, '--heuristic',
                  'StackOverflowInChoose'], signal.SIGSEGV,
            ['heuristic StackOverflowInChoose', 'Choose', 'SIGSEGV'], 'stack overflow in Choose')
    crashed(dtr, ['run', TRACE, '--ratio', '0.3', '--plugin', misuse, '--heuristic',
                  'AbortInScore'], signal.SIGABRT, ['heuristic AbortInScore', 'SIGABRT'],
            'abort in Score')
    crashed(dtr, ['run', TRACE, '--ratio', '0.3', '--plugin', misuse, '--heuristic',
                  'AbortInDestructor'], signal.SIGABRT,
            ['heuristic AbortInDestructor', 'its destructor', 'SIGABRT'], 'abort in destructor')
    crashed(dtr, ['run', TRACE, '--ratio', '0.3', '--plugin', segv_register], signal.SIGSEGV,
            [f'plugin {segv_register}', 'dtrcheck_plugin_register', 'SIGSEGV'],
            'segfault in registration')
    # ... also from a sweep's worker threads (each has its own alternate stack), and an
    # earlier sweep's finished output is untouched.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'points.jsonl')
        grid = ['--from', '0.3', '--to', '0.5', '--step', '0.1', '-j', '2', '--format', 'jsonl']
        p = run([dtr, 'sweep', TRACE, '--plugin', misuse, '--heuristic', 'SizeScore', '-o',
                 out] + grid)
        check(p.returncode == 0, 'sweep control', p)
        before = open(out).read() if os.path.exists(out) else ''
        check(before.count('\n') == 3, 'sweep control output', p)
        crashed(dtr, ['sweep', TRACE, '--plugin', misuse, '--heuristic', 'SegvInScore', '-o',
                      out] + grid, signal.SIGSEGV, crash_needles, 'segfault in a sweep')
        after = open(out).read() if os.path.exists(out) else ''
        if after != before:
            FAILED.append('a crashed sweep changed the earlier output')
        # ... and leaves nothing beside it: no temporary (.points.jsonl.*.tmp,
        # empty when the crash came before any point), no points.jsonl.partial.
        beside = sorted(os.listdir(tmp))
        if beside != ['points.jsonl']:
            FAILED.append(f'a crashed sweep left files beside its output: {beside}')
    return verdict(FAILED)


if __name__ == '__main__':
    sys.exit(main())
