"""Runs a heuristic class written for simrd, unchanged, on dtrcheck's runtime.

simrd's heuristics are classes with ``evaluate(self, s, rt)`` (and
optionally ``choose(self, storage_pool, rt)``). The adapter gives them what
they read, from the View of the C++ API:

    s.size, s.compute, s.ref_int, s.material
    s.meta['region'].compute, s.meta['region_rev'].compute
    s.meta['last_access_int']        (an int, or -math.inf)
    rt.clock, rt.telemetry.summary[...] += ...

and, for a ``choose`` of its own, the evictable pool as a sequence of such
storages, in simrd's order, and the module's ``random`` replaced, for the
call, by a ``random.Random(seed)`` of the run (simrd's RandomStorage calls
``random.randrange``; the oracle seeds ``random.seed(seed)`` the same way).

Counters: the simulator counts one heuristic evaluation and one access per
``evaluate`` (and per ``choose``), which is what every simrd heuristic adds to
``rt.telemetry.summary``; the adapter's summary takes the increments and
drops them.

Not available: anything else of simrd's Storage and runtime (``s.tensors``,
``s.meta['ecn']``, ``rt.tensor_map``...). Heuristics that walk simrd's graph
themselves (DTREqClass and the AbEq* ablations through
``Storage.evicted_neighbors``, DTRUnopt through ``Region``) fail with a
dtrcheck.Error naming the policy and the attribute; their built-in ports
(heuristic='DTREqClass', ...) are the way to run them.
"""
from __future__ import annotations

import random
import threading
from collections import defaultdict
from typing import Any, Dict, Iterator, Optional, Sequence

from .heuristic import Heuristic, View, feature_bits, register

_AVAILABLE = ('size, compute, ref_int, material, '
              + ', '.join(f'meta[{k!r}]' for k in ('region', 'region_rev', 'last_access_int')))


class _Region:
    __slots__ = ('compute',)

    def __init__(self, compute: int) -> None:
        self.compute = compute


class _Meta:
    __slots__ = ('_view', '_s')

    def __init__(self, view: View, s: int) -> None:
        self._view = view
        self._s = s

    def __getitem__(self, key: str) -> Any:
        if key == 'last_access_int':
            return self._view.last_access(self._s)
        if key == 'region':
            return _Region(self._view.region_compute(self._s))
        if key == 'region_rev':
            return _Region(self._view.region_rev_compute(self._s))
        raise KeyError(f'the simrd adapter has no s.meta[{key!r}] (it has {_AVAILABLE})')


class Storage:
    """simrd's Storage as a heuristic reads it (handle: dtrcheck's id)."""

    __slots__ = ('_view', 'handle')

    def __init__(self, view: View, handle: int) -> None:
        self._view = view
        self.handle = handle

    @property
    def size(self) -> int:
        return self._view.size(self.handle)

    @property
    def compute(self) -> int:
        return self._view.compute(self.handle)

    @property
    def meta(self) -> _Meta:
        return _Meta(self._view, self.handle)

    @property
    def ref_int(self) -> int:
        return 1 if self._view.locked(self.handle) else 0

    @property
    def material(self) -> bool:
        return bool(self._view.material(self.handle))

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f'the simrd adapter has no s.{name} (it has {_AVAILABLE})')


class _Telemetry:
    __slots__ = ('summary',)

    def __init__(self) -> None:
        # The simulator counts evaluations and accesses itself (see above).
        self.summary: Dict[str, int] = defaultdict(int)


class Runtime:
    """simrd's runtime as a heuristic reads it: clock and telemetry."""

    __slots__ = ('_view', 'telemetry')

    def __init__(self) -> None:
        self._view: Optional[View] = None
        self.telemetry = _Telemetry()

    @property
    def clock(self) -> int:
        assert self._view is not None
        return self._view.clock()

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f'the simrd adapter has no rt.{name} (it has clock, telemetry)')


class _Pool(Sequence[Storage]):
    """The evictable pool in simrd's order (storage_pool)."""

    def __init__(self, view: View) -> None:
        self._view = view

    def __len__(self) -> int:
        return int(self._view.pool_size())

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError('storage_pool index out of range')
        return Storage(self._view, self._view.pool_nth(i))

    def __iter__(self) -> Iterator[Storage]:
        for i in range(len(self)):
            yield self[i]


# Patching a module's `random` for one choose call; calls from several
# threads (a sweep's workers) take turns.
_random_lock = threading.Lock()


def _defines_own_choose(cls: type) -> bool:
    for klass in cls.__mro__:
        if 'choose' in klass.__dict__:
            # simrd's base class is the one called Heuristic without another base.
            return not (klass.__name__ == 'Heuristic' and klass.__bases__ == (object,))
    return False


class SimrdHeuristic(Heuristic):
    """A dtrcheck policy that runs an instance of a simrd heuristic class."""

    def __init__(self, simrd_class: type, seed: int = 0) -> None:
        self.simrd = simrd_class()
        self.rt = Runtime()
        self.random = random.Random(seed)
        self._own_choose = _defines_own_choose(simrd_class)

    def score(self, storage: int, view: View) -> Any:
        self.rt._view = view
        return self.simrd.evaluate(Storage(view, storage), self.rt)

    def choose(self, view: View) -> Optional[int]:
        if not self._own_choose:
            return None
        self.rt._view = view
        fn = type(self.simrd).choose
        module_globals = getattr(fn, '__globals__', {})
        with _random_lock:
            saved = module_globals.get('random')
            if saved is not None:
                module_globals['random'] = self.random
            try:
                chosen = self.simrd.choose(_Pool(view), self.rt)
            finally:
                if saved is not None:
                    module_globals['random'] = saved
        if not isinstance(chosen, (list, tuple)) or len(chosen) != 1 \
                or not isinstance(chosen[0], Storage):
            raise TypeError('choose must return a list of one storage from storage_pool, '
                            f'not {chosen!r}')
        return chosen[0].handle


def policy_name(simrd_class: type) -> str:
    """The name a simrd class runs under: 'simrd.' + its class name."""
    return f'simrd.{simrd_class.__name__}'


def register_simrd(simrd_class: Any) -> str:
    """Registers a simrd heuristic class (a new instance per run) and
    returns its name, 'simrd.' + the class name. Its FEATURES are the
    policy's features; its str() is the label."""
    if not isinstance(simrd_class, type):
        simrd_class = type(simrd_class)
    name = policy_name(simrd_class)
    features = frozenset(getattr(simrd_class, 'FEATURES', ()))
    feature_bits(features, name)  # unknown names fail here, naming the policy
    try:
        label = str(simrd_class())
    except Exception:  # a class that cannot be made says so at the first run
        label = name

    class Adapter(SimrdHeuristic):
        pass

    Adapter.features = features
    Adapter.name = name
    Adapter.label = label
    Adapter.__name__ = Adapter.__qualname__ = f'SimrdHeuristic[{simrd_class.__name__}]'

    def make(seed: int) -> Heuristic:
        return Adapter(simrd_class, seed)

    return register(Adapter, name, make=make)
