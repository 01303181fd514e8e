"""check_property, reduce, optimal and census from Python: the same results
as the CLI's commands (DTRCHECK_CLI, the dtrcheck binary of the build), and
their errors as dtrcheck.Error with the CLI's message."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict, List

import pytest
from conftest import need_trace

import dtrcheck

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLI = os.environ.get('DTRCHECK_CLI', os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
# An archived inversion (corpus/inversion/0266b2e6f5a31b5e): its fuzz input
# decodes to the trace it was reduced from; the manifest's reduce command.
CASE = os.path.join(ROOT, 'corpus', 'inversion', '0266b2e6f5a31b5e')
REDUCE_ARGS: Dict[str, Any] = dict(lo=0.751, hi=0.761, runtime='RuntimeV2Eager',
                                   heuristic='AbSize', overhead_limit=1.5)
REDUCE_CLI = ['--property', 'inversion', '--lo', '0.751', '--hi', '0.761', '--runtime',
              'RuntimeV2Eager', '--heuristic', 'AbSize', '--overhead-limit', '1.5']


def cli(*args: str) -> str:
    if not os.path.exists(CLI):
        pytest.skip(f'no CLI at {CLI}')
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout


def original_trace(tmp_path: Any) -> str:
    out = str(tmp_path / 'original.log')
    with open(os.path.join(CASE, 'input.bin'), 'rb') as f:
        dtrcheck._dtrcheck.fuzz_case_trace(f.read(), out)
    return out


def test_names_come_from_cpp() -> None:
    assert 'ok' in dtrcheck.STATUSES and 'inversion' in dtrcheck.FINDING_KINDS
    assert set(dtrcheck.PROPERTIES) >= {'inversion', 'cliff', 'pinned-oom', 'overhead-rise'}


def test_check_property_is_the_runs() -> None:
    need_trace('resnet32')
    c = dtrcheck.check_property('resnet32', 'inversion', lo=0.101, hi=0.104, overhead_limit=8)
    assert c.holds
    assert [r.status for r in c.runs] == ['ok', c.runs[1].status] and c.runs[1].status != 'ok'
    for r, ratio in zip(c.runs, (0.101, 0.104)):
        assert r == dtrcheck.run('resnet32', ratio=ratio, overhead_limit=8)
    assert c.budgets['hi'].bytes == c.runs[1].budget and c.budgets['lo'].ratio == 0.101
    assert not dtrcheck.check_property('resnet32', 'inversion', lo=0.5, hi=0.6).holds


def test_reduce_is_the_cli_reduction(tmp_path: Any) -> None:
    original = original_trace(tmp_path)
    r = dtrcheck.reduce(original, 'inversion', tmp_path / 'py.log', **REDUCE_ARGS)
    cli('reduce', original, *REDUCE_CLI, '--no-oracle', '-o', str(tmp_path / 'cli.log'))
    manifest = json.load(open(tmp_path / 'cli.manifest.json'))
    assert open(tmp_path / 'py.log').read() == open(tmp_path / 'cli.log').read()
    assert r.before.holds and r.after.holds and r.one_minimal
    assert r.operators == manifest['operators'] and r.instructions == manifest['instructions']
    assert r.tests == manifest['reduction']['tests']
    assert r.after.summary == manifest['summary']
    # The archived reduction is this one.
    assert open(tmp_path / 'py.log').read() == open(os.path.join(CASE, 'trace.log')).read()


def test_reduce_refuses_when_the_property_does_not_hold(tmp_path: Any) -> None:
    original = original_trace(tmp_path)
    with pytest.raises(dtrcheck.Error,
                       match=r'^dtrcheck reduce: the inversion property does not hold on '):
        dtrcheck.reduce(original, 'inversion', tmp_path / 'out.log', lo=0.9, hi=0.95)
    assert not (tmp_path / 'out.log').exists()
    with pytest.raises(dtrcheck.Error, match='budget is required'):
        dtrcheck.reduce(original, 'inversion', tmp_path / 'out.log')
    with pytest.raises(dtrcheck.Error, match=r'^dtrcheck reduce: .*no-such-property'):
        dtrcheck.check_property(original, 'no-such-property', lo=0.5, hi=0.6)


def test_optimal_is_the_cli_optimum() -> None:
    trace = os.path.join(CASE, 'trace.log')
    o = dtrcheck.optimal(trace, ratio=0.761, runtime='RuntimeV2Eager', heuristic='AbSize',
                         time_limit=30)
    c = json.loads(cli('optimal', trace, '--ratio', '0.761', '--runtime', 'RuntimeV2Eager',
                       '--heuristic', 'AbSize', '--time-limit', '30', '--json'))
    for key in ('budget', 'status', 'compute', 'overhead', 'peak', 'baseline_compute', 'nodes',
                'regret'):
        assert getattr(o, key) == c.get(key), key
    assert o.heuristic.status == c['heuristic']['status'] == 'oom'
    assert o.status == 'optimal' and o.schedule_check == 'ok'


def test_optimal_errors() -> None:
    trace = os.path.join(CASE, 'trace.log')
    with pytest.raises(dtrcheck.Error, match='^dtrcheck optimal: .*budget'):
        dtrcheck.optimal(trace)
    with pytest.raises(dtrcheck.Error, match='^dtrcheck optimal: engine'):
        dtrcheck.optimal(trace, ratio=0.8, engine='fast')


def test_census_is_the_cli_census(tmp_path: Any) -> None:
    need_trace('resnet32')
    records: List[dtrcheck.Record] = []
    for h in ('DTR', 'LRU'):
        records += dtrcheck.sweep('resnet32', '0.10', '0.14', '0.01', heuristic=h,
                                  overhead_limit=8)
    c = dtrcheck.census({'resnet32': records})
    path = tmp_path / 'records.jsonl'
    path.write_text(''.join(json.dumps(r.to_dict()) + '\n' for r in records))
    assert c.markdown == cli('census', f'resnet32={path}')
    assert [(r.policy, r.trace) for r in c.rows] == [('DTR', 'resnet32'), ('LRU', 'resnet32'),
                                                     ('DTR', 'all'), ('LRU', 'all')]
    assert c.rows[0].points == 5 and c.rows[0].ok + c.rows[0].oom + c.rows[0].thrashed == 5
    ok = [r.budget for r in records if r.heuristic == 'DTR' and r.status == 'ok']
    assert c.rows[0].smallest_feasible_bytes == (min(ok) if ok else None)
    # The grid 0.10-0.14 has none of the fixed ratios 0.3, 0.4, 0.5, 0.7, 0.9.
    assert c.rows[0].at_ratios == ['-'] * 5 and c.rows[2].at_ratios == []
    assert c.rows[0].floor_fragmentation is None  # bytes: no allocator
    with pytest.raises(dtrcheck.Error, match='^dtrcheck census: .*no records'):
        dtrcheck.census({'resnet32': []})
