#!/usr/bin/env python3
"""Hostile resources (issue 45): a command that runs out of memory says so
in one line and exits 4 (docs/commands.md, "Exit codes"), whatever
allocation failed: not "internal error: std::bad_alloc", exit 1, which
reads as a bug, nor a crash.

A chain of 100,000 operators (bench/make_long_chain.py, 24 MB) is read
whole under an address-space limit that leaves room for the log but not
for the run (`run`, and `sweep` on two worker threads, whose failed
allocation comes back to the main thread).

    resources_test.py DTRCHECK SOURCE_DIR
"""
import os
import resource
import subprocess
import sys
import tempfile

from hostile import check, finish, run

dtrcheck, source = sys.argv[1], sys.argv[2]
LIMIT = 80 << 20  # bytes of address space: the log fits, the run does not (98 MB RSS)


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def out_of_memory(name: str, args: list) -> None:
    try:
        r = run(args, preexec_fn=capped)
    except subprocess.TimeoutExpired:
        check(name, False, 'timed out')
        return
    lines = r.stderr.strip().splitlines()
    command = args[1]
    check(name, r.returncode == 4 and len(lines) == 1
          and lines[0].startswith(f'dtrcheck {command}: out of memory'),
          f'exit {r.returncode}, stderr: {r.stderr.strip()[:600]}')


with tempfile.TemporaryDirectory() as tmp:
    chain = os.path.join(tmp, 'chain.log')
    subprocess.run([sys.executable, os.path.join(source, 'bench', 'make_long_chain.py'),
                    '100000', '-o', chain], check=True)
    # The control: without the limit, the run finishes.
    r = run([dtrcheck, 'run', chain, '--ratio', '0.5'], timeout=300)
    check('control: the chain runs without a limit', r.returncode == 0, r.stderr[-600:])
    out_of_memory('run under a memory limit', [dtrcheck, 'run', chain, '--ratio', '0.5'])
    out_of_memory('sweep on two threads under a memory limit',
                  [dtrcheck, 'sweep', chain, '--from', '0.5', '--to', '0.9', '--step', '0.1',
                   '-j', '2', '-o', os.path.join(tmp, 'points.jsonl')])
    check('no output left by the failed sweep', sorted(os.listdir(tmp)) == ['chain.log'],
          str(sorted(os.listdir(tmp))))

sys.exit(finish())
