"""Eviction policies written in Python.

Subclass :class:`Heuristic`, declare the runtime ``features`` the score
reads, and return a score from ``score(storage, view)``; the simulator evicts
the storage with the lowest score, scanning the evictable pool as simrd's
``Heuristic.choose`` does (the last storage whose score is <= the best so far;
a score of 0 stops the scan). Override ``choose(view)`` to pick the victim
yourself (return None to fall back to the scan), or a list of storages
evicted in that order in one decision (a window, as C++ ChooseVictims; an
empty list evicts nothing and the allocation fails).

The :class:`View` is the C++ public API's (include/dtrcheck/heuristic.h),
its method names in snake_case: ``clock()``, ``size(s)``, ``compute(s)``,
``region_compute(s)``, ``region_rev_compute(s)``, ``eq_class_compute(s)``,
``last_access(s)`` (an int, or ``-math.inf`` before the first access, as
simrd keeps ``last_access_int``), ``locked``, ``pinned``, ``material``,
``pool_size()``, ``pool_nth(i)``, ``memory_usage()``, ``budget()``,
``rand_below(n)``, ``recompute_count(s)``, ``pending_request()`` (a
:class:`Request`), the arithmetic helpers ``true_divide(a, b)`` and
``true_divide_by_product(a, b, c)``, and, for a policy that declares the
``'addresses'`` feature (run under ``memory='arena'`` or ``'cuda-caching'``),
``block_of(s)`` (a :class:`Block`), ``free_bytes_adjacent(s)`` (a
:class:`FreeAdjacent`) and ``pieces()`` (every :class:`Piece` in address
order); called by a policy that did not declare it, these raise
RuntimeError. Scores are compared exactly as simrd's
Python compares them: Python's own ``/`` on ints is CPython's correctly
rounded true division, the same as the helpers, so a policy written with
plain Python arithmetic scores bit for bit as simrd would.

The simulator counts one heuristic evaluation and one access per score (and
per decision of a ``choose``, whatever the number of storages it returns),
as every simrd heuristic does.

A policy is usable wherever a heuristic name is: ``run``, ``sweep``,
``scan`` take the class (a new instance per run) or an instance (shared by
every run). It is registered under ``name`` (default ``'py.' + class
name``); registering another class under the same name replaces it (a
notebook cell run again).
"""
from __future__ import annotations

import inspect
from typing import (Any, Callable, ClassVar, Dict, FrozenSet, Iterable, List, Optional, Tuple,
                    Union)

from . import _dtrcheck

View = _dtrcheck.View
Block = _dtrcheck.Block
FreeAdjacent = _dtrcheck.FreeAdjacent
Request = _dtrcheck.Request
Piece = _dtrcheck.Piece
#: Piece.storage of a free piece (api::kNoStorage).
NO_STORAGE: int = _dtrcheck.NO_STORAGE

# simrd's FEATURES names and the public API's bits (include/dtrcheck/heuristic.h),
# and dtrcheck's 'addresses' (version 2: an allocator model's blocks and pieces).
FEATURES: Dict[str, int] = {
    'telemetry': 1 << 0,
    'banishing': 1 << 1,
    'last_access': 1 << 2,
    'last_access_int': 1 << 3,
    'last_evict': 1 << 4,
    'eager_evict': 1 << 5,
    'regions': 1 << 6,
    'eq_class': 1 << 7,
    'addresses': 1 << 8,
}

Score = Union[int, float]


def feature_bits(features: Iterable[str], policy: str) -> int:
    """The API's feature mask of simrd feature names; ValueError naming the
    policy for an unknown name."""
    bits = 0
    for f in features:
        if f not in FEATURES:
            raise ValueError(f'heuristic {policy}: unknown feature {f!r}; '
                             f'known: {", ".join(FEATURES)}')
        bits |= FEATURES[f]
    return bits


class Heuristic:
    """Base class of eviction policies written in Python (see the module's
    help). Subclasses override ``score`` and may override ``choose``,
    ``features``, ``name`` and ``label``."""

    #: simrd feature names the score reads, e.g. {'regions', 'last_access_int'};
    #: a runtime without one refuses the policy with simrd's message. 'addresses'
    #: (the View's block_of, free_bytes_adjacent, pieces) needs memory='arena' or
    #: 'cuda-caching'.
    features: ClassVar[FrozenSet[str]] = frozenset()
    #: The heuristic name in records (default: 'py.' + the class name).
    name: ClassVar[Optional[str]] = None
    #: str(heuristic) in refusal messages (default: the name).
    label: ClassVar[Optional[str]] = None

    def score(self, storage: int, view: View) -> Score:
        """The cost of evicting ``storage`` (an int or a float; lower is
        evicted first)."""
        raise NotImplementedError(f'{type(self).__name__}.score')

    def choose(self, view: View) -> Union[None, int, List[int]]:
        """The storage to evict (one of ``view.pool_nth(i)``), a list of
        storages to evict in that order (a window; [] evicts nothing), or
        None for the scan over ``score``. Not called unless overridden."""
        return None

    @classmethod
    def policy_name(cls) -> str:
        """The name the policy is registered and recorded under."""
        return cls.name or f'py.{cls.__name__}'


PolicyLike = Union[str, Heuristic, type]


def _overrides_choose(obj: Any) -> bool:
    return type(obj).choose is not Heuristic.choose


def _factory(make: Callable[[int], Heuristic], name: str, features: int
             ) -> Callable[[int], Tuple[Any, Any, int]]:
    def factory(seed: int) -> Tuple[Any, Any, int]:
        h = make(seed)
        if not isinstance(h, Heuristic):
            raise TypeError(f'heuristic {name}: the factory made {type(h).__name__}, '
                            'not a dtrcheck.Heuristic')
        return h.score, (h.choose if _overrides_choose(h) else None), features
    return factory


def register(policy: Union[Heuristic, type], name: Optional[str] = None,
             make: Optional[Callable[[int], Heuristic]] = None) -> str:
    """Registers a policy (a :class:`Heuristic` subclass, made anew for each
    run, or an instance, shared by every run) in the simulator's heuristic
    registry, and returns its name. ``run(..., heuristic=cls)`` does this by
    itself. ``make(seed)``, if given, makes the instance of each run (the
    run's seed: random.seed(S))."""
    if inspect.isclass(policy) and issubclass(policy, Heuristic):
        cls: type = policy
        if make is None:
            make = lambda seed: cls()  # noqa: E731
    elif isinstance(policy, Heuristic):
        cls = type(policy)
        instance = policy
        if make is None:
            make = lambda seed: instance  # noqa: E731
    else:
        raise TypeError(f'not a dtrcheck.Heuristic subclass or instance: {policy!r}')
    assert issubclass(cls, Heuristic)
    policy_name = name or cls.policy_name()
    bits = feature_bits(cls.features, policy_name)
    _dtrcheck.register_heuristic(policy_name, cls.label or policy_name)
    _dtrcheck._factories[policy_name] = _factory(make, policy_name, bits)
    return policy_name


def heuristic_name(heuristic: PolicyLike) -> str:
    """The registry name for what a ``heuristic=`` argument gives: a name as
    is; a dtrcheck.Heuristic (class or instance) registered; a heuristic
    class written for simrd (with ``evaluate(self, s, rt)``) registered
    through the adapter (dtrcheck.simrd_adapter)."""
    if isinstance(heuristic, str):
        return heuristic
    if isinstance(heuristic, Heuristic) or (inspect.isclass(heuristic)
                                            and issubclass(heuristic, Heuristic)):
        return register(heuristic)
    if hasattr(heuristic, 'evaluate'):
        from .simrd_adapter import register_simrd
        return register_simrd(heuristic)
    raise TypeError(f'heuristic must be a name, a dtrcheck.Heuristic or a simrd heuristic class, '
                    f'not {type(heuristic).__name__}')


def heuristic_names() -> list:
    """simrd's heuristic names, then those registered (plugins, Python)."""
    return list(_dtrcheck.heuristic_names())
