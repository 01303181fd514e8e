"""Captures of tiny models (capture/tiny_models.py) and of one zoo model, checked end to end.

    python3 capture/recorder_test.py [--dtrcheck build/bin/dtrcheck]

Runs under an interpreter that can import torch (found like the capture command finds one).
Without one it exits 77 (ctest: skipped), unless DTRCHECK_REQUIRE_TORCH=1 (CI), where it
fails. simrd's part runs when the oracle finds simrd.
"""

import json
import os
import subprocess
import sys
import unittest
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
KINDS = {'ANNOTATE', 'CONSTANT', 'MEMORY', 'CALL', 'ALIAS', 'MUTATE', 'COPY', 'COPY_FROM',
         'RELEASE'}
DTRCHECK = os.path.join(REPO, 'build', 'bin', 'dtrcheck')
SCRATCH = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'dtrcheck-capture-test-{}'.format(
    os.getpid()))


def ensure_torch_or_exit() -> None:
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
        return
    except ImportError:
        pass
    sys.path.insert(0, REPO)  # this script runs as a file: its package is the repository's
    from capture import interpreter
    python = None if os.environ.get('DTRCHECK_CAPTURE_REEXEC') else interpreter.find_torch_python()
    if python:
        env = dict(os.environ, DTRCHECK_CAPTURE_REEXEC='1')
        os.execve(python, [python] + sys.argv, env)
    print(interpreter.INSTALL_HINT, file=sys.stderr)
    sys.exit(1 if os.environ.get('DTRCHECK_REQUIRE_TORCH') == '1' else 77)


def parse_log(text: str) -> List[Dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def run_json(cmd: List[str]) -> Tuple[int, Optional[Dict[str, object]], str]:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return proc.returncode, json.loads(proc.stdout), proc.stderr
    except json.JSONDecodeError:
        return proc.returncode, None, proc.stderr


class CaptureTest(unittest.TestCase):
    captures: Dict[str, object] = {}
    paths: Dict[str, str] = {}

    @classmethod
    def setUpClass(cls) -> None:
        from capture import tiny_models
        from capture.step import capture_step, seed_everything
        os.makedirs(SCRATCH, exist_ok=True)
        for name, build in tiny_models.ALL.items():
            seed_everything(0)
            cls.captures[name] = capture_step(build(3))
            path = os.path.join(SCRATCH, name + '.log')
            with open(path, 'w') as f:
                f.write(cls.captures[name].text)  # type: ignore[attr-defined]
            cls.paths[name] = path

    def lines(self, name: str) -> List[Dict[str, object]]:
        return parse_log(self.captures[name].text)  # type: ignore[attr-defined]

    def test_every_instruction_kind_appears(self) -> None:
        seen = set()
        for c in self.captures.values():
            seen |= set(c.instructions)  # type: ignore[attr-defined]
        self.assertEqual(seen, KINDS)

    def test_each_tiny_model_exercises_its_case(self) -> None:
        def kinds(name: str) -> Dict[str, int]:
            return self.captures[name].instructions  # type: ignore[attr-defined]
        views = self.lines('views')
        # a chain of views: a view whose argument is itself the result of a view
        view_results = {str(ln['NAME']) for ln in views
                        if ln['INSTRUCTION'] == 'ALIAS' and ln['ALIAS'] != '-1'}
        chained = [ln for ln in views if ln['INSTRUCTION'] == 'CALL' and ln['ARGS']
                   and ln['ARGS'][0] in view_results  # type: ignore[index]
                   and ln['NAME'] in ('transpose.int', 'slice.Tensor')]
        self.assertTrue(chained)
        self.assertTrue(any(ln['INSTRUCTION'] == 'CALL' and ln['NAME'] == 'unbind.int' and
                            len(ln['RESULT']) == 3 for ln in views))  # type: ignore[arg-type]
        self.assertGreater(kinds('inplace_sgd').get('MUTATE', 0), 0)
        self.assertGreater(kinds('inplace_sgd').get('COPY_FROM', 0), 0)  # the live view `top`
        multi = self.lines('multi_output')
        tuple_calls = {str(ln['NAME']) for ln in multi
                       if ln['INSTRUCTION'] == 'CALL' and len(ln['RESULT']) > 1}  # type: ignore
        self.assertTrue({'split.Tensor', 'max.dim'} <= tuple_calls, tuple_calls)
        self.assertTrue(any('split' in n for n in tuple_calls - {'split.Tensor'}) or
                        'unbind.int' in tuple_calls, tuple_calls)  # the LSTM's gates
        self.assertGreater(kinds('flat_parameters').get('COPY', 0), 0)
        self.assertGreater(kinds('flat_parameters').get('COPY_FROM', 0), 0)  # p.data = ...
        # shared weights: one CONSTANT per parameter, although the module appears twice (Adam
        # makes more constants later: its step counters)
        shared = self.lines('shared')
        first_call = next(i for i, ln in enumerate(shared) if ln['INSTRUCTION'] == 'CALL')
        self.assertEqual(len([ln for ln in shared[:first_call] if ln['INSTRUCTION'] == 'CONSTANT']),
                         2 + 2)  # weight, bias, input, target
        # the engine sums the three gradients of each shared parameter (2 adds each) before
        # the optimizer's first state tensor
        backward = next(i for i, ln in enumerate(shared) if ln.get('ANNOTATION') == 'BACKWARD')
        adam = next(i for i, ln in enumerate(shared) if ln.get('NAME') == 'zeros_like')
        adds = [ln for ln in shared[backward:adam] if ln.get('NAME') == 'add.Tensor']
        self.assertEqual(len(adds), 4)

    def test_releases_come_when_pytorch_frees(self) -> None:
        log = self.lines('lifetimes')
        # early: the 4096-wide scratch tensor is released before the next operator
        ones = next(i for i, ln in enumerate(log) if ln.get('NAME') == 'ones')
        scratch = log[ones]['RESULT'][0]  # type: ignore[index]
        release = next(i for i, ln in enumerate(log)
                       if ln['INSTRUCTION'] == 'RELEASE' and ln['NAME'] == scratch)
        calls_between = [ln for ln in log[ones + 1:release] if ln['INSTRUCTION'] == 'CALL']
        self.assertEqual([ln['NAME'] for ln in calls_between], ['sum'])
        # late: the tensor stored on the module is never released (simrd pins it at the end)
        detach_results = [ln['RESULT'][0] for ln in log  # type: ignore[index]
                          if ln.get('NAME') == 'detach']
        released = {ln['NAME'] for ln in log if ln['INSTRUCTION'] == 'RELEASE'}
        self.assertTrue(any(r not in released for r in detach_results))

    def test_dtrcheck_and_simrd_run_every_capture_identically(self) -> None:
        # simrd's records, replayed by dtrcheck (`dtrcheck replay`: every field compared)
        configs = [{'runtime': 'RuntimeV2EagerOptimized', 'heuristic': 'DTR', 'ratio': r}
                   for r in [1.0, 0.5]]
        corpus = os.path.join(SCRATCH, 'simrd_records.jsonl')
        with open(corpus, 'w') as out:
            for name, path in self.paths.items():
                proc = subprocess.run(
                    [sys.executable, os.path.join(REPO, 'oracle', 'simrd_oracle.py'), 'batch',
                     path], input=''.join(json.dumps(c) + '\n' for c in configs),
                    capture_output=True, text=True)
                if proc.returncode == 3:
                    self.skipTest('simrd not installed: ' + proc.stderr.strip())
                records = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.strip()]
                self.assertEqual(len(records), len(configs), proc.stderr)
                for c, r in zip(configs, records):
                    self.assertNotIn(r.get('status'), [None, 'error'], (name, r))
                    out.write(json.dumps({'trace': name, 'trace_sha256': r['trace_sha256'],
                                          'trace_file': os.path.basename(path), 'config': c,
                                          'record': r}) + '\n')
        proc = subprocess.run([DTRCHECK, 'replay', corpus], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_baseline_peak_agrees_with_pytorch(self) -> None:
        # simrd's unbounded peak equals the largest sum of live storages PyTorch held at any
        # operator, plus what simrd adds by design: a MUTATE allocates the written storage anew
        # before the old one goes (at most the largest written storage), and a CONSTANT
        # replaced by a MUTATE stays pinned (all mutated constants).
        for name, path in self.paths.items():
            with self.subTest(name=name):
                stats = self.captures[name].stats  # type: ignore[attr-defined]
                rc, rec, err = run_json([DTRCHECK, 'run', path, '--ratio', '1.0', '--json'])
                self.assertEqual(rc, 0, err)
                assert rec is not None
                excess = int(rec['baseline_peak']) - stats.torch_peak_bytes  # type: ignore
                self.assertGreaterEqual(excess, 0)
                self.assertLessEqual(excess,
                                     stats.mutated_constant_bytes + stats.largest_mutated_bytes)
                if self.captures[name].instructions.get('MUTATE', 0) == 0:  # type: ignore
                    self.assertEqual(excess, 0)

    def test_capture_is_byte_identical_run_to_run(self) -> None:
        from capture import tiny_models
        from capture.step import capture_step, seed_everything
        for name in ['multi_output', 'inplace_sgd']:
            seed_everything(0)
            again = capture_step(tiny_models.ALL[name](3)).text
            self.assertEqual(again, self.captures[name].text)  # type: ignore[attr-defined]


class ZooTest(unittest.TestCase):
    """A committed zoo log is reproduced byte for byte, and its peak is PyTorch's."""

    def test_mobilenet_v3_large_recaptures_to_the_committed_log(self) -> None:
        from capture import manifest, zoo
        from capture.step import capture_step, seed_everything
        entry = next(t for t in manifest.read_manifest()['traces']  # type: ignore
                     if t['name'] == 'mobilenet_v3_large')
        seed_everything(entry['seed'])
        c = capture_step(zoo.MODELS['mobilenet_v3_large'].build(entry['batch']))
        self.assertEqual(manifest.sha256(c.text.encode()), entry['sha256'])
        self.assertEqual(c.stats.torch_peak_bytes, entry['torch_peak_bytes'])
        excess = entry['baseline_peak'] - c.stats.torch_peak_bytes
        self.assertGreaterEqual(excess, 0)
        self.assertLessEqual(excess, c.stats.mutated_constant_bytes + c.stats.largest_mutated_bytes)


def main() -> None:
    global DTRCHECK
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == '--dtrcheck':
        DTRCHECK = os.path.abspath(args[1])
        args = args[2:]
    ensure_torch_or_exit()
    if REPO not in sys.path:
        sys.path.insert(0, REPO)
    unittest.main(argv=[sys.argv[0]] + args)


if __name__ == '__main__':
    main()
