"""The View's version-2 queries from Python (the C++ API's names in
snake_case): a policy's reads of block_of, free_bytes_adjacent,
pending_request and recompute_count agree with pieces() and with the run;
they need the 'addresses' feature; choose may return a window."""
from __future__ import annotations

from typing import List, Optional

import pytest
from conftest import need_trace, without_name

import dtrcheck
from dtrcheck.examples.dtr import PyDTR


class Probe(PyDTR):
    """DTR's scan (choose returns None), checking at each eviction that the
    address queries describe the same memory as pieces()."""

    features = PyDTR.features | {'addresses'}
    checked = 0
    placements = 0
    recomputed = 0

    def choose(self, view: dtrcheck.View) -> Optional[int]:
        pieces = view.pieces()
        assert [p.address for p in pieces] == sorted(p.address for p in pieces)
        request = view.pending_request()
        assert request.bytes > 0
        Probe.placements += request.placement
        for i, p in enumerate(pieces):
            if not p.allocated:
                assert p.storage == dtrcheck.NO_STORAGE
                continue
            if p.storage == dtrcheck.NO_STORAGE:
                continue
            b = view.block_of(p.storage)
            assert (b.address, b.size, b.segment) == (p.address, p.size, p.segment)
            free = view.free_bytes_adjacent(p.storage)
            left = pieces[i - 1] if i > 0 else None
            right = pieces[i + 1] if i + 1 < len(pieces) else None
            assert free.left == (left.size if left and not left.allocated
                                 and left.segment == p.segment else 0)
            assert free.right == (right.size if right and not right.allocated
                                  and right.segment == p.segment else 0)
            Probe.recomputed = max(Probe.recomputed, view.recompute_count(p.storage))
            Probe.checked += 1
        return None


@pytest.mark.parametrize('memory', ['arena', 'cuda-caching'])
def test_queries_agree_with_pieces(memory: str) -> None:
    need_trace('resnet32')
    Probe.checked = Probe.placements = Probe.recomputed = 0
    builtin = dtrcheck.run('resnet32', ratio=0.2, heuristic='DTR', memory=memory)
    probe = dtrcheck.run('resnet32', ratio=0.2, heuristic=Probe, memory=memory)
    # choose returned None: DTR's scan, the built-in's run.
    assert without_name(probe) == without_name(builtin)
    assert Probe.checked > 0 and builtin.remat_compute > 0 and Probe.recomputed > 0
    # Each refusal of the allocator (28 under either model) is a decision
    # for a placement; the others are for bytes over the budget.
    assert probe.memory is not None and probe.memory.refusals > 0
    assert Probe.placements >= probe.memory.refusals


class Undeclared(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> Optional[int]:
        view.pieces()
        return None


@pytest.mark.parametrize('memory', ['bytes', 'arena'])
def test_address_queries_need_the_feature(memory: str) -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match=r'heuristic py\.Undeclared: Choose threw: '
                                             r'RuntimeError: pieces\(\): the policy did not '
                                             r"declare the 'addresses' feature"):
        dtrcheck.run('resnet32', ratio=0.3, heuristic=Undeclared, memory=memory)


class Oldest(dtrcheck.Heuristic):
    """Evicts the two least recently used storages of the pool at once."""

    features = frozenset({'last_access_int'})

    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> List[int]:
        pool = [view.pool_nth(i) for i in range(view.pool_size())]
        pool.sort(key=lambda s: (view.last_access(s), s))
        return pool[:2]


class Nothing(Oldest):
    def choose(self, view: dtrcheck.View) -> List[int]:
        return []


def test_windows() -> None:
    need_trace('resnet32')
    two = dtrcheck.run('resnet32', ratio=0.5, heuristic=Oldest)
    assert two.status == 'ok' and two.evictions > 0
    # One decision, one evaluation, whatever it evicts.
    assert two.heuristic_eval_count == two.heuristic_access_count
    assert two.heuristic_eval_count < two.evictions
    # An empty window evicts nothing: the first decision fails the run
    # (the runtime's own evictions, eager ones, before it are no decision).
    none = dtrcheck.run('resnet32', ratio=0.5, heuristic=Nothing)
    assert none.status == 'oom' and none.heuristic_eval_count == 0
    assert none.clock < two.clock
