#!/usr/bin/env python3
"""`dtrcheck archive add` end to end: a reduced trace (reduce's output,
starting from an archived inversion) is filed and replays with
check-finding; filing it again is a duplicate; an archived entry re-files
with the same manifest; and every bad input is refused with exit 2 (an
edited trace, naming both SHA-256; a manifest missing or mistyping a field,
naming it; an archive that cannot be written), a finding that no longer
holds or whose records changed with exit 1, never leaving anything in the
archive.

    PYTHONPATH=. python3 tests/cli/archive_add_test.py build/bin/dtrcheck
"""
import glob
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Callable, Dict, List

from oracle import simrd_client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The smallest archived inversion (7 operators): quick to reduce again.
ENTRY = os.path.join(ROOT, 'tests', 'data', 'archive', 'inversion', '35bb6d445d81d295')

failures: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def run(args: List[str], cwd: str) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd)


def sha256(path: str) -> str:
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def load(path: str) -> Dict[str, Any]:
    with open(path) as f:
        result: Dict[str, Any] = json.load(f)
        return result


def save(path: str, j: Dict[str, Any]) -> None:
    with open(path, 'w') as f:
        json.dump(j, f, indent=2)


def empty(archive: str) -> bool:
    """Nothing filed, nothing half-written."""
    return not glob.glob(os.path.join(archive, '*', '*')) and \
        not glob.glob(os.path.join(archive, '*', '.tmp-*'))


def reduce_entry(d: str, tmp: str) -> str:
    """Reduces the entry's trace again with its reduce command; the output."""
    shutil.copy(os.path.join(ENTRY, 'trace.log'), os.path.join(tmp, 'start.log'))
    words = shlex.split(load(os.path.join(ENTRY, 'manifest.json'))['commands']['reduce'])
    words = [w for w in words[2:] if w not in ('-o', 'trace.log')]
    words[0] = 'start.log'
    r = run([d, 'reduce'] + words + ['--no-oracle', '-o', 'reduced.log'], tmp)
    check(r.returncode == 0, 'reduce: ' + r.stderr.strip().splitlines()[-1])
    return os.path.join(tmp, 'reduced.log')


def refused(d: str, tmp: str, name: str, edit: Callable[[str], None], code: int,
            message: str, what: str) -> None:
    """A copy of the reduced trace and manifest, edited, refused with `code`
    and `message` in its output, with nothing written."""
    case = os.path.join(tmp, name)
    os.makedirs(case)
    for f in ('reduced.log', 'reduced.manifest.json'):
        shutil.copy(os.path.join(tmp, f), case)
    edit(case)
    archive = os.path.join(case, 'archive')
    r = run([d, 'archive', 'add', 'reduced.log', '--archive', archive, '--no-oracle'], case)
    output = r.stdout + r.stderr
    check(r.returncode == code and message in output and empty(archive),
          f'{what}: exit {r.returncode}: {output.strip()}')


def edit_manifest(change: Callable[[Dict[str, Any]], None]) -> Callable[[str], None]:
    def edit(case: str) -> None:
        path = os.path.join(case, 'reduced.manifest.json')
        m = load(path)
        change(m)
        save(path, m)
    return edit


def check_good(d: str, tmp: str) -> None:
    archive = os.path.join(tmp, 'corpus')
    r = run([d, 'archive', 'add', 'reduced.log', '--archive', archive, '--json'], tmp)
    check(r.returncode == 0, f'archive add exits 0: {r.stderr}')
    outcome = json.loads(r.stdout)
    check(outcome['status'] == 'archived', f'filed: {outcome}')
    entries = glob.glob(os.path.join(archive, 'inversion', '*'))
    check(len(entries) == 1 and sorted(os.listdir(entries[0])) == ['manifest.json', 'trace.log'],
          f'one entry, trace and manifest: {entries}')
    m = load(os.path.join(entries[0], 'manifest.json'))
    check(m['format'] == 2 and m['kind'] == 'inversion' and m['holds'], 'format, kind, holds')
    check(m['trace_sha256'] == sha256(os.path.join(tmp, 'reduced.log')), 'the trace SHA-256')
    want = 'confirmed' if simrd_client.available() else 'not confirmed by simrd'
    check(m['simrd_status'] == want, f'simrd status {m["simrd_status"]}, expected {want}')
    r = run([d, 'check-finding', os.path.join(entries[0], 'manifest.json')], tmp)
    check(r.returncode == 0 and 'still holds in dtrcheck' in r.stdout,
          f'check-finding replays it: {r.stdout}')
    r = run([d, 'archive', 'add', 'reduced.manifest.json', '--archive', archive], tmp)
    check(r.returncode == 0 and 'duplicate' in r.stdout and
          len(glob.glob(os.path.join(archive, 'inversion', '*'))) == 1,
          f'filing it again is a duplicate: {r.stdout}')

    r = run([d, 'archive', 'add', 'reduced.log', '--archive', 'other', '--no-oracle', '--json'],
            tmp)
    m = load(os.path.join(tmp, json.loads(r.stdout)['archive'], 'manifest.json'))
    check(m['simrd_status'] == 'not confirmed by simrd' and m['simrd']['reason'] == '--no-oracle',
          '--no-oracle: not confirmed by simrd')


def check_refile(d: str, tmp: str) -> None:
    r = run([d, 'archive', 'add', os.path.join(ENTRY, 'manifest.json'), '--archive', 'corpus',
             '--no-oracle'], os.path.join(tmp, 'refile'))
    check(r.returncode == 0, f'an archived entry re-files: {r.stdout}{r.stderr}')
    new = os.path.join(tmp, 'refile', 'corpus', 'inversion', os.path.basename(ENTRY))
    a, b = load(os.path.join(ENTRY, 'manifest.json')), load(os.path.join(new, 'manifest.json'))
    differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    # ... and by its bucket, which entries filed before 2026-12-04 lack.
    check(differ == ['bucket', 'simrd', 'simrd_status'] and 'bucket' not in a,
          f're-filed manifest differs only by simrd and its new bucket: {differ}')
    check(b['bucket']['labels'][0] == b['kind'] and b['bucket']['failure'] == '>'.join(
        b['expected'][e]['status'] for e in ('lo', 'hi')), f"its bucket: {b['bucket']}")
    with open(os.path.join(ENTRY, 'input.bin'), 'rb') as f, \
            open(os.path.join(new, 'input.bin'), 'rb') as g:
        check(f.read() == g.read(), 'the fuzzer input is kept')


def check_refusals(d: str, tmp: str) -> None:
    manifest_sha = load(os.path.join(tmp, 'reduced.manifest.json'))['trace_sha256']

    def edit_trace(case: str) -> None:
        with open(os.path.join(case, 'reduced.log'), 'a') as f:
            f.write('\n')

    edited = os.path.join(tmp, 'edited', 'reduced.log')
    refused(d, tmp, 'edited', edit_trace, 2, manifest_sha, 'an edited trace')
    check(sha256(edited) in run([d, 'archive', 'add', edited, '--archive', 'x'], tmp).stderr,
          'an edited trace: its SHA-256 named')

    def drop(key: str) -> Callable[[Dict[str, Any]], None]:
        return lambda m: m.pop(key)

    for key in ('budgets', 'trace_sha256', 'config', 'dtrcheck'):
        refused(d, tmp, 'no-' + key, edit_manifest(drop(key)), 2,
                f'missing field "{key}"', f'a manifest without {key}')

    def mistype(m: Dict[str, Any]) -> None:
        m['expected']['hi']['status'] = 5

    refused(d, tmp, 'mistyped', edit_manifest(mistype), 2,
            'field "expected.hi.status": expected a string, found 5', 'a mistyped field')

    def no_trace(case: str) -> None:
        os.remove(os.path.join(case, 'reduced.log'))

    refused(d, tmp, 'no-trace', no_trace, 2, 'cannot be read', 'a missing trace')

    def ample(m: Dict[str, Any]) -> None:
        m['budgets']['hi'] = {'ratio': 1.0}

    refused(d, tmp, 'ample', edit_manifest(ample), 1, 'does-not-hold',
            'budgets where the property does not hold')

    def other_records(m: Dict[str, Any]) -> None:
        m['dtrcheck'][0]['clock'] += 1

    refused(d, tmp, 'records', edit_manifest(other_records), 1, 'records-differ',
            "records that are not dtrcheck's")

    blocked = os.path.join(tmp, 'blocked')
    with open(blocked, 'w') as f:
        f.write('a file, not a directory\n')
    r = run([d, 'archive', 'add', 'reduced.log', '--archive', blocked, '--no-oracle'], tmp)
    check(r.returncode == 2 and 'cannot write the archive' in r.stderr,
          f'an archive that cannot be written: {r.stderr.strip()}')

    r = run([d, 'archive', 'add', 'reduced.log', '--archive', 'x', '--id', '0000000000000000',
             '--fuzzer-input', os.path.join(ENTRY, 'input.bin'), '--no-oracle'], tmp)
    check(r.returncode == 2 and 'have no id 0000000000000000' in r.stderr,
          f'a fuzzer input without that finding: {r.stderr.strip()}')
    r = run([d, 'archive', 'add', 'reduced.log', '--archive', 'x', '--id', '../escape'], tmp)
    check(r.returncode == 2 and 'letters, digits' in r.stderr, 'an id that is not a name')
    r = run([d, 'archive', 'add', 'reduced.log', '--archive', 'x', '--time-to-find', '3'], tmp)
    check(r.returncode == 2 and not os.path.exists(os.path.join(tmp, 'x')),
          '--time-to-find without --fuzzer-input')


def main() -> int:
    d = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix='dtrcheck_archive_add_test_')
    try:
        os.makedirs(os.path.join(tmp, 'refile'))
        reduce_entry(d, tmp)
        check_good(d, tmp)
        check_refile(d, tmp)
        check_refusals(d, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('{} failure(s)'.format(len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
