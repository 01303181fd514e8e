"""The Python client of the simrd oracle (oracle/simrd_oracle.py), the one
every Python tool uses (oracle/simrd_client.h is the C++ one).

    from oracle import simrd_client
    if simrd_client.available():
        records = simrd_client.batch(trace, [{'ratio': 0.5}, {'ratio': 0.3}])

The oracle runs as a child process (no shell) in its batch mode: one
interpreter parses the trace once and prints one record per configuration
(oracle/README.md: configurations and records). `replay` compares records
with dtrcheck's through `dtrcheck replay`, the one field-by-field
comparison. Import it with the repository root on the path (run tools as
`python3 -m oracle.record_corpus`, or with PYTHONPATH set, as ctest does).
"""
import functools
import importlib
import json
import os
import subprocess
import sys
import tempfile
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence

Config = Dict[str, Any]  # the oracle's configuration keys (oracle/README.md)
Record = Dict[str, Any]  # a record, or {'error': ...} for a refused configuration

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'simrd_oracle.py')
EXIT_NO_SIMRD = 3  # simrd_oracle.py's exit code when simrd or attrs is missing


class SimrdUnavailable(Exception):
    """simrd (or attrs) is not installed; the message is the oracle's."""


class OracleError(Exception):
    """The oracle failed or printed fewer records than it was asked for."""


def oracle_script() -> str:
    """$DTRCHECK_ORACLE, else oracle/simrd_oracle.py beside this file."""
    return os.environ.get('DTRCHECK_ORACLE') or ORACLE


def command(subcommand: str, trace: str, options: Sequence[str] = ()) -> List[str]:
    """The oracle's command line (parse options: --no-start, --preallocate,
    --strict-release)."""
    return [sys.executable, oracle_script(), subcommand, trace, *options]


@functools.lru_cache(maxsize=None)
def unavailable_reason() -> Optional[str]:
    """None when simrd can be run, else the oracle's reason (first line)."""
    probe = subprocess.run(command('run', os.devnull, ['--budget', '1']),
                           capture_output=True, text=True)
    if probe.returncode != EXIT_NO_SIMRD:
        return None
    lines = probe.stderr.strip().splitlines()
    return lines[0] if lines else 'simrd is not available'


def available() -> bool:
    """Whether simrd is installed where the oracle looks for it."""
    return unavailable_reason() is None


def batch(trace: str, configs: Sequence[Config], options: Sequence[str] = ()) -> List[Record]:
    """One record per configuration, in order, from one oracle process.
    Raises SimrdUnavailable or OracleError."""
    proc = subprocess.run(command('batch', trace, options),
                          input=''.join(json.dumps(c) + '\n' for c in configs),
                          capture_output=True, text=True)
    if proc.returncode == EXIT_NO_SIMRD:
        raise SimrdUnavailable(proc.stderr.strip())
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    if len(records) != len(configs):
        raise OracleError(f'the oracle printed {len(records)} records for {len(configs)} '
                          f'configurations (exit {proc.returncode}): {proc.stderr[-2000:]}')
    return records


def run(trace: str, config: Config, options: Sequence[str] = ()) -> Record:
    """The record of one configuration."""
    return batch(trace, [config], options)[0]


def replay(dtrcheck: str, cases: Sequence[Dict[str, Any]]) -> 'subprocess.CompletedProcess[str]':
    """Runs `dtrcheck replay` on cases {'trace': public name or path,
    'config': ..., 'record': simrd's}: every parity field compared, a FAIL
    line per difference, exit 1 if any. Output is inherited."""
    with tempfile.NamedTemporaryFile('w', suffix='.jsonl', delete=False) as f:
        for case in cases:
            f.write(json.dumps(case) + '\n')
    try:
        return subprocess.run([dtrcheck, 'replay', f.name], text=True)
    finally:
        os.unlink(f.name)


def load_simrd() -> ModuleType:
    """simrd imported into this process, for tools that watch its internals
    (tests/sweep/simrd_diagnose.py). Exits 3 with the oracle's message when
    simrd is missing."""
    # The oracle is a script, run in its own process everywhere else; only
    # this loader is borrowed from it.
    oracle = importlib.import_module('oracle.simrd_oracle')
    module: ModuleType = oracle.load_simrd()
    return module
