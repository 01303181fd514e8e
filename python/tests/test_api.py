"""run, sweep, scan and traces from Python give the CLI's records."""
from __future__ import annotations

import json
import os
import subprocess

import pytest
from conftest import need_trace

import dtrcheck

CLI = os.environ.get('DTRCHECK_CLI')
if CLI and not os.path.exists(CLI):
    CLI = None  # not built


def test_version() -> None:
    assert isinstance(dtrcheck.__version__, str) and dtrcheck.__version__.count('.') == 2


def test_traces_lists_the_public_traces() -> None:
    names = [t.name for t in dtrcheck.traces() if t.kind == 'public']
    assert 'resnet32' in names and 'lstm' in names and len(names) == 8


def test_run_resnet32() -> None:
    need_trace('resnet32')
    r = dtrcheck.run('resnet32', ratio=0.5)
    assert r.status == 'ok'
    assert r.budget == int(r.baseline_peak * 0.5)
    assert r.heuristic == 'DTR' and r.runtime == 'RuntimeV2EagerOptimized'
    assert r.evictions > 0 and len(r.eviction_digest) == 64
    assert r.overhead == (r.model_compute + r.remat_compute) / r.baseline_compute


@pytest.mark.skipif(not CLI, reason='DTRCHECK_CLI not set')
@pytest.mark.parametrize('args', [['--ratio', '0.104', '--overhead-limit', '8'],
                                  ['--ratio', '0.3', '--heuristic', 'LRU', '--stats'],
                                  ['--budget', '900000000', '--remat-limit', '100000000'],
                                  ['--ratio', '0.2', '--heuristic', 'RandomStorage',
                                   '--seed', '3']])
def test_run_is_the_cli_record(args: list) -> None:
    need_trace('resnet32')
    assert CLI is not None
    cli = json.loads(subprocess.run([CLI, 'run', 'resnet32', '--json'] + args, check=True,
                                    capture_output=True, text=True).stdout)
    kw: dict = {}
    it = iter(args)
    for flag in it:
        key = flag[2:].replace('-', '_')
        if key == 'stats':
            kw['stats'] = True
            continue
        value = next(it)
        kw[key] = value if key == 'heuristic' else (float(value) if '.' in value else int(value))
    assert dtrcheck.run('resnet32', **kw).to_dict() == cli


def test_record_round_trip() -> None:
    need_trace('resnet32')
    r = dtrcheck.run('resnet32', ratio=0.3, stats=True)
    assert r.storage_stats and r.storage_stats[0].size > 0
    assert dtrcheck.Record.from_dict(r.to_dict()) == r
    assert list(r.to_dict())[:7] == ['runtime', 'heuristic', 'ratio', 'budget', 'remat_limit',
                                     'seed', 'status']


def test_sweep_matches_runs_and_jobs() -> None:
    need_trace('resnet32')
    records = dtrcheck.sweep('resnet32', '0.100', '0.110', '0.002', overhead_limit=8)
    assert [r.ratio for r in records] == [0.1, 0.102, 0.104, 0.106, 0.108, 0.11]
    assert records == dtrcheck.sweep('resnet32', 0.1, 0.11, 0.002, overhead_limit=8, jobs=2)
    # The published inversion: ok at 0.100, oom at 0.104.
    assert records[0].status == 'ok' and records[2].status == 'oom'
    assert records[2] == dtrcheck.run('resnet32', ratio=0.104, overhead_limit=8)
    explicit = dtrcheck.sweep('resnet32', ratios=[0.104], overhead_limit=8)
    assert explicit == [records[2]]


def test_scan_finds_the_resnet_inversion() -> None:
    need_trace('resnet32')
    result = dtrcheck.scan('resnet32', '0.100', '0.110', '0.001', overhead_limit=8)
    assert len(result.points) == 11
    kinds = [f.kind for f in result.findings]
    assert 'inversion' in kinds
    inversion = result.findings[kinds.index('inversion')]
    assert inversion.low.status == 'ok' and inversion.high.status == 'oom'
    assert inversion.failure is not None and inversion.failure.status == 'oom'
    assert json.dumps(result.to_dict())


def test_to_dataframe() -> None:
    need_trace('resnet32')
    pandas = pytest.importorskip('pandas')
    frame = dtrcheck.to_dataframe(dtrcheck.sweep('resnet32', ratios=[0.3, 0.5]))
    assert isinstance(frame, pandas.DataFrame) and list(frame['ratio']) == [0.3, 0.5]
