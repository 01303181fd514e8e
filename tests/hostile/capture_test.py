#!/usr/bin/env python3
"""The capture tool given hostile steps and outputs (issue 45, class 8): a factory or a
forward that raises, a model without parameters, a loss that is a float or not a scalar,
a step that is not a Step, a module that does not import, -o in a missing directory or
naming a directory. Each: exit 2, one line on stderr naming the cause (no traceback),
and nothing left behind (no log, no .tmp).

    /usr/bin/python3 tests/hostile/capture_test.py

Needs torch (Debian's python3-torch); exits 77 (skipped) without it, unless
DTRCHECK_REQUIRE_TORCH=1."""
import os
import subprocess
import sys
import tempfile
from typing import List

from verdict import verdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FAILED: List[str] = []


def have_torch() -> bool:
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
        return True
    except ImportError:
        return False


def capture(args: List[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + HERE, DTRCHECK_CAPTURE_REEXEC='1')
    return subprocess.run([sys.executable, '-m', 'capture'] + args, capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=300)


def refused(args: List[str], needles: List[str], tmp: str, what: str) -> None:
    before = sorted(os.listdir(tmp))
    p = capture(args)
    lines = p.stderr.strip().splitlines()
    after = sorted(os.listdir(tmp))
    if p.returncode != 2 or len(lines) != 1 or 'Traceback' in p.stderr or \
            not all(n in p.stderr for n in needles):
        FAILED.append(f'{what}: exit {p.returncode}, stderr {p.stderr.strip()[-800:]!r}')
    if after != before:
        FAILED.append(f'{what}: left behind {sorted(set(after) - set(before))}')


def main() -> int:
    if not have_torch():
        print('no torch in ' + sys.executable + ': skipped')
        return 1 if os.environ.get('DTRCHECK_REQUIRE_TORCH') == '1' else 77
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.log')
        no_baseline = ['--dtrcheck', os.path.join(tmp, 'no-dtrcheck')]

        def module(name: str) -> List[str]:
            return ['module', 'capture_steps:' + name, '-o', out] + no_baseline

        # The control: the same kind of step, well made, is captured.
        p = capture(module('good'))
        if p.returncode != 0 or not os.path.exists(out):
            FAILED.append(f'control: exit {p.returncode}, {p.stderr[-800:]!r}')
        if os.path.exists(out):
            os.remove(out)

        refused(module('factory_raises'),
                ['capture_steps:factory_raises(1) raised RuntimeError: cannot download'], tmp,
                'factory raises')
        refused(module('forward_raises'),
                ["the model's forward raised ValueError: shapes do not match"], tmp,
                'forward raises')
        refused(module('no_parameters'), ['the model has no parameters'], tmp, 'no parameters')
        refused(module('float_loss'), ['the loss function returned float, not a tensor'], tmp,
                'float loss')
        refused(module('vector_loss'), ['not a scalar'], tmp, 'vector loss')
        refused(module('not_a_step'), ['returned Linear, not a capture.step.Step'], tmp,
                'not a Step')
        refused(['module', 'no_such_module_here:f', '-o', out], ['cannot load',
                                                                 'ModuleNotFoundError'],
                tmp, 'module does not import')
        missing = os.path.join(tmp, 'missing', 'out.log')
        refused(['module', 'capture_steps:good', '-o', missing] + no_baseline,
                ['-o ' + missing, 'no such directory'], tmp, '-o in a missing directory')
        refused(['module', 'capture_steps:good', '-o', tmp] + no_baseline,
                ['-o ' + tmp, 'is a directory'], tmp, '-o a directory')
        refused(['module', 'capture_steps:good', '-o', out, '--summary',
                 os.path.join(tmp, 'missing', 's.json')] + no_baseline,
                ['--summary', 'no such directory'], tmp, '--summary in a missing directory')
    return verdict(FAILED)


if __name__ == '__main__':
    sys.exit(main())
