#!/usr/bin/env python3
"""The campaign's names are dtrcheck's (issue 41): the pathology kinds are
read from `dtrcheck kinds` (layout.kinds), not spelled again here, and
`--cliff-gap` is `--cliff-delta` as in `dtrcheck scan` and `fuzz-decode`,
the old name still accepted for one release with a warning and left out of
--help. `--memory MODEL` (issue 43) reaches the fuzzers and triage as
DTRCHECK_FUZZ_MEMORY, is recorded in pairs.json, the campaign record and the
report, and refuses a findings directory fuzzed under another model and an
environment that names another.

    python3 fuzz/campaign_lib/campaign_options_test.py --dtrcheck build/bin/dtrcheck
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'fuzz'))
from campaign_lib import cli, layout  # noqa: E402
from campaign_lib.campaign_status_test import stand_in_fuzz_build  # noqa: E402

FAILED: List[str] = []
CAMPAIGN = os.path.join(ROOT, 'fuzz', 'campaign')
# A stand-in pathology_fuzzer that writes the memory model it was given.
FAKE_FUZZER = r"""#!/usr/bin/env python3
import os, sys
with open(sys.argv[0] + '.memory', 'w') as f:
    f.write(os.environ.get('DTRCHECK_FUZZ_MEMORY', '<unset>'))
with open('fuzz-0.log', 'w') as log:
    log.write('Done 0 runs in 1 second(s)\n')
"""


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        FAILED.append(what)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    dtrcheck = ap.parse_args().dtrcheck

    listed = subprocess.run([dtrcheck, 'kinds'], capture_output=True, text=True).stdout.split()
    check(layout.kinds(dtrcheck) == tuple(listed) and 'pinned-oom' in listed,
          f'layout.kinds is `dtrcheck kinds`: {layout.kinds(dtrcheck)}')
    try:
        layout.kinds('/nonexistent/dtrcheck')
        check(False, 'no dtrcheck: an error')
    except RuntimeError as e:
        check('/nonexistent/dtrcheck kinds' in str(e), f'no dtrcheck: an error naming it ({e})')

    args = cli.parse(['triage', '--cliff-delta', '0.03'])
    check(args.cliff_delta == 0.03, 'campaign triage --cliff-delta 0.03')
    old = subprocess.run(
        [sys.executable, '-c', 'import sys; sys.path.insert(0, sys.argv[1]); '
         'from campaign_lib import cli; '
         'print(cli.parse(["triage", "--cliff-gap", "0.04"]).cliff_delta)',
         os.path.join(ROOT, 'fuzz')], capture_output=True, text=True)
    check(old.stdout.strip() == '0.04' and old.stderr ==
          'fuzz/campaign: --cliff-gap is now --cliff-delta; the old name goes in the next '
          'release\n', f'campaign --cliff-gap sets --cliff-delta and warns: {old.stderr!r}')
    for command in ('run', 'triage'):
        usage = subprocess.run([os.path.join(ROOT, 'fuzz', 'campaign'), command, '--help'],
                               capture_output=True, text=True).stdout
        check('--cliff-delta' in usage and '--cliff-gap' not in usage,
              f'campaign {command} --help shows --cliff-delta, not --cliff-gap')

    check_memory(dtrcheck)
    check_tool_unavailable(dtrcheck)

    print(f'{len(FAILED)} failed' if FAILED else 'all passed')
    return 1 if FAILED else 0


def campaign(argv: List[str], memory_env: str = '') -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != 'DTRCHECK_FUZZ_MEMORY'}
    if memory_env:
        env['DTRCHECK_FUZZ_MEMORY'] = memory_env
    return subprocess.run([sys.executable, CAMPAIGN] + argv, env=env, capture_output=True,
                          text=True, timeout=120)


def parse_memory(argv: List[str], memory_env: str = '') -> str:
    saved = os.environ.pop('DTRCHECK_FUZZ_MEMORY', None)
    try:
        if memory_env:
            os.environ['DTRCHECK_FUZZ_MEMORY'] = memory_env
        return cli.parse(argv).memory
    finally:
        os.environ.pop('DTRCHECK_FUZZ_MEMORY', None)
        if saved is not None:
            os.environ['DTRCHECK_FUZZ_MEMORY'] = saved


def check_memory(dtrcheck: str) -> None:
    check(parse_memory(['run']) == 'bytes', 'campaign run: bytes by default')
    check(parse_memory(['run', '--memory', 'arena']) == 'arena', 'campaign run --memory arena')
    check(parse_memory(['triage'], 'cuda-caching') == 'cuda-caching',
          'campaign triage: DTRCHECK_FUZZ_MEMORY from the environment, as before --memory')
    check(parse_memory(['run', '--memory', 'arena'], 'arena') == 'arena',
          'campaign run --memory arena with DTRCHECK_FUZZ_MEMORY=arena')
    with tempfile.TemporaryDirectory() as d:
        args = cli.parse(['run', '--memory', 'cuda-caching', '--findings', d])
        env = cli.environment(args, layout.Findings(d))
        check(env.get('DTRCHECK_FUZZ_MEMORY') == 'cuda-caching',
              'the fuzzers and triage get DTRCHECK_FUZZ_MEMORY=cuda-caching')

    out = campaign(['triage', '--memory', 'arena'], memory_env='cuda-caching')
    check(out.returncode == 2 and out.stderr == 'campaign: --memory arena but '
          'DTRCHECK_FUZZ_MEMORY=cuda-caching in the environment: unset it or pass the same '
          'model\n', f'--memory against the environment: one line, exit 2 ({out.stderr!r})')
    out = campaign(['triage'], memory_env='heap')
    check(out.returncode == 2 and out.stderr == 'campaign: DTRCHECK_FUZZ_MEMORY=heap in the '
          'environment: not a memory model (bytes, cuda-caching, arena)\n',
          f'an unknown model in the environment: one line, exit 2 ({out.stderr!r})')
    out = campaign(['run', '--memory', 'heap'])
    check(out.returncode == 2 and "invalid choice: 'heap'" in out.stderr,
          f'campaign run --memory heap: exit 2 ({out.stderr.splitlines()[-1]!r})')

    with tempfile.TemporaryDirectory() as d:
        fuzz_build = stand_in_fuzz_build(d, FAKE_FUZZER)
        fake = os.path.join(fuzz_build, 'bin', 'pathology_fuzzer')
        findings = os.path.join(d, 'findings')
        common = ['--dtrcheck', dtrcheck, '--findings', findings,
                  '--archive', os.path.join(d, 'archive'), '--optimal', '0', '--no-oracle']
        out = campaign(['run', '--memory', 'arena', '--heuristics', 'Coop,DTE,MegEngineDTR',
                        '--time', '2', '--triage-reserve', '1', '--status-every', '0',
                        '--targets', 'pathology_fuzzer', '--jobs', '1',
                        '--fuzz-build', fuzz_build] + common)
        check(out.returncode == 0, f'campaign run --memory arena: exit 0 ({out.stderr[-300:]!r})')
        with open(fake + '.memory') as f:
            given = f.read()
        check(given == 'arena', f'the fuzzer ran with DTRCHECK_FUZZ_MEMORY={given}')
        with open(os.path.join(findings, 'pairs.json')) as f:
            pairs = json.load(f)
        check(pairs == {'plugins': [], 'heuristics': 'Coop,DTE,MegEngineDTR', 'memory': 'arena'},
              f'pairs.json records the memory model: {pairs}')
        with open(os.path.join(findings, 'campaigns.jsonl')) as f:
            records = [json.loads(line) for line in f]
        check(len(records) == 2 and all(r.get('memory') == 'arena' for r in records),
              'the campaign record says memory arena')
        with open(os.path.join(findings, 'report.md')) as f:
            md = f.read()
        check('- memory model arena; heuristics Coop,DTE,MegEngineDTR; plugins none' in md,
              'the report header names the memory model')
        out = campaign(['triage', '--memory', 'cuda-caching', '--heuristics',
                        'Coop,DTE,MegEngineDTR'] + common)
        check(out.returncode != 0 and 'use another --findings' in out.stderr and
              '"memory": "arena"' in out.stderr,
              f'a findings directory fuzzed under arena refuses cuda-caching ({out.stderr!r})')
        out = campaign(['triage', '--heuristics', 'Coop,DTE,MegEngineDTR'] + common,
                       memory_env='arena')
        check(out.returncode == 0, 'triage with DTRCHECK_FUZZ_MEMORY=arena continues it')

        # Triage under the model: a pathology_fuzzer input that decodes, under
        # arena and these heuristics, to a Coop inversion on RuntimeV2Optimized
        # (ratio 0.904 ok, 0.909 oom; 42 operators) is reduced and archived
        # with the model in its manifest and bucket.
        cid = '5ca00e1a5aaafe99'
        with open(os.path.join(findings, 'claims', cid), 'wb') as f:
            f.write(base64.b64decode('j/mJpXuJzqfmCDvgNpJl54KmpM0='))
        out = campaign(['triage', '--memory', 'arena', '--heuristics', 'Coop,DTE,MegEngineDTR',
                        '--reduce-timeout', '120'] + common)
        manifest = os.path.join(d, 'archive', 'inversion', cid, 'manifest.json')
        m = {}
        if os.path.exists(manifest):
            with open(manifest) as f:
                m = json.load(f)
        check(out.returncode == 0 and m.get('config', {}).get('heuristic') == 'Coop'
              and m.get('config', {}).get('memory') == 'arena'
              and m['operators']['after'] < m['operators']['before'],
              f"triage under arena archives the Coop inversion: {m.get('config')}")
        check('inversion|ok>oom|model|own:Coop|memory arena' in out.stdout,
              'its bucket names the memory model')

        # A findings directory from before --memory: its pairs.json has no
        # "memory", and was fuzzed in bytes.
        old = os.path.join(d, 'old')
        os.makedirs(old)
        with open(os.path.join(old, 'pairs.json'), 'w') as f:
            json.dump({'plugins': [], 'heuristics': None}, f)
        common[3] = old
        out = campaign(['triage'] + common)
        check(out.returncode == 0, f'an old pairs.json is bytes: triage goes on ({out.stderr!r})')
        out = campaign(['triage', '--memory', 'arena'] + common)
        check(out.returncode != 0 and 'use another --findings' in out.stderr,
              'an old pairs.json refuses --memory arena')


class UnrunnableTriage:
    """A Triage whose dtrcheck cannot be started, as while it is relinked
    (PermissionError) or removed: one pending claim, never finished."""

    def __init__(self) -> None:
        self.attempts = 0

    def pending_artifacts(self) -> list:
        return []

    def next_claim(self) -> str:
        return 'c0ffee'

    def triage_claim(self, cid: str, deadline: object = None) -> None:
        self.attempts += 1
        raise PermissionError(13, 'Permission denied', '/x/build/bin/dtrcheck')


def check_tool_unavailable(dtrcheck: str) -> None:
    """A campaign's triage survived dtrcheck being relinked under it only by
    luck: a PermissionError was a traceback that lost the rest of the run."""
    import time
    t = UnrunnableTriage()
    why = cli.triage_until(t, time.time() + 60, stop_when_idle=True)  # type: ignore[arg-type]
    check(why == 'cannot run /x/build/bin/dtrcheck: Permission denied' and t.attempts == 1,
          f'triage after the fuzzers: stops, saying why, the claim pending ({why!r})')
    t = UnrunnableTriage()
    start = time.time()
    saved, cli.MIN_REDUCE_SECONDS = cli.MIN_REDUCE_SECONDS, 0  # claims even this close
    try:
        why = cli.triage_until(t, start + 1.5, stop_when_idle=False)  # type: ignore[arg-type]
    finally:
        cli.MIN_REDUCE_SECONDS = saved
    check(why == 'cannot run /x/build/bin/dtrcheck: Permission denied' and t.attempts >= 1
          and time.time() - start >= 1.4,
          f'triage beside the fuzzers: waits out the deadline (a rebuild ends), {why!r}')
    with tempfile.TemporaryDirectory() as d:
        plain = os.path.join(d, 'dtrcheck')
        with open(plain, 'w') as f:
            f.write('not a program\n')
        out = subprocess.run([sys.executable, os.path.join(ROOT, 'fuzz', 'campaign'), 'triage',
                              '--findings', os.path.join(d, 'f'), '--dtrcheck', plain],
                             capture_output=True, text=True)
        check(out.returncode == 2 and out.stderr.strip() == f'campaign: {plain} is not executable'
              and 'Traceback' not in out.stdout + out.stderr,
              f'a dtrcheck that is not executable: one line, exit 2 ({out.stderr!r})')


if __name__ == '__main__':
    sys.exit(main())
