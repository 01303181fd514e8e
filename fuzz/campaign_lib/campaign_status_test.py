#!/usr/bin/env python3
"""A campaign a person can watch (fuzz/campaign_lib/status.py):

- `fuzz/campaign run --time T` ends within T seconds (plus the fuzzers'
  stop), triage included: the fuzzers get T minus the triage reserve;
- status lines come every --status-every seconds with each fuzzer's exec/s
  and corpus size, claims, triaged, pending and new buckets;
- what is left pending is said at the end, with the command that finishes it.

The fuzzer is a stand-in (a script that writes libFuzzer's progress lines to
fuzz-0.log and honours -max_total_time), so no clang build is needed; with no
claims, triage has nothing to do.

    python3 fuzz/campaign_lib/campaign_status_test.py --dtrcheck build/bin/dtrcheck
"""
import argparse
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'fuzz'))
from campaign_lib import status  # noqa: E402

CAMPAIGN = os.path.join(ROOT, 'fuzz', 'campaign')
# 50 executions a second, the corpus growing by one each second.
FAKE_FUZZER = r"""#!/usr/bin/env python3
import re, signal, sys, time
limit = next(int(a.split('=')[1]) for a in sys.argv if a.startswith('-max_total_time='))
signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
start = time.time()
with open('fuzz-0.log', 'w') as log:
    n = 0
    while time.time() - start < limit:
        time.sleep(0.2)
        n += 10
        corp = 1 + int(time.time() - start)
        log.write(f'#{n}\tpulse  cov: 10 ft: 10 corp: {corp}/1Kb exec/s: 50\n')
        log.flush()
    log.write(f'Done {n} runs in {limit} second(s)\n')
"""

failures: List[str] = []


def stand_in_fuzz_build(d: str, script: str) -> str:
    """A fuzz build under `d` whose pathology_fuzzer is `script`; returns its
    directory (for --fuzz-build)."""
    fuzz_build = os.path.join(d, 'build-fuzz')
    os.makedirs(os.path.join(fuzz_build, 'bin'))
    fake = os.path.join(fuzz_build, 'bin', 'pathology_fuzzer')
    with open(fake, 'w') as f:
        f.write(script)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    return fuzz_build


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    args = ap.parse_args()

    check(status.triage_reserve(600, None, 180) == 150, 'reserve: a quarter of --time')
    check(status.triage_reserve(3600, None, 180) == 180, 'reserve: at most one reduction')
    check(status.triage_reserve(60, 90, 180) == 60, 'reserve: never more than --time')

    with tempfile.TemporaryDirectory() as d:
        fuzz_build = stand_in_fuzz_build(d, FAKE_FUZZER)
        archive = os.path.join(d, 'archive')
        os.makedirs(archive)
        findings = os.path.join(d, 'findings')
        t0 = time.time()
        p = subprocess.run(
            [sys.executable, CAMPAIGN, 'run', '--time', '12', '--triage-reserve', '4',
             '--status-every', '2', '--targets', 'pathology_fuzzer', '--jobs', '1',
             '--fuzz-build', fuzz_build, '--dtrcheck', args.dtrcheck, '--findings', findings,
             '--archive', archive, '--optimal', '0', '--no-oracle'],
            capture_output=True, text=True, timeout=120)
        wall = time.time() - t0
        out = p.stdout
        print(out[-3000:])
        check(p.returncode == 0, f'exit 0 (got {p.returncode}; stderr {p.stderr[-500:]!r})')
        check(wall < 12 + 25, f"the run ends near --time (12 s + the fuzzers' stop): {wall:.1f} s")
        check('pathology_fuzzer: 1 worker(s) for 8 s' in out, 'the fuzzers get --time - reserve')
        check('the last 4 s of 12 s triage only' in out, 'the reserve is announced')
        lines = [ln for ln in out.splitlines() if ' status ' in ln]
        check(len(lines) >= 3, f'a status line every 2 s ({len(lines)} lines)')
        fuzzing = [ln for ln in lines if '(fuzzing)' in ln]
        m = re.search(r'pathology_fuzzer 1 worker (\d+) exec/s corpus (\d+)', fuzzing[-1]
                      if fuzzing else '')
        check(m is not None and 20 <= int(m.group(1)) <= 80 and int(m.group(2)) >= 2,
              f'exec/s near 50 and the corpus size: {fuzzing[-1] if fuzzing else None!r}')
        check(all('claims 0: triaged 0, pending 0' in ln for ln in lines),
              'claims, triaged and pending counted')
        check(all('buckets: 0 new, 0 hits of known' in ln for ln in lines), 'buckets counted')
        check(wall < 12, f'nothing pending: the run ends when the fuzzers stop ({wall:.1f} s)')
        check('pending; finish them with' not in out, 'nothing pending, nothing to finish')

    if failures:
        print(f'{len(failures)} failed')
        return 1
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
