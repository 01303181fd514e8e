"""dtrcheck's own policies that read addresses (policies/: DTE, Coop,
MegEngineDTR, MegEngineDTRSqrt) from Python: registered by name as the CLI
registers them, their records those of `dtrcheck run --json` field for
field, refused under memory='bytes' with the CLI's message, and swept,
scanned and censused under an allocator model as the CLI does."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List

import pytest
from conftest import need_trace

import dtrcheck

CLI = os.environ.get('DTRCHECK_CLI')
if CLI and not os.path.exists(CLI):
    CLI = None  # not built
need_cli = pytest.mark.skipif(not CLI, reason='DTRCHECK_CLI not set')

POLICIES = ['DTE', 'Coop', 'MegEngineDTR', 'MegEngineDTRSqrt']


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    assert CLI is not None
    return subprocess.run([CLI, *args], check=check, capture_output=True, text=True)


def test_registered_as_the_cli_registers_them() -> None:
    names = dtrcheck.heuristic_names()
    for name in POLICIES:
        assert name in names


@need_cli
@pytest.mark.parametrize('memory', ['arena', 'cuda-caching'])
@pytest.mark.parametrize('heuristic', ['Coop', 'MegEngineDTR'])
def test_run_is_the_cli_record(heuristic: str, memory: str) -> None:
    need_trace('resnet32')
    expected = json.loads(cli('run', 'resnet32', '--ratio', '0.5', '--heuristic', heuristic,
                              '--memory', memory, '--json').stdout)
    r = dtrcheck.run('resnet32', ratio=0.5, heuristic=heuristic, memory=memory)
    got = r.to_dict()
    assert list(got) == list(expected)  # the same keys in the same order
    for key, value in expected.items():
        assert got[key] == value, key
    # A run that evicted, under the allocator it was asked for.
    assert r.heuristic == heuristic and r.status == 'ok' and r.evictions > 0
    assert r.memory is not None and r.memory.model == memory
    assert r.memory.reserved_peak <= r.budget


@need_cli
def test_max_split_size_mb_is_the_cli_record() -> None:
    need_trace('resnet32')
    expected = json.loads(cli('run', 'resnet32', '--ratio', '0.5', '--heuristic', 'Coop',
                              '--memory', 'cuda-caching', '--max-split-size-mb', '64',
                              '--json').stdout)
    r = dtrcheck.run('resnet32', ratio=0.5, heuristic='Coop', memory='cuda-caching',
                     max_split_size_mb=64)
    assert r.to_dict() == expected
    assert r.memory is not None and r.memory.max_split_size_mb == 64


@need_cli
@pytest.mark.parametrize('heuristic', POLICIES)
def test_bytes_refuses_them_with_the_cli_message(heuristic: str) -> None:
    need_trace('resnet32')
    p = cli('run', 'resnet32', '--ratio', '0.5', '--heuristic', heuristic, check=False)
    assert p.returncode == 2 and p.stdout == ''
    message = p.stderr.strip()
    assert '--memory bytes has no addresses' in message and '\n' not in message
    with pytest.raises(dtrcheck.Error) as e:
        dtrcheck.run('resnet32', ratio=0.5, heuristic=heuristic, memory='bytes')
    assert str(e.value) == message
    with pytest.raises(dtrcheck.Error) as e:
        dtrcheck.run('resnet32', ratio=0.5, heuristic=heuristic)  # bytes is the default
    assert str(e.value) == message


RATIOS = ['0.3', '0.4', '0.5', '0.6']


def cli_sweep(heuristic: str, memory: str, out: Path) -> List[dict]:
    cli('sweep', 'resnet32', '--from', RATIOS[0], '--to', RATIOS[-1], '--step', '0.1',
        '--heuristic', heuristic, '--memory', memory, '--format', 'jsonl', '-o', str(out))
    # Each line is a record and its file's check (cli/sweep_io.cc), which a record has not.
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for r in records:
        del r['sweep_check']
    return records


@need_cli
def test_sweep_scan_and_census_under_arena(tmp_path: Path) -> None:
    need_trace('resnet32')
    expected = cli_sweep('Coop', 'arena', tmp_path / 'coop.jsonl')
    records = dtrcheck.sweep('resnet32', RATIOS[0], RATIOS[-1], '0.1', heuristic='Coop',
                             memory='arena', jobs=2)
    assert [r.to_dict() for r in records] == expected
    assert [r.ratio for r in records] == [float(x) for x in RATIOS]
    assert all(r.memory is not None and r.memory.model == 'arena' for r in records)

    # scan: the same points; no bytes comparison for a policy that reads
    # addresses (analysis/scan.h), so no allocator-only finding. The cliff
    # window is given (the CLI widens its default to the grid's step, scan()
    # does not): Coop's overhead falls 2.37x from 0.4 to 0.5, a cliff.
    s = dtrcheck.scan('resnet32', RATIOS[0], RATIOS[-1], '0.1', heuristic='Coop', memory='arena',
                      cliff_delta=0.1)
    assert [p.to_dict() for p in s.points] == expected
    cli_scan = json.loads(cli('scan', 'resnet32', '--from', RATIOS[0], '--to', RATIOS[-1],
                              '--step', '0.1', '--heuristic', 'Coop', '--memory', 'arena',
                              '--cliff-delta', '0.1', '--json').stdout)
    assert [(f.kind, f.low.budget, f.high.budget, f.factor) for f in s.findings] == [
        (f['kind'], f['low']['budget'], f['high']['budget'], f['factor'])
        for f in cli_scan['findings']]
    assert [(f.kind, f.low.ratio, f.high.ratio) for f in s.findings] == [('cliff', 0.4, 0.5)]

    # census, as `census TRACE=RECORDS --memory arena`: the same table.
    c = dtrcheck.census({'resnet32': records}, memory='arena')
    cli_md = cli('census', f'resnet32={tmp_path / "coop.jsonl"}', '--memory', 'arena').stdout
    assert c.markdown == cli_md
    assert [row.policy for row in c.rows] == ['Coop memory arena', 'Coop memory arena']
    assert c.rows[0].points == len(RATIOS) and c.rows[0].allocator
    assert dtrcheck.census({'resnet32': records}).markdown == cli_md  # the records' own model

    # Records of another model: refused, as the CLI refuses them.
    p = cli('census', f'resnet32={tmp_path / "coop.jsonl"}', '--memory', 'cuda-caching',
            check=False)
    assert p.returncode == 2
    assert 'the records are runs under --memory arena, not --memory cuda-caching' in p.stderr
    with pytest.raises(dtrcheck.Error) as e:
        dtrcheck.census({'resnet32': records}, memory='cuda-caching')
    assert str(e.value) == ('dtrcheck census: census input "resnet32": the records are runs '
                            'under --memory arena, not --memory cuda-caching')
