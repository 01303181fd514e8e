"""OneFlow's DTE and Coop written in Python (dtrcheck.examples.oneflow,
through the View's pieces and, for Coop, a window of victims from choose)
give the built-ins' records (policies/oneflow_remat.cc), field for field
but the name, under both allocator models on resnet32: runs that evict,
run out of memory, and a sweep on 2 threads."""
from __future__ import annotations

from typing import Type

import pytest
from conftest import need_trace, without_name

import dtrcheck
from dtrcheck.examples.oneflow import PyCoop, PyDTE

MEMORIES = ['arena', 'cuda-caching']
RATIOS = [0.15, 0.2, 0.3, 0.5]


@pytest.mark.parametrize('memory', MEMORIES)
@pytest.mark.parametrize('policy, builtin_name', [(PyDTE, 'DTE'), (PyCoop, 'Coop')])
def test_port_is_the_builtin(policy: Type[dtrcheck.Heuristic], builtin_name: str,
                             memory: str) -> None:
    need_trace('resnet32')
    statuses = set()
    for ratio in RATIOS:
        builtin = dtrcheck.run('resnet32', ratio=ratio, heuristic=builtin_name, memory=memory)
        port = dtrcheck.run('resnet32', ratio=ratio, heuristic=policy, memory=memory)
        assert port.heuristic == policy.policy_name()
        assert without_name(port) == without_name(builtin), ratio
        assert builtin.evictions > 0 and builtin.memory is not None
        statuses.add(builtin.status)
    # 0.15 runs out of memory under both models, 0.5 completes (measured).
    assert statuses == {'ok', 'oom'}


def test_port_sweep_any_jobs() -> None:
    need_trace('resnet32')
    builtin = dtrcheck.sweep('resnet32', ratios=[0.3, 0.4, 0.5], heuristic='Coop', memory='arena')
    port = dtrcheck.sweep('resnet32', ratios=[0.3, 0.4, 0.5], heuristic=PyCoop(), memory='arena',
                          jobs=2)
    assert [without_name(r) for r in port] == [without_name(r) for r in builtin]


def test_refused_under_bytes_by_name() -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match=r"py\.PyDTE requires \{'addresses'\} but --memory "
                                             r'bytes has no addresses'):
        dtrcheck.run('resnet32', ratio=0.5, heuristic=PyDTE)
