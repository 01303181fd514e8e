#!/usr/bin/env python3
"""Two dtrcheck builds on one command, run in turn, CPU time of each.

    bench/compare_builds.py [--runs N] BUILD_A BUILD_B -- ARGS...

runs `BUILD_A ARGS` and `BUILD_B ARGS` alternately N times each (default
40) and prints, for each build, the fastest, first-quartile and median CPU
time (user + system of the whole process, from the kernel's accounting of
the child, in microseconds: /usr/bin/time's 10 ms steps hide a 5% change on
a 0.1 s run) and whether every run of both printed the same output. Running
in turn, not one build then the other, matters on a virtual machine whose
speed moves by 20% from minute to minute. Example (bench/RESULTS.md, "Where the speed stands"):

    bench/compare_builds.py OLD/bin/dtrcheck build/bin/dtrcheck -- \\
        run lstm --ratio 0.3 --json
"""
import argparse
import hashlib
import statistics
import subprocess
import sys
from typing import List, Tuple

from cpu_time import run_timed


def cpu_seconds_of(command: List[str]) -> Tuple[float, str]:
    """CPU time of one run of `command` (exits non-zero: error), and the
    SHA-256 of its standard output."""
    code, usage, out = run_timed(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if code != 0:
        sys.exit(f'compare_builds: {" ".join(command)} exited {code}')
    return usage.ru_utime + usage.ru_stime, hashlib.sha256(out).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(
        description='two dtrcheck builds on one command, run in turn: CPU time of each')
    parser.add_argument('--runs', type=int, default=40, help='runs of each build (default 40)')
    parser.add_argument('build_a')
    parser.add_argument('build_b')
    parser.add_argument('args', nargs=argparse.REMAINDER,
                        help='-- then the arguments of the command')
    o = parser.parse_args()
    args = o.args[1:] if o.args[:1] == ['--'] else o.args
    if o.runs < 1 or not args:
        parser.error("needs --runs >= 1 and the command's arguments after --")
    builds = [o.build_a, o.build_b]
    times: List[List[float]] = [[], []]
    outputs = set()
    for i in range(o.runs):
        for k, build in enumerate(builds):
            cpu, digest = cpu_seconds_of([build] + args)
            times[k].append(cpu)
            outputs.add(digest)
        if sys.stderr.isatty():
            print(f'\r{i + 1}/{o.runs}', end='', file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f'command: BUILD {" ".join(args)}; {o.runs} runs of each build, in turn')
    for label, build, t in zip('AB', builds, times):
        t.sort()
        print(f'{label} {build}: fastest {1000 * t[0]:.1f} ms, first quartile '
              f'{1000 * t[len(t) // 4]:.1f} ms, median {1000 * statistics.median(t):.1f} ms CPU')
    print('same output in every run: ' + ('yes' if len(outputs) == 1 else 'NO'))
    return 0 if len(outputs) == 1 else 1


if __name__ == '__main__':
    sys.exit(main())
