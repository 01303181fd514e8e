"""simrd's DTR written in Python (dtrcheck.examples.dtr) gives the built-in
DTR's records, field for field but the name, on several traces and budgets;
so do the ports of LRU and RandomStorage (a choose of its own)."""
from __future__ import annotations

import pytest
from conftest import have_trace, without_name

import dtrcheck
from dtrcheck.examples.dtr import PyDTR, PyLRU, PyRandom

CASES = [('resnet32', r, None) for r in (0.1, 0.104, 0.2, 0.5, 0.9)] + [
    ('resnet32', 0.104, 8.0), ('unet', 0.3, None), ('unet', 0.45, 8.0),
    ('transformer', 0.25, None), ('densenet121', 0.3, 2.0), ('lstm', 0.265, None)]


@pytest.mark.parametrize('trace, ratio, limit', CASES)
def test_python_dtr_is_dtr(trace: str, ratio: float, limit: float) -> None:
    if not have_trace(trace):
        pytest.skip(f'{trace} not found')
    builtin = dtrcheck.run(trace, ratio=ratio, overhead_limit=limit)
    port = dtrcheck.run(trace, ratio=ratio, overhead_limit=limit, heuristic=PyDTR)
    assert port.heuristic == 'py.PyDTR'
    assert without_name(port) == without_name(builtin)
    assert builtin.evictions > 0


def test_python_dtr_sweep_any_jobs() -> None:
    if not have_trace('resnet32'):
        pytest.skip('resnet32 not found')
    builtin = dtrcheck.sweep('resnet32', '0.10', '0.15', '0.01', overhead_limit=8)
    port = dtrcheck.sweep('resnet32', '0.10', '0.15', '0.01', overhead_limit=8,
                          heuristic=PyDTR(), jobs=2)
    assert [without_name(r) for r in port] == [without_name(r) for r in builtin]


@pytest.mark.parametrize('policy, builtin_name, seed', [(PyLRU, 'LRU', None),
                                                        (PyRandom, 'RandomStorage', 0),
                                                        (PyRandom, 'RandomStorage', 7)])
def test_other_ports(policy: type, builtin_name: str, seed: int) -> None:
    if not have_trace('resnet32'):
        pytest.skip('resnet32 not found')
    for ratio in (0.2, 0.5):
        builtin = dtrcheck.run('resnet32', ratio=ratio, heuristic=builtin_name, seed=seed)
        port = dtrcheck.run('resnet32', ratio=ratio, heuristic=policy, seed=seed)
        assert without_name(port) == without_name(builtin)
