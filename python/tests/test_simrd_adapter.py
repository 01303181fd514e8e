"""Every heuristic class of simrd's own heuristic/ package, run unchanged
through dtrcheck.simrd_adapter: records identical to dtrcheck's built-in
of the same name (but the name); the classes that walk simrd's graph
themselves fail with a dtrcheck.Error naming the policy."""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional

import pytest
from conftest import have_trace, without_name

import dtrcheck


def _simrd_heuristics() -> Dict[str, Any]:
    """simrd's HEURISTICS registry, from where the oracle finds simrd
    (oracle/README.md); empty when simrd or attrs is not installed."""
    cache = os.environ.get('SIMRD_CACHE') or os.path.join(
        os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'dtrcheck')
    for d in (os.environ.get('SIMRD_DIR'), os.path.join(cache, 'simrd')):
        if d and os.path.isdir(os.path.join(d, 'simrd')):
            sys.path.insert(0, d)
            break
    try:
        import simrd.heuristic.ablation  # type: ignore[import-not-found]  # noqa: F401 (registers)
        from simrd.heuristic import HEURISTICS  # type: ignore[import-not-found]
    except ImportError:
        return {}
    return dict(HEURISTICS)


HEURISTICS = _simrd_heuristics()
# They call Storage.evicted_neighbors (s.tensors, s.meta['ecn']) or build
# Regions over rt.tensor_map: simrd's graph, which the API's View does not give.
WALK_SIMRD_GRAPH = {'DTREqClass', 'AbEqSizeStale', 'AbEqSize', 'AbEqStale', 'AbEq', 'DTRUnopt'}
RANDOM = {'RandomStorage', 'AbRandom'}
needs_simrd = pytest.mark.skipif(not HEURISTICS, reason='simrd not installed (oracle/README.md)')


@needs_simrd
def test_every_class_is_covered() -> None:
    assert len(HEURISTICS) == 24
    assert WALK_SIMRD_GRAPH | RANDOM <= set(HEURISTICS)


@needs_simrd
@pytest.mark.parametrize('name', sorted(set(HEURISTICS) - WALK_SIMRD_GRAPH))
def test_simrd_class_is_the_builtin(name: str) -> None:
    cls = HEURISTICS[name]
    runs = [('resnet32', 0.2), ('resnet32', 0.5), ('transformer', 0.3)]
    seeds: List[Optional[int]] = [0, 5] if name in RANDOM else [None]
    compared = 0
    for trace, ratio in runs:
        if not have_trace(trace):
            continue
        for seed in seeds:
            builtin = dtrcheck.run(trace, ratio=ratio, heuristic=name, seed=seed,
                                   overhead_limit=20)
            adapted = dtrcheck.run(trace, ratio=ratio, heuristic=cls, seed=seed,
                                   overhead_limit=20)
            assert adapted.heuristic == f'simrd.{name}'
            assert without_name(adapted) == without_name(builtin), (trace, ratio, seed)
            compared += 1
    if not compared:
        pytest.skip('no public trace found')


@needs_simrd
@pytest.mark.parametrize('name', sorted(WALK_SIMRD_GRAPH))
def test_graph_walking_class_fails_naming_itself(name: str) -> None:
    if not have_trace('resnet32'):
        pytest.skip('resnet32 not found')
    with pytest.raises(dtrcheck.Error, match=rf'heuristic simrd\.{name}: .*simrd adapter has no'):
        dtrcheck.run('resnet32', ratio=0.3, heuristic=HEURISTICS[name])


def test_user_class_in_simrd_style() -> None:
    """A class written as for simrd, without simrd installed: the adapter
    needs only evaluate(self, s, rt)."""
    if not have_trace('resnet32'):
        pytest.skip('resnet32 not found')

    class MyLocal:
        FEATURES = {'last_access_int'}

        def evaluate(self, s: Any, rt: Any) -> float:
            rt.telemetry.summary['heuristic_eval_count'] += 1
            stale = rt.clock - s.meta['last_access_int']
            return s.compute / (s.size * stale) if s.size * stale > 0 else float('inf')

    adapted = dtrcheck.run('resnet32', ratio=0.3, heuristic=MyLocal)
    assert without_name(adapted) == without_name(dtrcheck.run('resnet32', ratio=0.3,
                                                              heuristic='DTRLocal'))
