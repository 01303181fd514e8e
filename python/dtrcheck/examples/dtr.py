"""simrd's DTR heuristic, ported to dtrcheck's Python API.

simrd (simrd/heuristic/dtr.py):

    compute = s.compute + s.meta['region'].compute + s.meta['region_rev'].compute
    denominator = s.size * Heuristic.staleness(s.meta['last_access_int'], rt.clock)
    return compute / denominator if denominator > 0 else math.inf

The same Python arithmetic on the same ints gives the same floats, so runs
with this policy have the built-in DTR's records (python/tests/test_dtr_port.py).
"""
from __future__ import annotations

import math
from typing import Union

from ..heuristic import Heuristic, View


class PyDTR(Heuristic):
    """h_DTR(s) = e*(s) / (size(s) * staleness(s)), e* the compute of s and
    of its evicted neighbourhood."""

    features = frozenset({'regions', 'last_access_int'})
    label = 'h_DTR (Python)'

    def score(self, storage: int, view: View) -> Union[int, float]:
        compute = (view.compute(storage) + view.region_compute(storage)
                   + view.region_rev_compute(storage))
        denominator = view.size(storage) * (view.clock() - view.last_access(storage))
        return compute / denominator if denominator > 0 else math.inf


class PyLRU(Heuristic):
    """simrd's LRU: the oldest access is evicted first (an int score)."""

    features = frozenset({'last_access_int'})

    def score(self, storage: int, view: View) -> Union[int, float]:
        return view.last_access(storage)


class PyRandom(Heuristic):
    """simrd's RandomStorage: a victim drawn from the run's seeded
    generator (choose, not score)."""

    def score(self, storage: int, view: View) -> Union[int, float]:
        raise NotImplementedError('PyRandom chooses; it does not score')

    def choose(self, view: View) -> int:
        return int(view.pool_nth(view.rand_below(view.pool_size())))
