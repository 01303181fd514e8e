#!/usr/bin/env python3
"""fuzz/campaign's triage end to end, without fuzzers: two claims as
pathology_fuzzer writes them (an inversion and a cliff found by the fuzzer's
decoder on these inputs) are decoded, reduced, confirmed with simrd when it
is installed, and archived by `dtrcheck archive add`; the archive then
replays with check-finding; a second triage of the same signature is a
duplicate. Then a Ctrl-C during a long reduction: the campaign exits 130
with its report, keeps what it finished, and leaves the interrupted claim
pending, with nothing archived.
"""
import argparse
import base64
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAMPAIGN = os.path.join(ROOT, 'fuzz', 'campaign')
# id -> (kind, pathology_fuzzer input); ids are SignatureId of the finding.
CLAIMS = {
    'e2b54e03539e3bdd': ('inversion', 'rWIWbe4+1NR94FfpLZqm'),
    'b59669c7a3e2c14d': ('cliff', '7SRCQUBZYkeQdwMm9CH1'),
}
# Where each is filed: the inversion ends in a pinned-frontier oom, so it is
# triaged as the pinned-oom finding of the same runs (one entry, both labels).
FILED = {
    'e2b54e03539e3bdd': ('pinned-oom', 'db7929040a926765'),
    'b59669c7a3e2c14d': ('cliff', 'b59669c7a3e2c14d'),
}
# A cliff on a 200-operator trace under DTRUnopt: minutes to reduce.
SLOW_CLAIM = ('7ce2043360456b79', '4WGvN/hvuQeHOMNw8H6N')


def check(cond: bool, message: str) -> None:
    if not cond:
        print('FAIL: ' + message)
        sys.exit(1)


def check_manifest(m: Dict[str, Any], cid: str, kind: str, data: str) -> None:
    check(m['format'] == 2 and m['holds'], 'format 2, holds')
    check(m['kind'] == kind and m['property'] == kind and m['id'] == cid, 'manifest identity')
    check(m['operators']['after'] < m['operators']['before'],
          f'{cid}: not reduced: {m["operators"]}')
    check(set(m['expected']) == {'lo', 'hi'}, 'expected runs lo and hi')
    lo, hi = m['expected']['lo'], m['expected']['hi']
    if kind in ('inversion', 'pinned-oom'):
        check(lo['status'] == 'ok' and hi['status'] in ('oom', 'thrashed'),
              f'inversion statuses {m["expected"]}')
    else:
        check(lo['status'] == hi['status'] == 'ok', 'cliff statuses')
        big, small = max(lo['overhead'], hi['overhead']), min(lo['overhead'], hi['overhead'])
        check(big >= m['factor'] * small, f'cliff factor {big}/{small} < {m["factor"]}')
    check(m['fuzzer']['input_base64'] == data, 'input kept')
    check(m['original']['case']['config'] == m['config'], 'the decoded case kept')
    check(m['before']['trace'] == 'original.log' and m['before']['holds'], 'before reduction')
    check(m['archive'] == f'{kind}/{cid}' or m['archive'].endswith(f'/{kind}/{cid}'),
          m['archive'])
    check(m['simrd_status'] in ('confirmed', 'not confirmed by simrd'), m['simrd_status'])
    if m['simrd'].get('available'):
        check(m['simrd_status'] == 'confirmed' and m['simrd']['confirmed']
              and len(m['simrd']['records']) == 2, 'simrd records at both budgets')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='dtrcheck_campaign_test_')
    try:
        findings, archive = os.path.join(tmp, 'findings'), os.path.join(tmp, 'corpus')
        os.makedirs(os.path.join(findings, 'claims'))
        for cid, (_, data) in CLAIMS.items():
            with open(os.path.join(findings, 'claims', cid), 'wb') as f:
                f.write(base64.b64decode(data))
        cmd = [sys.executable, CAMPAIGN, 'triage', '--findings', findings, '--archive', archive,
               '--dtrcheck', args.dtrcheck, '--reduce-timeout', '300']
        out = subprocess.run(cmd, capture_output=True, text=True)
        print(out.stdout + out.stderr)
        check(out.returncode == 0, f'triage exited {out.returncode}')

        for cid, (_, data) in CLAIMS.items():
            kind, fid = FILED[cid]
            d = os.path.join(archive, kind, fid)
            check(os.path.isdir(d), f'{d} not archived')
            with open(os.path.join(d, 'manifest.json')) as f:
                m = json.load(f)
            check_manifest(m, fid, kind, data)
            # The campaign's default --optimal 10 solved both budgets.
            opt = m.get('optimal', {})
            check('verdict' in opt and all(e in opt for e in m['budgets']),
                  f'optimum recorded at both budgets: {opt}')
            r = subprocess.run([args.dtrcheck, 'check-finding', os.path.join(d, 'manifest.json')],
                               capture_output=True, text=True)
            check(r.returncode == 0 and 'still holds' in r.stdout, f'check-finding: {r.stdout}')
        check(not glob.glob(os.path.join(archive, '*', '.tmp-*')),
              'temporary archive directories left')
        with open(os.path.join(findings, 'report.md')) as f:
            text = f.read()
        version = subprocess.run([args.dtrcheck, '--version'], capture_output=True,
                                 text=True).stdout.strip()
        check(f'- dtrcheck: {version}' in text, 'report names the dtrcheck and simrd commits')
        check('| optimum |' in text and ('regret ' in text or 'not proven' in text),
              'report gives the optimum of the archived entries')

        # Same signature again: a duplicate, and the archive is untouched.
        inversion = os.path.join(archive, *FILED['e2b54e03539e3bdd'], 'manifest.json')
        shutil.rmtree(os.path.join(findings, 'triage', 'e2b54e03539e3bdd'))
        with open(inversion) as f:
            before = f.read()
        out = subprocess.run(cmd, capture_output=True, text=True)
        check(out.returncode == 0, 'second triage')
        with open(os.path.join(findings, 'triage', 'e2b54e03539e3bdd', 'result.json')) as f:
            again = json.load(f)
        check(again['status'] == 'duplicate' and again['labels'] == ['inversion', 'pinned-oom']
              and not again['bucket_new'],
              'second triage of a signature is a duplicate, a hit of a known bucket')
        with open(inversion) as f:
            check(f.read() == before, 'archive rewritten')
        check(os.path.exists(os.path.join(findings, 'report.md')), 'report written')

        # Ctrl-C in the middle of a reduction.
        slow_id, slow_data = SLOW_CLAIM
        with open(os.path.join(findings, 'claims', slow_id), 'wb') as f:
            f.write(base64.b64decode(slow_data))
        os.remove(os.path.join(findings, 'report.md'))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        reduce_log = os.path.join(findings, 'triage', slow_id, 'reduce.log')
        for _ in range(600):
            if os.path.exists(reduce_log):
                break
            time.sleep(0.1)
        time.sleep(2)
        proc.send_signal(signal.SIGINT)
        output = proc.communicate(timeout=300)[0]
        print(output)
        check(proc.returncode == 130, f'interrupted triage exited {proc.returncode}')
        check(not os.path.exists(os.path.join(findings, 'triage', slow_id, 'result.json')),
              'interrupted claim not pending')
        check(not os.path.exists(os.path.join(archive, 'cliff', slow_id)),
              'interrupted claim archived')
        check(not glob.glob(os.path.join(archive, '*', '.tmp-*')),
              'temporary archive directories left')
        check(len(glob.glob(os.path.join(archive, '*', '*', 'manifest.json'))) == 2,
              'finished archives kept')
        with open(os.path.join(findings, 'report.md')) as f:
            check('interrupted' in f.read(), 'report of the interrupted run')
        print('ok')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
