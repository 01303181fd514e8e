#!/usr/bin/env python3
"""Writes a long forward chain in simrd's log format, for bench_long_chain.sh.

The trace of issue 45 (class 3): one constant, then N operators, each a CALL
on the previous activation that returns the next one; each activation is
released 64 operators after it was made (those still bound at the end, all
but the last activation, are released then).
Sizes and times vary deterministically with the operator's index (no random
state), so a given N always gives the same bytes:

    python3 bench/make_long_chain.py 1000000 -o /tmp/chain-1000000.log
"""

import argparse
import sys
from typing import TextIO

LAG = 64  # operators between an activation and its release


def size_of(i: int) -> int:
    # 4 KiB to 32 KiB, multiples of 4 KiB.
    return 4096 * (1 + (i * 7919) % 8)


def time_of(i: int) -> int:
    return 1000 + (i * 104729) % 9000


def write_chain(n: int, out: TextIO) -> None:
    w = out.write
    w('{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n')
    w('{"INSTRUCTION":"CONSTANT","NAME":"x0"}\n')
    w('{"INSTRUCTION":"MEMORY","MEMORY":"%d","NAME":"x0"}\n' % size_of(0))
    for i in range(1, n + 1):
        w('{"ARGS":["x%d"],"INSTRUCTION":"CALL","NAME":"op",'
          '"RESULT":["x%d"],"TIME":"%d"}\n' % (i - 1, i, time_of(i)))
        w('{"INSTRUCTION":"MEMORY","MEMORY":"%d","NAME":"x%d"}\n' % (size_of(i), i))
        w('{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x%d"}\n' % i)
        if i >= LAG:
            w('{"INSTRUCTION":"RELEASE","NAME":"x%d"}\n' % (i - LAG))
    # The step's end pins what is still bound: all but the last activation
    # are released first, so that the run can end within the budget.
    for i in range(max(0, n - LAG + 1), n):
        w('{"INSTRUCTION":"RELEASE","NAME":"x%d"}\n' % i)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('operators', type=int, help='number of operators (at least 1)')
    parser.add_argument('-o', '--output', required=True, help='the log to write')
    args = parser.parse_args()
    if args.operators < 1:
        parser.error('operators must be at least 1')
    with open(args.output, 'w', encoding='ascii', buffering=1 << 20) as out:
        write_chain(args.operators, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
