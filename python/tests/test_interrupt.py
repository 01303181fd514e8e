"""Ctrl-C during a simulation started from Python raises KeyboardInterrupt
within a moment, whether the simulator or a Python policy is running, and
Python's own SIGINT handler is back afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import need_trace

CHILD = r"""
import signal, sys, time
import dtrcheck
from dtrcheck.examples.dtr import PyDTR

class Slow(dtrcheck.Heuristic):
    def score(self, s, view):
        time.sleep(0.001)
        return view.size(s)

what = sys.argv[1]
print('started', flush=True)
t0 = time.monotonic()
try:
    if what == 'python-policy':
        dtrcheck.run('resnet32', ratio=0.3, heuristic=Slow)
    elif what == 'sweep':
        dtrcheck.sweep('lstm', ratios=[0.25 + i / 1000 for i in range(400)], jobs=2)
    else:
        dtrcheck.scan('lstm', '0.25', '0.65', '0.001', heuristic=PyDTR)
except KeyboardInterrupt:
    print('interrupted after %.2f s' % (time.monotonic() - t0), flush=True)
    # Python's handler is back: a second Ctrl-C interrupts a sleep.
    try:
        print('sleeping', flush=True)
        time.sleep(30)
    except KeyboardInterrupt:
        sys.exit(3)
    sys.exit(4)
sys.exit(5)
"""


@pytest.mark.parametrize('what', ['python-policy', 'sweep', 'scan'])
def test_ctrl_c_raises_keyboard_interrupt(what: str) -> None:
    need_trace('resnet32')
    need_trace('lstm')
    p = subprocess.Popen([sys.executable, '-c', CHILD, what], stdout=subprocess.PIPE, text=True,
                         env=os.environ)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == 'started'
    time.sleep(2.0)  # well into the simulation (the trace parsed, the baseline run)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    line = p.stdout.readline()
    waited = time.monotonic() - sent
    assert line.startswith('interrupted'), line
    assert waited < 2.0, f'KeyboardInterrupt {waited:.2f} s after Ctrl-C'
    assert p.stdout.readline().strip() == 'sleeping'
    time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=10) == 3
