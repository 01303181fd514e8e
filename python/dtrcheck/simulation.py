"""run, sweep, scan and traces: the CLI's commands as functions returning
typed objects (dtrcheck.record). They call the C++ simulator and analyses
directly (sim/simulate.h, analysis/sweep.h, analysis/scan.h,
traces/locate.h), in this process; a failure raises dtrcheck.Error with the
CLI's message ("dtrcheck run: ...")."""
from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _dtrcheck
from .heuristic import PolicyLike, heuristic_name
from .record import Finding, Record, ScanResult, TraceInfo

Trace = Union[str, 'os.PathLike[str]']
GridValue = Union[str, int, float, Decimal]

DEFAULT_RUNTIME = 'RuntimeV2EagerOptimized'
DEFAULT_HEURISTIC = 'DTR'


def _config(ratio: Optional[float], budget: Optional[int], runtime: str, heuristic: PolicyLike,
            baseline_runtime: str, overhead_limit: Optional[float], remat_limit: Optional[int],
            seed: Optional[int], stats: bool, memory: str = 'bytes',
            max_split_size_mb: Optional[int] = None) -> str:
    config: Dict[str, Any] = {
        'runtime': runtime,
        'heuristic': heuristic_name(heuristic),
        'baseline_runtime': baseline_runtime,
        'ratio': ratio,
        'budget': budget,
        'overhead_limit': overhead_limit,
        'remat_limit': remat_limit,
        'seed': seed,
        'stats': stats,
    }
    # As the CLI's --memory and --max-split-size-mb (io/record.h checks them).
    if memory != 'bytes':
        config['memory'] = memory
    if max_split_size_mb is not None:
        config['max_split_size_mb'] = max_split_size_mb
    return json.dumps(config)


def _parse(no_start: bool, preallocate: bool, strict_release: bool) -> str:
    return json.dumps({'no_start': no_start, 'preallocate': preallocate,
                       'strict_release': strict_release})


def run(trace: Trace, ratio: Optional[float] = None, budget: Optional[int] = None, *,
        runtime: str = DEFAULT_RUNTIME, heuristic: PolicyLike = DEFAULT_HEURISTIC,
        baseline_runtime: str = DEFAULT_RUNTIME, overhead_limit: Optional[float] = None,
        remat_limit: Optional[int] = None, seed: Optional[int] = None, stats: bool = False,
        memory: str = 'bytes', max_split_size_mb: Optional[int] = None,
        no_start: bool = False, preallocate: bool = False,
        strict_release: bool = False) -> Record:
    """One simulation, as ``dtrcheck run TRACE --json``.

    trace: a file or a trace name ('resnet32', see traces()). Exactly one of
    ratio (budget = int(peak * ratio), peak from an unbounded baseline run)
    and budget (bytes). heuristic: a name (simrd's class names, or one a
    plugin registered), a dtrcheck.Heuristic subclass or instance, or a
    heuristic class written for simrd. overhead_limit X or remat_limit N make
    the run 'thrashed' past remat_compute > baseline_compute * (X - 1), or N.
    seed: random.seed(S) for RandomStorage and AbRandom. stats: per-storage
    statistics in the record. memory: the CLI's --memory, 'bytes' (simrd's
    sum of bytes), 'cuda-caching' or 'arena' (the budget is then the
    allocator's device; the record's ``memory`` has its figures), with
    max_split_size_mb for cuda-caching; the policies that read addresses
    (DTE, Coop, MegEngineDTR, MegEngineDTRSqrt) need one of the allocators.
    no_start, preallocate, strict_release: the CLI's parse options of the
    same names.

    The parsed trace and its baselines stay cached for the next call on the
    same file."""
    config = _config(ratio, budget, runtime, heuristic, baseline_runtime, overhead_limit,
                     remat_limit, seed, stats, memory, max_split_size_mb)
    text = _dtrcheck.run(os.fspath(trace), config, _parse(no_start, preallocate, strict_release))
    return Record.from_dict(json.loads(text))


def _decimal_text(v: GridValue) -> str:
    if isinstance(v, bool):
        raise TypeError('a grid bound must be a number or decimal text, not bool')
    if isinstance(v, float):
        return repr(v)  # the shortest text that reads back as v: 0.001, not 0.00100000000000000002
    return str(v)


def _grid(start: Optional[GridValue], stop: Optional[GridValue], step: Optional[GridValue],
          ratios: Optional[Sequence[float]], budgets: Optional[Sequence[int]],
          in_bytes: bool) -> str:
    given = [x is not None for x in (start, stop, step)]
    if ratios is not None or budgets is not None:
        if any(given) or (ratios is not None and budgets is not None):
            raise ValueError('give a grid (start, stop, step) or ratios or budgets, one of them')
        if ratios is not None:
            return json.dumps({'ratios': [float(r) for r in ratios]})
        return json.dumps({'bytes': [int(b) for b in budgets or []]})
    if not all(given):
        raise ValueError('a grid needs start, stop and step (or ratios=[...] or budgets=[...])')
    assert start is not None and stop is not None and step is not None
    return json.dumps({'from': _decimal_text(start), 'to': _decimal_text(stop),
                       'step': _decimal_text(step), 'in_bytes': in_bytes})


def sweep(trace: Trace, start: Optional[GridValue] = None, stop: Optional[GridValue] = None,
          step: Optional[GridValue] = None, *, ratios: Optional[Sequence[float]] = None,
          budgets: Optional[Sequence[int]] = None, in_bytes: bool = False, jobs: int = 1,
          runtime: str = DEFAULT_RUNTIME, heuristic: PolicyLike = DEFAULT_HEURISTIC,
          baseline_runtime: str = DEFAULT_RUNTIME, overhead_limit: Optional[float] = None,
          remat_limit: Optional[int] = None, seed: Optional[int] = None, stats: bool = False,
          memory: str = 'bytes', max_split_size_mb: Optional[int] = None,
          no_start: bool = False, preallocate: bool = False,
          strict_release: bool = False) -> List[Record]:
    """A budget sweep, as ``dtrcheck sweep TRACE --from A --to B --step S``:
    the records in budget order, the same for any ``jobs``.

    The grid is start, start+step, ... up to stop, computed in decimal (pass
    text such as '0.103', or floats, read as their shortest repr), ratios of
    the baseline peak, or byte budgets with in_bytes=True; or an explicit
    list: ratios=[...] or budgets=[...] (bytes). The other options are
    run()'s. A Python policy runs on every thread, one at a time (the GIL)."""
    config = _config(None, None, runtime, heuristic, baseline_runtime, overhead_limit,
                     remat_limit, seed, stats, memory, max_split_size_mb)
    grid = _grid(start, stop, step, ratios, budgets, in_bytes)
    texts = _dtrcheck.sweep(os.fspath(trace), config,
                            _parse(no_start, preallocate, strict_release), grid, jobs)
    return [Record.from_dict(json.loads(t)) for t in texts]


def scan(trace: Trace, start: Optional[GridValue] = None, stop: Optional[GridValue] = None,
         step: Optional[GridValue] = None, *, ratios: Optional[Sequence[float]] = None,
         budgets: Optional[Sequence[int]] = None, in_bytes: bool = False, jobs: int = 1,
         cliff_factor: float = 2.0, cliff_delta: float = 0.001,
         cliff_delta_bytes: Optional[int] = None, rise_factor: float = 1.5,
         refine: bool = False, bisect_bytes: bool = False, diagnose: bool = True,
         runtime: str = DEFAULT_RUNTIME, heuristic: PolicyLike = DEFAULT_HEURISTIC,
         baseline_runtime: str = DEFAULT_RUNTIME, overhead_limit: Optional[float] = None,
         remat_limit: Optional[int] = None, seed: Optional[int] = None,
         memory: str = 'bytes', max_split_size_mb: Optional[int] = None,
         no_start: bool = False, preallocate: bool = False,
         strict_release: bool = False) -> ScanResult:
    """A scan, as ``dtrcheck scan``: sweep() over the grid, then the
    pathology predicates of analysis/pathology.h (feasibility inversions,
    regime cliffs: overheads cliff_factor apart with budgets at most
    cliff_delta of peak, or cliff_delta_bytes, apart; overhead rises by
    rise_factor), each finding refined by bisection with refine=True (to
    adjacent bytes with bisect_bytes=True) and the failed end of each
    inversion diagnosed. Under an allocator model (memory=) the same
    budgets also run under bytes, for the allocator-only findings, unless
    the policy reads addresses (analysis/scan.h)."""
    config = _config(None, None, runtime, heuristic, baseline_runtime, overhead_limit,
                     remat_limit, seed, False, memory, max_split_size_mb)
    grid = _grid(start, stop, step, ratios, budgets, in_bytes)
    settings = json.dumps({'cliff_factor': cliff_factor, 'cliff_delta': cliff_delta,
                           'cliff_delta_bytes': cliff_delta_bytes, 'rise_factor': rise_factor,
                           'refine': refine, 'bisect_bytes': bisect_bytes,
                           'diagnose': diagnose})
    text = _dtrcheck.scan(os.fspath(trace), config,
                          _parse(no_start, preallocate, strict_release), grid, settings, jobs)
    d = json.loads(text)
    return ScanResult(points=[Record.from_dict(p) for p in d['points']],
                      findings=[Finding.from_dict(f) for f in d['findings']],
                      cliff_gap=d['cliff_gap'])


def traces() -> List[TraceInfo]:
    """The public and captured traces (``dtrcheck traces``): where each is
    and whether its SHA-256 verifies."""
    return [TraceInfo(**t) for t in json.loads(_dtrcheck.traces())]


def trace_path(name: Trace) -> str:
    """A trace argument's file: an existing file as given, else the verified
    path of the public or captured trace of that name."""
    return str(_dtrcheck.resolve_trace(os.fspath(name)))


def load_plugin(path: Trace) -> None:
    """Loads a C++ plugin library (as ``dtrcheck --plugin PATH.so``): the
    heuristics it registers become usable by name. Loading a path twice
    does nothing; a library that is missing, not a plugin, of another ABI
    version, or whose names clash raises dtrcheck.Error."""
    _dtrcheck.load_plugin(os.fspath(path))
