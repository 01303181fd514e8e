"""Typed results: a run's Record (every field of `dtrcheck run --json`), a
scan's findings, the trace listing. Each converts to a plain dict with
``to_dict()``; ``to_dataframe`` makes a pandas DataFrame where pandas is
installed."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Union

Number = Union[int, float]


@dataclass(frozen=True)
class StorageStat:
    """One row of a record's per-storage statistics (``stats=True``)."""

    root_id: int
    size: int
    evict_count: int
    direct_remat_count: int
    collateral_remat_count: int


@dataclass(frozen=True)
class Record:
    """The record of one simulation, field for field the JSON object that
    ``dtrcheck run --json`` prints (integers exact at any size).

    ``status`` is ``'ok'``, ``'oom'``, ``'thrashed'`` or ``'error'``
    (``message`` then holds the simrd assertion); ``remat_limit`` is a float
    from an overhead limit, an int when given in bytes, else None;
    ``storage_stats`` is None unless the run asked for ``stats=True``."""

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
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(fields) - known
        if unknown:
            raise ValueError(f'record: unknown fields {sorted(unknown)}')
        rows = None if stats is None else [StorageStat(**row) for row in stats]
        return cls(storage_stats=rows, **fields)

    def to_dict(self) -> Dict[str, Any]:
        """The record as the CLI's JSON object: the same keys in the same
        order (``message`` only for an error, ``storage_stats`` only with
        stats)."""
        d: Dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == 'message' and value is None:
                continue
            if f.name == 'storage_stats':
                if value is None:
                    continue
                value = [dataclasses.asdict(row) for row in value]
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
    ``'inversion'``, ``'cliff'`` or ``'overhead-rise'``."""

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


def to_dataframe(records: Iterable[Record]) -> Any:
    """A pandas DataFrame with one row per record (the columns of
    ``Record.to_dict()`` and ``overhead``). Needs pandas (optional; Debian's
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
        row['overhead'] = r.overhead
        rows.append(row)
    return pandas.DataFrame(rows)
