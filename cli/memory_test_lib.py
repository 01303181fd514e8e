"""What the `--memory` tests of cli/ share: the trace whose bytes fit where
the allocators do not, a tally of checks, and the refusals of a bad memory
option (one line on stderr, nothing on stdout, exit code 2)."""
import os
import subprocess
from typing import List

START = '{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n'


def call(name: str, size: int) -> str:
    """A call of f(x) making `name`, a storage of `size` bytes."""
    return ('{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["%s"],"TIME":"1"}\n'
            '{"INSTRUCTION":"MEMORY","MEMORY":"%d","NAME":"%s"}\n'
            '{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"%s"}\n' % (name, size, name, name))


# x, y1, y2 take 3 KiB of 4 KiB; releasing y1 leaves two 1 KiB holes; y3
# (2 KiB) fits in bytes (2 + 2 of 4 KiB) but in no hole of the arena, and
# the caching allocator's smallest segment (2 MiB) fits no 4-8 KiB device.
HOLES_TRACE = (START + '{"INSTRUCTION":"CONSTANT","NAME":"x"}\n'
               '{"INSTRUCTION":"MEMORY","MEMORY":"1024","NAME":"x"}\n'
               + call('y1', 1024) + call('y2', 1024)
               + '{"INSTRUCTION":"RELEASE","NAME":"y1"}\n' + call('y3', 2048))

# Options every simulating command refuses, and a part of each message.
BAD_MEMORY_OPTIONS = [(['--memory', 'heap'], '--memory: unknown memory model "heap"'),
                      (['--max-split-size-mb', '40'], '--max-split-size-mb: belongs'),
                      (['--memory', 'arena', '--expandable-segments'],
                       '--expandable-segments: belongs')]


def write_holes_trace(directory: str) -> str:
    """HOLES_TRACE as DIRECTORY/holes.log; its path."""
    path = os.path.join(directory, 'holes.log')
    with open(path, 'w') as f:
        f.write(HOLES_TRACE)
    return path


class Checks:
    """Counts checks; prints each failure as it happens."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print('FAIL', what)

    def refused(self, p: 'subprocess.CompletedProcess[str]', message: str, what: str) -> None:
        """A bad option: exit 2, nothing on stdout, one line naming it."""
        self.check(p.returncode == 2 and p.stdout == '' and message in p.stderr
                   and len(p.stderr.strip().splitlines()) == 1,
                   f'{what}: {p.returncode} {p.stderr}')

    def exit_code(self) -> int:
        print(f'{self.passed} passed, {self.failed} failed')
        return 1 if self.failed else 0


def run_dtrcheck(dtrcheck: str, args: List[str],
                 timeout: int = 120) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck, *args], capture_output=True, text=True, timeout=timeout)
