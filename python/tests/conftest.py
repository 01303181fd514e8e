"""Shared fixtures: the public traces the tests read (skipped when absent)."""
from __future__ import annotations

import pytest

import dtrcheck


def have_trace(name: str) -> bool:
    return any(t.name == name and t.verified for t in dtrcheck.traces())


def need_trace(name: str) -> str:
    if not have_trace(name):
        pytest.skip(f'public trace {name} not found (DTRCHECK_TRACES)')
    return name


def without_name(record: dtrcheck.Record) -> dict:
    """A record's fields but the heuristic's name (a Python policy's differs)."""
    d = record.to_dict()
    d.pop('heuristic')
    return d
