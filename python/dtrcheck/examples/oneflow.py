"""OneFlow's address-aware policies, DTE and Coop, ported to dtrcheck's
Python API from the built-ins (policies/oneflow_remat.cc, which cites
OneFlow's source and lists where they differ from it).

They read the allocator's pieces (``view.pieces()``: feature
``'addresses'``), so they run under ``memory='arena'`` or
``'cuda-caching'``; Coop returns a window of several victims from
``choose``. The arithmetic is the C++'s, in doubles: each int becomes a
float (``float(int)`` and C++'s ``static_cast<double>`` both round to
nearest), then IEEE division, where Python's ``/`` raises on a zero divisor
and C++ gives inf or NaN: ``_divide`` gives those. So runs have the
built-ins' records (python/tests/test_oneflow_port.py).
"""
from __future__ import annotations

import math
import sys
from typing import List, Sequence, Union

from ..heuristic import Heuristic, Piece, View

FEATURES = frozenset({'regions', 'last_access_int', 'addresses'})


def _divide(a: float, b: float) -> float:
    """a / b in IEEE doubles, as C++ divides: x / 0 is +-inf, 0 / 0 NaN."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def cost(storage: int, size: float, view: View) -> float:
    """RematableTensorStorage::cost: (compute + evicted-ancestor compute) /
    staleness / size (OneFlowCost)."""
    neighbor = float(view.compute(storage)) + float(view.region_compute(storage))
    last = view.last_access(storage)
    staleness = math.inf if last == -math.inf else float(view.clock() - last)
    return _divide(_divide(neighbor, staleness), size)


def evictable(p: Piece, view: View) -> bool:
    """An allocated piece whose storage is in memory, neither pinned nor locked."""
    s = p.storage
    return (p.allocated and s >= 0 and view.material(s) and not view.pinned(s)
            and not view.locked(s))


class PyDTE(Heuristic):
    """OneFlow's EvictAndFindPieceLoop(consider_neighbor=True): the piece of
    least cost / (its size + the free pieces beside it in its segment)."""

    features = FEATURES

    def score(self, storage: int, view: View) -> float:  # not called: choose decides
        return cost(storage, 1.0, view)

    def choose(self, view: View) -> Union[int, List[int]]:
        pieces = view.pieces()
        min_cost, victim = sys.float_info.max, None
        for i, p in enumerate(pieces):
            if not evictable(p, view):
                continue
            size = p.size
            if i > 0 and not pieces[i - 1].allocated and pieces[i - 1].segment == p.segment:
                size += pieces[i - 1].size
            if (i + 1 < len(pieces) and not pieces[i + 1].allocated
                    and pieces[i + 1].segment == p.segment):
                size += pieces[i + 1].size
            c = cost(p.storage, float(size), view)
            if c < min_cost:
                min_cost, victim = c, p.storage
        return [] if victim is None else victim  # []: no victim, the allocation fails


class PyCoop(Heuristic):
    """OneFlow's EvictAndFindPieceOnce: the contiguous window of pieces of at
    least the pending request with the least summed cost (size 1), evicted
    at once."""

    features = FEATURES

    def score(self, storage: int, view: View) -> float:  # not called: choose decides
        return cost(storage, 1.0, view)

    def choose(self, view: View) -> List[int]:
        return coop_window(view.pieces(), view)


def coop_window(pieces: Sequence[Piece], view: View) -> List[int]:
    """CoopWindow: two pointers over the pieces; a pinned or locked piece
    ends every window, a new segment starts one. Free pieces count their
    bytes only for the allocator's refusal (request.placement)."""
    request = view.pending_request()
    required = request.bytes if request.bytes > 0 else 1
    start = end = total = 0
    cost_except_size = 0.0
    min_cost, min_start, min_end = sys.float_info.max, 0, 0
    costs: List[float] = []
    while end < len(pieces):
        if total < required:
            p = pieces[end]
            new_segment = end > start and pieces[end - 1].segment != p.segment
            blocked = p.allocated and not evictable(p, view)
            if blocked or new_segment:
                if not blocked:  # a segment's first piece starts a new window
                    start = end
                else:
                    end += 1
                    costs.append(0.0)
                    start = end
                total, cost_except_size = 0, 0.0
                continue
            if p.allocated or request.placement:
                total += p.size
            c = cost(p.storage, 1.0, view) if p.allocated else 0.0
            costs.append(c)
            cost_except_size += c
            end += 1
        else:
            p = pieces[start]
            if p.allocated or request.placement:
                total -= p.size
            cost_except_size -= costs[start]
            start += 1
        if total >= required and cost_except_size < min_cost:
            min_cost, min_start, min_end = cost_except_size, start, end
    return [p.storage for p in pieces[min_start:min_end] if p.allocated]
