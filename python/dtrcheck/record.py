"""Typed results: a run's Record (every field of `dtrcheck run --json`), a
scan's findings, the trace listing, a property's check, a reduction, an
optimum, a census and a fuzz input's check. Each converts to a plain dict
with ``to_dict()``; ``to_dataframe`` makes a pandas DataFrame where pandas
is installed. The names the C++ code gives (statuses, finding kinds,
properties) are read from it: STATUSES, FINDING_KINDS, PROPERTIES."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from . import _dtrcheck

Number = Union[int, float]

#: A run's status: 'ok', 'oom', 'thrashed', 'error' (sim/simulate.h).
STATUSES: Tuple[str, ...] = tuple(_dtrcheck.statuses())
#: The kinds of a scan's findings (analysis/pathology.h).
FINDING_KINDS: Tuple[str, ...] = tuple(_dtrcheck.finding_kinds())
#: The properties a trace is checked and reduced with (analysis/reduce_property.h).
PROPERTIES: Tuple[str, ...] = tuple(_dtrcheck.property_names())


@dataclass(frozen=True)
class StorageStat:
    """One row of a record's per-storage statistics (``stats=True``)."""

    root_id: int
    size: int
    evict_count: int
    direct_remat_count: int
    collateral_remat_count: int


@dataclass(frozen=True)
class MemoryRecord:
    """The allocator's figures of a run under ``memory='cuda-caching'`` or
    ``'arena'`` (the record's ``"memory"`` object, io/record.h):
    ``max_split_size_mb`` only when the run set it."""

    model: str
    reserved_peak: int
    allocated_peak: int
    peak_reserved_minus_allocated: int
    peak_largest_free_block: int
    evictions_bytes_fit: int
    segments: int
    device_allocations: int
    device_frees: int
    alloc_retries: int
    refusals: int
    max_split_size_mb: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON object: the same keys in the same order."""
        d = dataclasses.asdict(self)
        if self.max_split_size_mb is None:
            del d['max_split_size_mb']
        return d


@dataclass(frozen=True)
class Record:
    """The record of one simulation, field for field the JSON object that
    ``dtrcheck run --json`` prints (integers exact at any size).

    ``status`` is one of STATUSES (``message`` holds the simrd assertion
    of an ``'error'``); ``remat_limit`` is a float
    from an overhead limit, an int when given in bytes, else None;
    ``storage_stats`` is None unless the run asked for ``stats=True``;
    ``memory`` is None under simrd's bytes, else the allocator's figures."""

    runtime: str
    heuristic: str
    ratio: Optional[float]
    budget: int
    remat_limit: Optional[Number]
    seed: Optional[int]
    status: str
    clock: int
    model_compute: int
    remat_compute: int
    max_memory: int
    model_const_memory: int
    bottleneck_memory: int
    heuristic_eval_count: int
    heuristic_access_count: int
    memory_usage: int
    evictions: int
    distinct_evicted: int
    eviction_digest: str
    baseline_peak: int
    baseline_compute: int
    message: Optional[str] = None
    storage_stats: Optional[List[StorageStat]] = None
    memory: Optional[MemoryRecord] = None

    @property
    def overhead(self) -> float:
        """(model + remat compute) / the baseline's model compute, as the CLI
        prints it (0 for a baseline without compute)."""
        if self.baseline_compute == 0:
            return 0.0
        return (self.model_compute + self.remat_compute) / self.baseline_compute

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'Record':
        """A Record from the JSON object of ``dtrcheck run --json``."""
        fields = dict(d)
        stats = fields.pop('storage_stats', None)
        memory = fields.pop('memory', None)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(fields) - known
        if unknown:
            raise ValueError(f'record: unknown fields {sorted(unknown)}')
        rows = None if stats is None else [StorageStat(**row) for row in stats]
        return cls(storage_stats=rows,
                   memory=None if memory is None else MemoryRecord(**memory), **fields)

    def to_dict(self) -> Dict[str, Any]:
        """The record as the CLI's JSON object: the same keys in the same
        order (``message`` only for an error, ``storage_stats`` only with
        stats, ``memory`` only under an allocator model)."""
        d: Dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ('message', 'storage_stats', 'memory') and value is None:
                continue
            if f.name == 'storage_stats':
                value = [dataclasses.asdict(row) for row in value]
            if f.name == 'memory':
                value = value.to_dict()
            d[f.name] = value
        order = ['runtime', 'heuristic', 'ratio', 'budget', 'remat_limit', 'seed', 'status',
                 'message', 'clock']
        head = {k: d[k] for k in order if k in d}
        head.update((k, v) for k, v in d.items() if k not in head)
        return head


@dataclass(frozen=True)
class FindingEnd:
    """One end of a finding: a budget (and the ratio it came from), the run's
    status and overhead."""

    ratio: Optional[float]
    budget: int
    status: str
    overhead: float


@dataclass(frozen=True)
class Refinement:
    """A finding bisected to its narrowest witnesses (scan ``refine=True``)."""

    low: FindingEnd
    high: FindingEnd
    factor: float
    description: str
    low_record: Record
    high_record: Record
    runs: int
    stop_reason: str


@dataclass(frozen=True)
class Failure:
    """The diagnosed failed end of an inversion."""

    status: str
    pinned_frontier_oom: bool
    max_locked_bytes: int
    max_locked_clock: int


@dataclass(frozen=True)
class Finding:
    """A pathology between two grid points (analysis/pathology.h): kind is
    one of FINDING_KINDS."""

    kind: str
    low: FindingEnd
    high: FindingEnd
    factor: float
    description: str
    refined: Optional[Refinement] = None
    failure: Optional[Failure] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'Finding':
        refined = d.get('refined')
        failure = d.get('failure')
        return cls(
            kind=d['kind'], low=FindingEnd(**d['low']), high=FindingEnd(**d['high']),
            factor=d['factor'], description=d['description'],
            refined=None if refined is None else Refinement(
                low=FindingEnd(**refined['low']), high=FindingEnd(**refined['high']),
                factor=refined['factor'], description=refined['description'],
                low_record=Record.from_dict(refined['low_record']),
                high_record=Record.from_dict(refined['high_record']),
                runs=refined['runs'], stop_reason=refined['stop_reason']),
            failure=None if failure is None else Failure(**failure))

    def to_dict(self) -> Dict[str, Any]:
        """The finding as plain dicts and lists."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class ScanResult:
    """A scan: the grid's records in budget order and the findings
    (inversions, cliffs, then overhead rises)."""

    points: List[Record]
    findings: List[Finding]
    cliff_gap: int

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts: points as the CLI's records, findings as dicts."""
        return {'points': [p.to_dict() for p in self.points],
                'findings': [f.to_dict() for f in self.findings],
                'cliff_gap': self.cliff_gap}


@dataclass(frozen=True)
class TraceInfo:
    """A public or captured trace (``dtrcheck traces``): path is None when
    the file is not found; verified when its SHA-256 is the pinned one."""

    name: str
    kind: str
    model: str
    file: str
    sha256: str
    path: Optional[str]
    verified: bool

    def to_dict(self) -> Dict[str, Any]:
        """The trace's fields as a dict."""
        return dataclasses.asdict(self)


def _record_of_run(d: Dict[str, Any]) -> Record:
    """A Record from a run as a manifest holds it (the record plus its
    overhead, which Record computes)."""
    fields = dict(d)
    fields.pop('overhead', None)
    return Record.from_dict(fields)


@dataclass(frozen=True)
class Budget:
    """A budget of a property: bytes, and the ratio of the trace's baseline
    peak it came from (None for a byte budget)."""

    bytes: int
    ratio: Optional[float] = None


@dataclass(frozen=True)
class PropertyCheck:
    """A property (one of PROPERTIES) checked on a trace at its budgets:
    whether it holds, the one-line summary, the budgets (``'lo'``, ``'hi'``)
    and the runs at them (lo first); ``oom`` the failed run's diagnosis of
    a pinned-oom (tensor, request, resident, locked_bytes, ...)."""

    holds: bool
    summary: str
    budgets: Dict[str, Budget]
    runs: List[Record]
    oom: Optional[Dict[str, Any]] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'PropertyCheck':
        """From the manifest's form (analysis/finding_manifest.h, CheckToJson)."""
        return cls(holds=d['holds'], summary=d['summary'],
                   budgets={k: Budget(**v) for k, v in d['budgets'].items()},
                   runs=[_record_of_run(r) for r in d['dtrcheck']], oom=d.get('oom'))

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts: runs as the CLI's records."""
        return {'holds': self.holds, 'summary': self.summary,
                'budgets': {k: dataclasses.asdict(v) for k, v in self.budgets.items()},
                'runs': [r.to_dict() for r in self.runs], 'oom': self.oom}


@dataclass(frozen=True)
class Reduction:
    """A reduced trace (``dtrcheck reduce`` without the manifest): the file
    written, the property before and after, the sizes before and after
    (``{'before': n, 'after': m}``), candidates tested, rounds, whether a
    full round changed nothing (1-minimal), seconds."""

    trace: str
    before: PropertyCheck
    after: PropertyCheck
    operators: Dict[str, int]
    instructions: Dict[str, int]
    tests: int
    rounds: int
    one_minimal: bool
    seconds: float

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'Reduction':
        """From the extension's JSON."""
        fields = dict(d)
        fields['before'] = PropertyCheck.from_dict(d['before'])
        fields['after'] = PropertyCheck.from_dict(d['after'])
        return cls(**fields)

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d['before'] = self.before.to_dict()
        d['after'] = self.after.to_dict()
        return d


@dataclass(frozen=True)
class HeuristicRun:
    """The heuristic's own run beside an optimum."""

    name: str
    runtime: str
    status: str
    overhead: float


@dataclass(frozen=True)
class Optimum:
    """``dtrcheck optimal --json``: the minimum total compute at a budget
    (status 'optimal', 'feasible' (not proven), 'infeasible' or 'unknown';
    optimal/optimum.h), its overhead, the solver's bounds, the independent
    check of its schedule, and the heuristic's run beside it (``regret``:
    the heuristic's overhead minus the optimum's, when both are known)."""

    budget: int
    status: str
    lp_bound: float
    best_bound: float
    seconds: float
    heuristic: HeuristicRun
    trace: str
    ratio: Optional[float]
    peak: int
    baseline_compute: int
    nodes: int
    recomputations: int
    description: str
    compute: Optional[int] = None
    overhead: Optional[float] = None
    engine: Optional[str] = None
    proof: Optional[str] = None
    warm_start: Optional[str] = None
    #: What proves best_bound: "search", or "live memory, at the first run
    #: of NODE" (optimal/live_memory_bound.h).
    bound_proof: Optional[str] = None
    #: The warm-start runs: {"run", "checked_ok", "skipped"} (those not run
    #: because the time limit came first).
    warm_starts: Optional[Dict[str, int]] = None
    interrupted: bool = False
    model_gaps: List[str] = dataclasses.field(default_factory=list)
    schedule_check: Optional[str] = None
    regret: Optional[float] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'Optimum':
        """From the extension's JSON (optimal/regret.h, RegretToJson)."""
        fields = dict(d)
        fields['heuristic'] = HeuristicRun(**d['heuristic'])
        return cls(**fields)

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class CensusRow:
    """One policy on one trace (trace 'all': the per-policy sum), as a row
    of ``dtrcheck census`` (analysis/census.h)."""

    policy: str
    trace: str
    limit: str
    points: int
    ok: int
    oom: int
    thrashed: int
    inversions: int
    cliffs: int
    rises: int
    pinned_frontier: int
    smallest_feasible: Optional[float]
    mean_overhead: float
    worst_overhead: float
    hidden_cost: float
    #: The smallest ok budget in bytes (the device's capacity under an
    #: allocator).
    smallest_feasible_bytes: Optional[int] = None
    #: At the ratios 0.3, 0.4, 0.5, 0.7, 0.9: the overhead ("1.234"), the
    #: failure ("oom", "thrashed"), or "-" where the grid lacks the ratio;
    #: empty in a per-policy sum.
    at_ratios: List[str] = dataclasses.field(default_factory=list)
    #: Under an allocator model (the policy then names it): the
    #: allocator-only findings (analysis/allocator_pathology.h).
    allocator: bool = False
    fragmentation_ooms: int = 0
    allocator_inversions: int = 0
    allocator_cliffs: int = 0
    reserved_peak_inversions: int = 0
    #: Under an allocator, at the smallest ok budget: the most bytes
    #: reserved but not allocated at one time, over that budget.
    floor_fragmentation: Optional[float] = None

    def to_dict(self) -> Dict[str, Any]:
        """The row as a dict."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Census:
    """A census: its rows (per policy and trace, then the per-policy sums)
    and the CLI's markdown and csv tables of them."""

    rows: List[CensusRow]
    markdown: str
    csv: str

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class FuzzFinding:
    """A pathology the pathology fuzzer's check found in one input
    (fuzz/lib/fuzz_check.h): kind ('inversion', 'pinned-oom', 'cliff' or
    'simrd-error'), its signature and id, one line, the two ends, and what
    to reduce it with."""

    kind: str
    signature: str
    id: str
    description: str
    lo: FindingEnd
    hi: FindingEnd
    detail: Optional[str] = None
    factor: Optional[float] = None
    property: Optional[str] = None
    reduce_arguments: Optional[List[str]] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'FuzzFinding':
        """From fuzz/lib/fuzz_check.h's FuzzFindingToJson."""
        fields = dict(d)
        for end in ('lo', 'hi'):
            e = d[end]  # no 'ratio' key for a byte budget
            fields[end] = FindingEnd(ratio=e.get('ratio'), budget=e['budget'],
                                     status=e['status'], overhead=e['overhead'])
        return cls(**fields)

    def to_dict(self) -> Dict[str, Any]:
        """The finding as a dict."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class FuzzCheck:
    """One fuzz input checked: the case it decodes to (``dtrcheck
    fuzz-decode``'s JSON and text), the records of its grid and the
    findings."""

    case: Dict[str, Any]
    description: str
    points: List[Record]
    findings: List[FuzzFinding]

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> 'FuzzCheck':
        """From the extension's JSON."""
        return cls(case=d['case'], description=d['description'],
                   points=[Record.from_dict(p) for p in d['points']],
                   findings=[FuzzFinding.from_dict(f) for f in d['findings']])

    def to_dict(self) -> Dict[str, Any]:
        """Plain dicts."""
        return {'case': self.case, 'description': self.description,
                'points': [p.to_dict() for p in self.points],
                'findings': [f.to_dict() for f in self.findings]}


def to_dataframe(records: Iterable[Record]) -> Any:
    """A pandas DataFrame with one row per record (the columns of
    ``Record.to_dict()``, the allocator's as ``memory_`` + its keys, and
    ``overhead``). Needs pandas (optional; Debian's
    python3-pandas); raises ImportError saying so without it."""
    try:
        import pandas  # type: ignore[import-not-found]
    except ImportError as e:
        raise ImportError('dtrcheck.to_dataframe needs pandas (apt-get install python3-pandas '
                          'or pip install pandas)') from e
    rows = []
    for r in records:
        row = r.to_dict()
        row.pop('storage_stats', None)
        memory = row.pop('memory', None)
        if memory is not None:  # flat columns: memory_model, memory_reserved_peak, ...
            row.update(('memory_' + k, v) for k, v in memory.items())
        row['overhead'] = r.overhead
        rows.append(row)
    return pandas.DataFrame(rows)
