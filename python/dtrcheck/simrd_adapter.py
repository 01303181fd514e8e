"""Runs a heuristic class written for simrd, unchanged, on dtrcheck's runtime.

simrd's heuristics are classes with ``evaluate(self, s, rt)`` (and
optionally ``choose(self, storage_pool, rt)``). The adapter gives them
simrd's objects as proxies over the simulator's runtime (the extension's
``SimrdState``, bound during each call):

    Storage   s.size, s.compute, s.material, s.ref_int, s.ref_ext, s.pinned,
              s.root_id, s.tensors (the root first), s.meta[...]:
              'last_access_int', 'last_access', 'last_evict', 'region' and
              'region_rev' (their .compute), 'ecn' (an EqClassNode or None)
    Tensor    t.id, t.storage, t.parents, t.children, t.defined
    EqClassNode  n._parent (read and written: find_root's path compression
              is the simulator's), n._value (.compute), n.is_root(), n.tel
    runtime   rt.clock, rt.telemetry.summary['heuristic_eval_count' |
              'heuristic_access_count'], rt.tensor_map[id], rt.storage_pool,
              rt.budget, rt.memory_usage

so simrd's own graph walks run as written: Storage.evicted_neighbors,
EqClassNode.get_value / find_root (DTREqClass, the AbEq* ablations),
Heuristic.evicted_neighborhood and Region.rebuild (DTRUnopt).

Counters: the simulator counts nothing for these classes. The two
heuristic counters are what the class's code adds to
``rt.telemetry.summary`` (and simrd's find_root and evicted_neighbors to
``tel.summary``), written through to the run's record, as in simrd.

Order: simrd takes a storage's evicted neighbours in the order of a Python
set of Storage objects (memory addresses). In an evaluation that order
changes nothing: the finds of one evaluation, with full path compression
on a forest no merge changes meanwhile, count the same in any order (a
find counts the nodes of its path not on an earlier path of the call, the
first that is, which now points to the root, and the root; the first term
sums to the distinct nodes of all paths, the second to the finds after the
first in each subtree of a root's child). What varies in simrd from run to
run is the order of the runtime's merges at an eviction (QUIRKS.md,
Q-EQCLASS), which is the simulator's, in discovery order.

For a ``choose`` of its own, the class gets the evictable pool as a
sequence in simrd's order and, for the call, its module's ``random``
replaced by a ``random.Random(seed)`` of the run (simrd's RandomStorage
calls ``random.randrange``; the oracle seeds ``random.seed(seed)`` the same
way).
"""
from __future__ import annotations

import random
import threading
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _dtrcheck
from .heuristic import feature_bits

_STORAGE_FIELDS = ('size, compute, material, ref_int, ref_ext, pinned, root_id, tensors, meta')
_META_KEYS = ('last_access_int', 'last_access', 'last_evict', 'region', 'region_rev', 'ecn')
_COUNTERS = ('heuristic_eval_count', 'heuristic_access_count')


class _Region:
    """s.meta['region'] / ['region_rev'] as a heuristic reads it."""
    __slots__ = ('compute',)

    def __init__(self, compute: int) -> None:
        self.compute = compute


class _CheckpointInfo:
    """An EqClassNode's value (simrd's CheckpointInfo: its compute)."""
    __slots__ = ('compute',)

    def __init__(self, compute: int) -> None:
        self.compute = compute


class _Run:
    """One run's proxies and the state of the call in progress."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.storages: Dict[int, Storage] = {}
        self.tensors: Dict[int, Tensor] = {}
        self.nodes: Dict[int, EqClassNode] = {}
        self.telemetry = _Telemetry(state)
        self._checkpoints: Dict[int, _CheckpointInfo] = {}

    def begin(self) -> None:
        """A new call: the forest's values may have changed since the last."""
        self._checkpoints = {}

    def storage(self, h: int) -> 'Storage':
        s = self.storages.get(h)
        if s is None:
            s = self.storages[h] = Storage(self, h)
        return s

    def tensor(self, t: int) -> 'Tensor':
        x = self.tensors.get(t)
        if x is None:
            x = self.tensors[t] = Tensor(self, t)
        return x

    def node(self, n: int) -> 'EqClassNode':
        x = self.nodes.get(n)
        if x is None:
            x = self.nodes[n] = EqClassNode(self, n)
        return x

    def checkpoint(self, n: int) -> _CheckpointInfo:
        """One object per node and call, so that simrd's set of them counts
        each class once."""
        c = self._checkpoints.get(n)
        if c is None:
            c = self._checkpoints[n] = _CheckpointInfo(self.state.ecn_value(n))
        return c


class _Meta:
    """s.meta, read-only."""
    __slots__ = ('_run', '_h')

    def __init__(self, run: _Run, h: int) -> None:
        self._run = run
        self._h = h

    def __getitem__(self, key: str) -> Any:
        st = self._run.state
        if key == 'last_access_int':
            return st.last_access_int(self._h)
        if key == 'region':
            return _Region(st.region_compute(self._h))
        if key == 'region_rev':
            return _Region(st.region_rev_compute(self._h))
        if key == 'ecn':
            n = st.ecn(self._h)  # KeyError when the runtime keeps none, as simrd
            return None if n is None else self._run.node(n)
        if key == 'last_access':
            return st.last_access(self._h)
        if key == 'last_evict':
            v = st.last_evict(self._h)
            if v == -float('inf'):
                raise KeyError('last_evict')  # simrd sets it at the first eviction
            return v
        raise KeyError(f'the simrd adapter has no s.meta[{key!r}] (it has '
                       + ', '.join(_META_KEYS) + ')')

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, _MISSING) is not _MISSING


_MISSING = object()


def _read(field: str) -> Any:
    """A Storage attribute read from the state (SimrdState.<field>(handle))."""
    def get(self: 'Storage') -> Any:
        return getattr(self._run.state, field)(self.handle)
    get.__name__ = field
    return property(get, doc=f's.{field}')


class Storage:
    """simrd's Storage as a heuristic reads it (handle: dtrcheck's id)."""
    __slots__ = ('_run', 'handle')

    def __init__(self, run: _Run, handle: int) -> None:
        self._run = run
        self.handle = handle

    # s.size, s.compute, ...: the state's reading of this storage.
    size = _read('size')
    compute = _read('compute')
    material = _read('material')
    ref_int = _read('ref_int')
    ref_ext = _read('ref_ext')
    pinned = _read('pinned')
    root_id = _read('root_id')

    @property
    def tensors(self) -> List['Tensor']:
        run = self._run
        return [run.tensor(t) for t in run.state.tensors(self.handle)]

    @property
    def meta(self) -> _Meta:
        return _Meta(self._run, self.handle)

    def __repr__(self) -> str:
        return f'<simrd adapter Storage {self.handle}>'

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f'the simrd adapter has no s.{name} (it has {_STORAGE_FIELDS})')


class Tensor:
    """simrd's Tensor as a graph walk reads it (id: simrd's tensor id)."""
    __slots__ = ('_run', 'id')

    def __init__(self, run: _Run, tid: int) -> None:
        self._run = run
        self.id = tid

    @property
    def storage(self) -> Storage:
        return self._run.storage(self._run.state.tensor_storage(self.id))

    @property
    def parents(self) -> List['Tensor']:
        run = self._run
        return [run.tensor(t) for t in run.state.parents(self.id)]

    @property
    def children(self) -> List['Tensor']:
        run = self._run
        return [run.tensor(t) for t in run.state.children(self.id)]

    @property
    def defined(self) -> bool:
        return self._run.state.tensor_defined(self.id)

    def __repr__(self) -> str:
        return f'<simrd adapter Tensor {self.id}>'

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f'the simrd adapter has no t.{name} '
                             '(it has id, storage, parents, children, defined)')


class EqClassNode:
    """simrd's EqClassNode as EqClassNode.find_root and get_value use it:
    ``_parent`` reads and writes the simulator's union-find forest."""
    __slots__ = ('_run', 'node')

    def __init__(self, run: _Run, node: int) -> None:
        self._run = run
        self.node = node

    @property
    def tel(self) -> '_Telemetry':
        return self._run.telemetry

    @property
    def _parent(self) -> Optional['EqClassNode']:
        p = self._run.state.ecn_parent(self.node)
        return None if p < 0 else self._run.node(p)

    @_parent.setter
    def _parent(self, parent: Optional['EqClassNode']) -> None:
        self._run.state.set_ecn_parent(self.node, -1 if parent is None else parent.node)

    @property
    def _value(self) -> _CheckpointInfo:
        return self._run.checkpoint(self.node)

    def is_root(self) -> bool:
        return self._run.state.ecn_parent(self.node) < 0

    def __repr__(self) -> str:
        return f'<simrd adapter EqClassNode {self.node}>'


class _Summary:
    """rt.telemetry.summary: the run's two heuristic counters."""
    __slots__ = ('_state',)

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getitem__(self, key: str) -> int:
        if key not in _COUNTERS:
            raise KeyError(f'the simrd adapter has no telemetry.summary[{key!r}] '
                           f'(it has {", ".join(_COUNTERS)})')
        return getattr(self._state, key)

    def __setitem__(self, key: str, value: int) -> None:
        if key not in _COUNTERS:
            raise KeyError(f'the simrd adapter has no telemetry.summary[{key!r}] '
                           f'(it has {", ".join(_COUNTERS)})')
        setattr(self._state, key, value)


class _Telemetry:
    __slots__ = ('summary',)

    def __init__(self, state: Any) -> None:
        self.summary = _Summary(state)


class _TensorMap:
    """rt.tensor_map: simrd's tensor id -> Tensor."""
    __slots__ = ('_run',)

    def __init__(self, run: _Run) -> None:
        self._run = run

    def __getitem__(self, tid: int) -> Tensor:
        if not 0 <= tid < self._run.state.tensor_count():
            raise KeyError(tid)
        return self._run.tensor(tid)

    def __contains__(self, tid: object) -> bool:
        return isinstance(tid, int) and 0 <= tid < self._run.state.tensor_count()


class _Pool(Sequence[Storage]):
    """The evictable pool in simrd's order (storage_pool)."""

    def __init__(self, run: _Run) -> None:
        self._run = run

    def __len__(self) -> int:
        return int(self._run.state.pool_size())

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError('storage_pool index out of range')
        return self._run.storage(self._run.state.pool_nth(i))

    def __iter__(self) -> Iterator[Storage]:
        for i in range(len(self)):
            yield self[i]


class Runtime:
    """simrd's runtime as a heuristic reads it."""
    __slots__ = ('_run', 'telemetry', 'tensor_map')

    def __init__(self, run: _Run) -> None:
        self._run = run
        self.telemetry = run.telemetry
        self.tensor_map = _TensorMap(run)

    @property
    def clock(self) -> int:
        return self._run.state.clock()

    @property
    def budget(self) -> Any:
        return self._run.state.budget()

    @property
    def memory_usage(self) -> int:
        return self._run.state.memory_usage()

    @property
    def storage_pool(self) -> _Pool:
        return _Pool(self._run)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f'the simrd adapter has no rt.{name} (it has clock, telemetry, '
                             'tensor_map, storage_pool, budget, memory_usage)')


# Patching a module's `random` for one choose call; calls from several
# threads (a sweep's workers) take turns.
_random_lock = threading.Lock()


def _defines_own_choose(cls: type) -> bool:
    for klass in cls.__mro__:
        if 'choose' in klass.__dict__:
            # simrd's base class is the one called Heuristic without another base.
            return not (klass.__name__ == 'Heuristic' and klass.__bases__ == (object,))
    return False


def _make(simrd_class: type, bits: int) -> Callable[[int, Any], Tuple[Any, Any, int]]:
    """The factory of one run: (evaluate(handle), choose() or None, features)."""
    own_choose = _defines_own_choose(simrd_class)

    def factory(seed: int, state: Any) -> Tuple[Any, Any, int]:
        heuristic = simrd_class()
        run = _Run(state)
        rt = Runtime(run)

        def evaluate(h: int) -> Any:
            run.begin()
            return heuristic.evaluate(run.storage(h), rt)

        if not own_choose:
            return evaluate, None, bits
        rng = random.Random(seed)
        module_globals = getattr(type(heuristic).choose, '__globals__', {})

        def choose() -> int:
            run.begin()
            with _random_lock:
                saved = module_globals.get('random')
                if saved is not None:
                    module_globals['random'] = rng
                try:
                    chosen = heuristic.choose(_Pool(run), rt)
                finally:
                    if saved is not None:
                        module_globals['random'] = saved
            if not isinstance(chosen, (list, tuple)) or len(chosen) != 1 \
                    or not isinstance(chosen[0], Storage):
                raise TypeError('choose must return a list of one storage from storage_pool, '
                                f'not {chosen!r}')
            return chosen[0].handle

        return evaluate, choose, bits

    return factory


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
    bits = feature_bits(frozenset(getattr(simrd_class, 'FEATURES', ())), name)
    try:
        label = str(simrd_class())
    except Exception:  # a class that cannot be made says so at the first run
        label = name
    _dtrcheck.register_simrd_heuristic(name, label)
    _dtrcheck._simrd_factories[name] = _make(simrd_class, bits)
    return name
