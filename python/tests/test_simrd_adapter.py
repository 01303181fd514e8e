"""Every heuristic class of simrd's own heuristic/ package, run unchanged
through dtrcheck.simrd_adapter: records identical to dtrcheck's built-in
of the same name (but the name), telemetry included: the heuristic
counters are what the class's own code adds (and simrd's graph walks it
calls: Storage.evicted_neighbors, EqClassNode.find_root, Region.rebuild)."""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Tuple

import pytest
from conftest import have_trace, need_trace, without_name

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
# They walk simrd's graph themselves: Storage.evicted_neighbors and
# EqClassNode.get_value (the eq-class ones), Heuristic.evicted_neighborhood
# over rt.tensor_map (DTRUnopt). Their access counts depend on the walk.
WALK_SIMRD_GRAPH = {'DTREqClass', 'AbEqSizeStale', 'AbEqSize', 'AbEqStale', 'AbEq', 'DTRUnopt'}
RANDOM = {'RandomStorage', 'AbRandom'}
needs_simrd = pytest.mark.skipif(not HEURISTICS, reason='simrd not installed (oracle/README.md)')

# (trace, ratio, runtime, overhead limit): two budgets of resnet32 and one
# of transformer under the default runtime (RuntimeV2EagerOptimized), and
# the non-eager optimized runtime (no eager eviction: other neighbourhoods,
# other union-find merges). transformer's limit stops the ablations without
# a size term early (AbEq there counts 16.7 M heuristic accesses under
# limit 20).
RUNS: List[Tuple[str, float, Optional[str], float]] = [
    ('resnet32', 0.2, None, 20), ('resnet32', 0.5, None, 20), ('transformer', 0.3, None, 3),
    ('resnet32', 0.3, 'RuntimeV2Optimized', 20)]


@needs_simrd
def test_every_class_is_covered() -> None:
    assert len(HEURISTICS) == 24
    assert WALK_SIMRD_GRAPH | RANDOM <= set(HEURISTICS)
    assert set(HEURISTICS) <= set(dtrcheck.heuristic_names())


@needs_simrd
@pytest.mark.parametrize('name', sorted(HEURISTICS))
def test_simrd_class_is_the_builtin(name: str) -> None:
    cls = HEURISTICS[name]
    seeds: List[Optional[int]] = [0, 5] if name in RANDOM else [None]
    compared = 0
    for trace, ratio, runtime, limit in RUNS:
        if not have_trace(trace):
            continue
        for seed in seeds:
            kw: Dict[str, Any] = dict(ratio=ratio, seed=seed, overhead_limit=limit)
            if runtime:
                kw['runtime'] = runtime
            builtin = dtrcheck.run(trace, heuristic=name, **kw)
            adapted = dtrcheck.run(trace, heuristic=cls, **kw)
            assert adapted.heuristic == f'simrd.{name}'
            assert without_name(adapted) == without_name(builtin), (trace, ratio, runtime, seed)
            compared += 1
            if name in WALK_SIMRD_GRAPH and builtin.status == 'ok':
                # The walk counted: more accesses than one per evaluation.
                assert builtin.heuristic_access_count > builtin.heuristic_eval_count > 0
    if not compared:
        pytest.skip('no public trace found')


@needs_simrd
def test_graph_walking_class_in_a_sweep_on_two_threads() -> None:
    """Forked runs (a sweep shares prefixes) and threads: each run its own
    proxies over its own runtime."""
    need_trace('resnet32')
    for name in ('DTREqClass', 'DTRUnopt'):
        builtin = dtrcheck.sweep('resnet32', '0.20', '0.26', '0.02', heuristic=name,
                                 overhead_limit=20)
        adapted = dtrcheck.sweep('resnet32', '0.20', '0.26', '0.02', heuristic=HEURISTICS[name],
                                 overhead_limit=20, jobs=2)
        assert [without_name(r) for r in adapted] == [without_name(r) for r in builtin]


class MyLocal:
    """A class written as for simrd, without simrd installed: the adapter
    needs only evaluate(self, s, rt)."""
    FEATURES = {'last_access_int'}

    def evaluate(self, s: Any, rt: Any) -> float:
        rt.telemetry.summary['heuristic_eval_count'] += 1
        rt.telemetry.summary['heuristic_access_count'] += 1
        stale = rt.clock - s.meta['last_access_int']
        return s.compute / (s.size * stale) if s.size * stale > 0 else float('inf')


class CountsNothing(MyLocal):
    def evaluate(self, s: Any, rt: Any) -> float:
        stale = rt.clock - s.meta['last_access_int']
        return s.compute / (s.size * stale) if s.size * stale > 0 else float('inf')


def test_user_class_in_simrd_style() -> None:
    need_trace('resnet32')
    adapted = dtrcheck.run('resnet32', ratio=0.3, heuristic=MyLocal)
    assert without_name(adapted) == without_name(dtrcheck.run('resnet32', ratio=0.3,
                                                              heuristic='DTRLocal'))


def test_counters_are_the_class_own() -> None:
    """As in simrd: a class that counts nothing leaves both counters at 0;
    everything else is DTRLocal's."""
    need_trace('resnet32')
    adapted = without_name(dtrcheck.run('resnet32', ratio=0.3, heuristic=CountsNothing))
    builtin = without_name(dtrcheck.run('resnet32', ratio=0.3, heuristic='DTRLocal'))
    assert builtin['heuristic_eval_count'] > 0
    assert adapted['heuristic_eval_count'] == adapted['heuristic_access_count'] == 0
    for key in ('heuristic_eval_count', 'heuristic_access_count'):
        adapted.pop(key)
        builtin.pop(key)
    assert adapted == builtin


class ReadsUnknownMeta(MyLocal):
    def evaluate(self, s: Any, rt: Any) -> float:
        return s.meta['no_such_key']


class ReadsUnknownField(MyLocal):
    def evaluate(self, s: Any, rt: Any) -> float:
        return s.no_such_field


class KeepsStorage(MyLocal):
    """Keeps a storage past its call: reading it then is an error, not a
    dangling pointer."""
    kept: Any = None

    def evaluate(self, s: Any, rt: Any) -> float:
        KeepsStorage.kept = s
        return super().evaluate(s, rt)


@pytest.mark.parametrize('cls, message', [
    (ReadsUnknownMeta, r'heuristic simrd\.ReadsUnknownMeta: Score threw: KeyError: .*'
                       r'no s\.meta\[.no_such_key.\]'),
    (ReadsUnknownField, r'heuristic simrd\.ReadsUnknownField: Score threw: AttributeError: '
                        r'.*no s\.no_such_field'),
])
def test_failing_class_names_itself(cls: type, message: str) -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match=message):
        dtrcheck.run('resnet32', ratio=0.3, heuristic=cls)


def test_state_outside_a_call_is_an_error() -> None:
    need_trace('resnet32')
    KeepsStorage.kept = None
    r = dtrcheck.run('resnet32', ratio=0.5, heuristic=KeepsStorage)
    assert r.status == 'ok' and KeepsStorage.kept is not None
    with pytest.raises(RuntimeError, match='readable only during evaluate and choose'):
        KeepsStorage.kept.size
