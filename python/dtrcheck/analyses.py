"""check_property, reduce, optimal, census: the CLI's analysis commands as
functions returning typed objects (dtrcheck.record). They call the C++
libraries the commands call (analysis/reduce_property.h, reduce/reducer.h,
optimal/regret.h, analysis/census.h), in this process; a failure raises
dtrcheck.Error with the CLI's message, Ctrl-C raises KeyboardInterrupt."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _dtrcheck
from .heuristic import PolicyLike
from .record import Census, CensusRow, Optimum, PropertyCheck, Record, Reduction
from .simulation import DEFAULT_HEURISTIC, DEFAULT_RUNTIME, Trace, _config


def _budget(ratio: Optional[float], nbytes: Optional[int]) -> Optional[Dict[str, Any]]:
    if ratio is not None and nbytes is not None:
        raise ValueError('give a budget as a ratio or in bytes, not both')
    if ratio is not None:
        return {'ratio': float(ratio)}
    if nbytes is not None:
        return {'bytes': str(int(nbytes))}
    return None


def _spec(prop: str, lo: Optional[float], hi: Optional[float], lo_bytes: Optional[int],
          hi_bytes: Optional[int], factor: float, failure: str, runtime: str,
          heuristic: PolicyLike, baseline_runtime: str, overhead_limit: Optional[float],
          remat_limit: Optional[int], seed: Optional[int]) -> str:
    if (lo is not None or hi is not None) and (lo_bytes is not None or hi_bytes is not None):
        raise _dtrcheck.Error('dtrcheck reduce: give budgets either as ratios (lo/hi) or as '
                              'bytes (lo_bytes/hi_bytes)')
    high = _budget(hi, hi_bytes)
    if high is None:
        raise _dtrcheck.Error('dtrcheck reduce: a budget is required: hi=R (and lo=R) or '
                              'hi_bytes=B (and lo_bytes=B)')
    config = json.loads(_config(None, None, runtime, heuristic, baseline_runtime,
                                overhead_limit, remat_limit, seed, False))
    return json.dumps({'property': prop, 'config': config, 'lo': _budget(lo, lo_bytes),
                       'hi': high, 'factor': factor, 'failure': failure})


def check_property(trace: Trace, prop: str, *, lo: Optional[float] = None,
                   hi: Optional[float] = None, lo_bytes: Optional[int] = None,
                   hi_bytes: Optional[int] = None, factor: float = 2.0, failure: str = 'any',
                   runtime: str = DEFAULT_RUNTIME, heuristic: PolicyLike = DEFAULT_HEURISTIC,
                   baseline_runtime: str = DEFAULT_RUNTIME,
                   overhead_limit: Optional[float] = None, remat_limit: Optional[int] = None,
                   seed: Optional[int] = None) -> PropertyCheck:
    """Whether a property (one of dtrcheck.PROPERTIES: 'inversion', 'cliff',
    'pinned-oom', 'overhead-rise') holds on the trace at two budgets, lo <
    hi, as ratios of the trace's baseline peak (lo, hi) or bytes (lo_bytes,
    hi_bytes); pinned-oom needs only hi. factor: cliff and overhead-rise's
    factor. failure: how an inversion's hi must fail ('oom', 'thrashed',
    'same' as on this trace, or 'any'). The other options are run()'s."""
    spec = _spec(prop, lo, hi, lo_bytes, hi_bytes, factor, failure, runtime, heuristic,
                 baseline_runtime, overhead_limit, remat_limit, seed)
    return PropertyCheck.from_dict(json.loads(_dtrcheck.check_property(os.fspath(trace), spec)))


def reduce(trace: Trace, prop: str, out: Trace, *, lo: Optional[float] = None,
           hi: Optional[float] = None, lo_bytes: Optional[int] = None,
           hi_bytes: Optional[int] = None, factor: float = 2.0, failure: str = 'same',
           runtime: str = DEFAULT_RUNTIME, heuristic: PolicyLike = DEFAULT_HEURISTIC,
           baseline_runtime: str = DEFAULT_RUNTIME, overhead_limit: Optional[float] = None,
           remat_limit: Optional[int] = None, seed: Optional[int] = None) -> Reduction:
    """``dtrcheck reduce TRACE --property PROP -o OUT``: shrinks the trace to
    a 1-minimal one on which the property (check_property()'s arguments)
    still holds, and writes it to out. Without the CLI's manifest and
    simrd's confirmation (use the CLI to archive a finding). Raises
    dtrcheck.Error if the property does not hold on the trace; Ctrl-C
    raises KeyboardInterrupt (nothing is written)."""
    spec = _spec(prop, lo, hi, lo_bytes, hi_bytes, factor, failure, runtime, heuristic,
                 baseline_runtime, overhead_limit, remat_limit, seed)
    text = _dtrcheck.reduce(os.fspath(trace), spec, os.fspath(out))
    return Reduction.from_dict(json.loads(text))


def optimal(trace: Trace, ratio: Optional[float] = None, budget: Optional[int] = None, *,
            time_limit: float = 60.0, engine: str = 'both', runtime: str = DEFAULT_RUNTIME,
            heuristic: PolicyLike = DEFAULT_HEURISTIC,
            baseline_runtime: str = DEFAULT_RUNTIME, overhead_limit: Optional[float] = None,
            remat_limit: Optional[int] = None, seed: Optional[int] = None) -> Optimum:
    """``dtrcheck optimal --json``: the minimum total compute of running the
    trace under the budget (ratio of the baseline peak, or bytes), with any
    result freed and recomputed, its schedule checked independently, beside
    the heuristic's run (regret). time_limit: wall seconds for the whole
    call, then the best schedule so far is reported as not proven. engine:
    'both', 'search' or 'milp' (optimal/README.md)."""
    config = _config(ratio, budget, runtime, heuristic, baseline_runtime, overhead_limit,
                     remat_limit, seed, False)
    text = _dtrcheck.optimal(os.fspath(trace), config, float(time_limit), engine)
    return Optimum.from_dict(json.loads(text))


CensusInput = Union[Mapping[Trace, Sequence[Record]], Sequence[Tuple[Trace, Sequence[Record]]]]


def census(inputs: CensusInput, *, jobs: int = 1, memory: Optional[str] = None,
           max_split_size_mb: Optional[int] = None) -> Census:
    """``dtrcheck census``: ranks policies over sweep records. inputs maps
    each trace (a file or a name) to sweep records of its policies (sweep()'s
    results, several heuristics' records together, one overhead limit), or
    is a list of (trace, records). One row per policy (heuristic and seed)
    and trace, then the per-policy sums (trace 'all'); jobs: threads
    diagnosing inversions. memory (and max_split_size_mb), as ``census
    --memory``: the model every input's records must be runs under
    (dtrcheck.Error naming the input otherwise); None: each input's own.
    Records under an allocator fill the allocator-only columns."""
    pairs = list(inputs.items()) if isinstance(inputs, Mapping) else list(inputs)
    encoded = [(os.fspath(t), [json.dumps(r.to_dict()) for r in records])
               for t, records in pairs]
    model = ''
    if memory is not None or max_split_size_mb is not None:
        model = json.dumps({'memory': 'bytes' if memory is None else memory,
                            'max_split_size_mb': max_split_size_mb})
    d = json.loads(_dtrcheck.census(encoded, jobs, model))
    return Census(rows=[CensusRow(**r) for r in d['rows']], markdown=d['markdown'],
                  csv=d['csv'])


__all__: List[str] = ['census', 'check_property', 'optimal', 'reduce']
