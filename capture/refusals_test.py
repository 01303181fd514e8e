"""What the capture command refuses before or instead of writing a log (capture/errors.py):
steps that cannot be captured and outputs that cannot be written, each a CaptureError with
one line naming the cause, and nothing left behind. The command-line side (exit 2, one
line, no .tmp) is tests/hostile/capture_test.py.

    /usr/bin/python3 -m unittest capture.refusals_test   (skipped without torch)
"""

import os
import tempfile
import unittest
from typing import Any

from capture import errors

try:
    import torch
    import torch.nn as nn
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False


class OutputTest(unittest.TestCase):
    """Output checks need no torch."""

    def setUp(self) -> None:
        from capture import __main__ as main
        self.main: Any = main
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def assertRefused(self, f: Any, *needles: str) -> None:
        with self.assertRaises(errors.CaptureError) as cm:
            f()
        text = str(cm.exception)
        self.assertNotIn('\n', text)
        for n in needles:
            self.assertIn(n, text)

    def test_missing_directory(self) -> None:
        path = os.path.join(self.tmp.name, 'missing', 'x.log')
        self.assertRefused(lambda: self.main.check_output(path, '-o'), '-o ' + path,
                           'no such directory')

    def test_directory(self) -> None:
        self.assertRefused(lambda: self.main.check_output(self.tmp.name, '-o'),
                           'is a directory')

    def test_write_leaves_nothing_behind_when_it_fails(self) -> None:
        # Renaming onto a non-empty directory fails after the temporary was written.
        target = os.path.join(self.tmp.name, 'taken')
        os.makedirs(os.path.join(target, 'inside'))
        self.assertRefused(lambda: self.main.write_file(target, 'text', '-o'),
                           '-o ' + target, 'cannot write')
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ['taken'])

    def test_write_replaces_whole(self) -> None:
        path = os.path.join(self.tmp.name, 'x.log')
        self.main.write_file(path, 'one\n', '-o')
        self.main.write_file(path, 'two\n', '-o')
        self.assertEqual(open(path).read(), 'two\n')
        self.assertEqual(os.listdir(self.tmp.name), ['x.log'])


@unittest.skipUnless(HAVE_TORCH, 'needs torch (Debian python3-torch, /usr/bin/python3)')
class StepTest(unittest.TestCase):

    def capture(self, model: Any, loss: Any) -> Any:
        from capture.step import Step, capture_step, check_step
        step = check_step(Step(model, [torch.randn(2, 4)], None, loss), 'f(2)')
        return capture_step(step)

    def assertRefused(self, model: Any, loss: Any, *needles: str) -> None:
        with self.assertRaises(errors.CaptureError) as cm:
            self.capture(model, loss)
        for n in needles:
            self.assertIn(n, str(cm.exception))

    def test_good_step_is_captured(self) -> None:
        c = self.capture(nn.Linear(4, 4), lambda out, t: out.sum())
        self.assertIn('ANNOTATE', c.text)

    def test_no_parameters(self) -> None:
        self.assertRefused(nn.ReLU(), lambda out, t: out.sum(), 'f(2)',
                           'the model has no parameters')

    def test_float_loss(self) -> None:
        self.assertRefused(nn.Linear(4, 4), lambda out, t: float(out.sum()),
                           'the loss function returned float, not a tensor')

    def test_loss_without_grad(self) -> None:
        self.assertRefused(nn.Linear(4, 4), lambda out, t: out.detach().sum(),
                           'does not require grad')

    def test_loss_that_raises(self) -> None:
        def loss(out: Any, t: Any) -> Any:
            raise KeyError('label')
        self.assertRefused(nn.Linear(4, 4), loss, "the loss function raised KeyError: 'label'")

    def test_not_a_step(self) -> None:
        from capture.step import check_step
        with self.assertRaises(errors.CaptureError) as cm:
            check_step(nn.Linear(4, 4), 'f(2)')
        self.assertIn('f(2) returned Linear, not a capture.step.Step', str(cm.exception))


if __name__ == '__main__':
    unittest.main()
