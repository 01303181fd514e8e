"""dtrcheck from Python: simulate DTR eviction policies exactly as simrd
does, sweep and scan budgets for pathologies, and write policies in Python.

    >>> import dtrcheck
    >>> dtrcheck.run('resnet32', ratio=0.5).status
    'ok'

Functions: run, sweep, scan, traces, trace_path (dtrcheck.simulation);
check_property, reduce, optimal, census (dtrcheck.analyses); results:
Record, ScanResult, Finding, TraceInfo, PropertyCheck, Reduction, Optimum,
Census, to_dataframe (dtrcheck.record); policies: Heuristic, View (and its
Block, FreeAdjacent, Request, Piece), register (dtrcheck.heuristic)
and simrd's own heuristic classes through dtrcheck.simrd_adapter. Errors
raise dtrcheck.Error (a ValueError and a RuntimeError) with the CLI's
message. See python/README.md.
"""
from . import _dtrcheck
from .analyses import census, check_property, optimal, reduce
from .heuristic import (FEATURES, NO_STORAGE, Block, FreeAdjacent, Heuristic, Piece, Request, View,
                        heuristic_names, register)
from .record import (FINDING_KINDS, PROPERTIES, STATUSES, Budget, Census, CensusRow, Failure,
                     Finding, FindingEnd, FuzzCheck, FuzzFinding, MemoryRecord, Optimum,
                     PropertyCheck, Record, Reduction, Refinement, ScanResult, StorageStat,
                     TraceInfo, to_dataframe)
from .simulation import load_plugin, run, scan, sweep, trace_path, traces

__version__: str = _dtrcheck.__version__

#: Raised for bad input and failed commands, with the CLI's message.
Error = _dtrcheck.Error
Error.__module__ = 'dtrcheck'

__all__ = ['Block', 'Budget', 'Census', 'CensusRow', 'Error', 'FEATURES', 'FINDING_KINDS',
           'Failure', 'Finding', 'FindingEnd', 'FreeAdjacent', 'FuzzCheck', 'FuzzFinding',
           'Heuristic', 'MemoryRecord', 'NO_STORAGE', 'Optimum', 'PROPERTIES', 'Piece',
           'PropertyCheck', 'Record', 'Reduction', 'Refinement', 'Request',
           'STATUSES', 'ScanResult', 'StorageStat', 'TraceInfo', 'View', '__version__', 'census',
           'check_property', 'heuristic_names', 'load_plugin', 'optimal', 'reduce', 'register',
           'run', 'scan', 'sweep', 'to_dataframe', 'trace_path', 'traces']
