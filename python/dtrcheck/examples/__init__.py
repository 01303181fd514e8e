"""Policies written through dtrcheck's Python API (dtrcheck.Heuristic)."""
