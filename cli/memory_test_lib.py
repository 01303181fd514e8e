"""The small trace of the --memory tests (cli/memory_option_test.py,
memory_commands_test.py, census_memory_test.py): x, y1, y2 take 3 KiB of
4 KiB; releasing y1 leaves two 1 KiB holes; y3 (2 KiB) fits in bytes
(2 + 2 of 4 KiB) but in no hole of the arena, and no budget of a few KiB
holds c10's smallest (2 MiB) segment. Also their checks and runs."""
import subprocess
import sys
from typing import List

START = '{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n'


def call(name: str, size: int) -> str:
    return ('{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["%s"],"TIME":"1"}\n'
            '{"INSTRUCTION":"MEMORY","MEMORY":"%d","NAME":"%s"}\n'
            '{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"%s"}\n' % (name, size, name, name))


TRACE = (START + '{"INSTRUCTION":"CONSTANT","NAME":"x"}\n'
         '{"INSTRUCTION":"MEMORY","MEMORY":"1024","NAME":"x"}\n'
         + call('y1', 1024) + call('y2', 1024)
         + '{"INSTRUCTION":"RELEASE","NAME":"y1"}\n' + call('y3', 2048))


class Checks:
    """Counts checks and prints each failure; exit() ends the test."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def __call__(self, ok: bool, what: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print('FAIL', what)

    def exit(self) -> None:
        print(f'{self.passed} passed, {self.failed} failed')
        sys.exit(1 if self.failed else 0)


def dtrcheck_run(dtrcheck: str, args: List[str],
                 timeout: int = 240) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck, *args], capture_output=True, text=True, timeout=timeout)
