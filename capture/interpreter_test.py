"""The capture command finds an interpreter with torch, or says what to install (exit 3)."""

import os
import subprocess
import sys
import tempfile
import unittest

from capture import interpreter

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class InterpreterTest(unittest.TestCase):

    def test_dtrcheck_torch_python_is_the_only_candidate_when_set(self) -> None:
        env = dict(os.environ, DTRCHECK_TORCH_PYTHON='/bin/false')
        old = os.environ.copy()
        os.environ.update(env)
        try:
            self.assertEqual(interpreter.candidates(), ['/bin/false'])
            self.assertIsNone(interpreter.find_torch_python())
        finally:
            os.environ.clear()
            os.environ.update(old)

    def test_without_torch_the_command_says_what_to_install(self) -> None:
        with tempfile.TemporaryDirectory() as shadow:
            # a torch package that cannot be imported hides any real one
            os.makedirs(os.path.join(shadow, 'torch'))
            with open(os.path.join(shadow, 'torch', '__init__.py'), 'w') as f:
                f.write("raise ImportError('hidden by interpreter_test')\n")
            env = dict(os.environ, DTRCHECK_TORCH_PYTHON='/bin/false',
                       PYTHONPATH=shadow + os.pathsep + REPO)
            proc = subprocess.run([sys.executable, '-m', 'capture', 'list'], env=env,
                                  capture_output=True, text=True, cwd=REPO)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn('apt-get install -y python3-torch python3-torchvision', proc.stderr)
        self.assertIn('DTRCHECK_TORCH_PYTHON', proc.stderr)

    def test_the_command_moves_to_an_interpreter_with_torch(self) -> None:
        python = interpreter.find_torch_python() or (sys.executable if
                                                     interpreter.can_import_torch(sys.executable)
                                                     else None)
        if python is None:
            self.skipTest('no interpreter here can import torch')
        env = dict(os.environ, DTRCHECK_TORCH_PYTHON=python, PYTHONPATH=REPO)
        proc = subprocess.run([sys.executable, '-m', 'capture', 'list'], env=env,
                              capture_output=True, text=True, cwd=REPO)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('vit_b_16', proc.stdout)


if __name__ == '__main__':
    unittest.main()
