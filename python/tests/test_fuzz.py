"""python3 -m dtrcheck.fuzz: the pathology fuzzer's check with a Python
policy. Every seed input decodes to a case with the policy; the Python DTR
port's runs on a case's trace are the built-in DTR's, so its findings are
the fuzzer's findings for DTR."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import dtrcheck
from dtrcheck import fuzz
from dtrcheck.examples.dtr import PyDTR

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = os.path.join(ROOT, 'fuzz', 'pathology_fuzzer_seed_corpus')


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'dtrcheck.fuzz', *args], capture_output=True,
                          text=True, env=os.environ)


def test_seed_corpus_with_the_python_dtr() -> None:
    p = run_module('--policy', 'dtrcheck.examples.dtr:PyDTR', '--json', SEEDS)
    assert p.returncode == 0, p.stderr
    checks = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(checks) == len(os.listdir(SEEDS))
    for c in checks:
        assert c['case']['config']['heuristic'] == 'py.PyDTR'
        assert c['points'] and all(r['heuristic'] == 'py.PyDTR' for r in c['points'])


@pytest.mark.parametrize('seed', sorted(os.listdir(SEEDS))[:6])
def test_python_dtr_runs_are_the_builtin_dtr(seed: str, tmp_path: Any) -> None:
    fuzz.select(PyDTR)
    data = open(os.path.join(SEEDS, seed), 'rb').read()
    check = fuzz.check_input(data)
    trace = str(tmp_path / 'case.log')
    dtrcheck._dtrcheck.fuzz_case_trace(data, trace)
    config = check.case['config']
    builtin = dtrcheck.sweep(trace, ratios=[r.ratio for r in check.points if r.ratio is not None],
                             runtime=config['runtime'],
                             overhead_limit=config.get('overhead_limit'))
    for py, ref in zip(check.points, builtin):
        a, b = py.to_dict(), ref.to_dict()
        a.pop('heuristic')
        b.pop('heuristic')
        assert a == b


class Raises(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        raise ValueError('on purpose')


def test_failing_policy_names_itself_and_the_input() -> None:
    p = run_module('--policy', f'{__file__}:Raises', SEEDS)
    assert p.returncode == 1
    assert 'py.Raises' in p.stderr and 'on purpose' in p.stderr
    assert SEEDS in p.stderr


def test_bad_usage() -> None:
    assert run_module('--policy', 'no_such_module:X', SEEDS).returncode == 2
    assert run_module('--policy', 'dtrcheck.examples.dtr:Nope', SEEDS).returncode == 2
    assert run_module('--policy', 'dtrcheck.examples.dtr:PyDTR', '/no/such/dir').returncode == 2
