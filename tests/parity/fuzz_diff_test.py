#!/usr/bin/env python3
"""dtrcheck fuzz-diff against the real simrd (skipped, 77, without it):

1. a short campaign finds no divergence, and its summary is the same with one
   and with two threads (the cases are a function of the seed);
2. with a divergence injected into dtrcheck (--perturb-eviction), it finds it,
   reduces it and archives it: the entry names both records and their
   differences, the reduced trace is smaller, and `fuzz-diff --replay` sees
   that dtrcheck (unperturbed) agrees with simrd on it; marked fixed it
   passes, and with simrd's archived record edited it fails;
3. every archived entry of corpus/parity/ still gets the same record from
   simrd (the archive is simrd's word, not a stale copy).

    PYTHONPATH=. python3 tests/parity/fuzz_diff_test.py build/bin/dtrcheck
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

from oracle import simrd_client

SKIP = 77
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def fuzz(dtrcheck: str, args: List[str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run([dtrcheck, 'fuzz-diff'] + args, capture_output=True, text=True)


def summary(p: 'subprocess.CompletedProcess[str]') -> Dict[str, Any]:
    s: Dict[str, Any] = json.loads(p.stdout)
    for varying in ('seconds', 'cases_per_second', 'configurations_per_second', 'jobs', 'command',
                    'archive'):
        s.pop(varying)
    return s


def main() -> int:
    dtrcheck = sys.argv[1]
    if not simrd_client.available():
        print('SKIPPED: simrd is not available: ' + str(simrd_client.unavailable_reason()))
        return SKIP
    tmp = tempfile.mkdtemp(prefix='dtrcheck_fuzz_diff_')
    try:
        # 1. No divergence; the same cases and figures for -j1 and -j2.
        runs = []
        for jobs in ('1', '2'):
            p = fuzz(dtrcheck, ['--cases', '12', '--seed', '5', '-j', jobs, '--json',
                                '--archive', os.path.join(tmp, 'clean')])
            assert p.returncode == 0, p.stdout + p.stderr
            runs.append(summary(p))
        assert runs[0] == runs[1], (runs[0], runs[1])
        assert runs[0]['cases'] == 12 and runs[0]['configurations'] == 48, runs[0]
        assert runs[0]['divergences'] == [], runs[0]
        assert not os.path.exists(os.path.join(tmp, 'clean'))
        print('clean campaign:', json.dumps(runs[0]['cases_with_status']))

        # 2. An injected divergence: found, reduced, archived, replayed.
        archive = os.path.join(tmp, 'parity')
        p = fuzz(dtrcheck, ['--cases', '6', '--seed', '5', '--perturb-eviction', '1', '--json',
                            '--reduce-time', '20', '--archive', archive])
        assert p.returncode == 1, p.stdout + p.stderr
        found = json.loads(p.stdout)['divergences']
        assert found, p.stdout
        entry = os.path.join(archive, found[0]['id'])
        with open(os.path.join(entry, 'manifest.json')) as f:
            manifest = json.load(f)
        assert manifest['differences'], manifest
        assert manifest['simrd']['status'] in ('ok', 'oom', 'thrashed'), manifest['simrd']
        assert manifest['operators'] <= manifest['original']['operators'], manifest
        assert manifest['reduction']['tests'] > 0, manifest['reduction']
        print('injected divergence reduced from {} to {} operators: {}'.format(
            manifest['original']['operators'], manifest['operators'],
            [d['field'] for d in manifest['differences']]))
        # Unperturbed, dtrcheck agrees with simrd: an open entry that no
        # longer diverges fails the replay, a fixed one passes.
        r = subprocess.run([dtrcheck, 'fuzz-diff', '--replay', archive],
                           capture_output=True, text=True)
        assert r.returncode == 1 and 'now agrees with simrd' in r.stdout, r.stdout + r.stderr
        for e in os.listdir(archive):
            path = os.path.join(archive, e, 'manifest.json')
            with open(path) as f:
                m = json.load(f)
            m['status'] = 'fixed'
            with open(path, 'w') as f:
                json.dump(m, f)
        r = subprocess.run([dtrcheck, 'fuzz-diff', '--replay', archive],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        # simrd's archived record edited: the replay names the field.
        case_file = os.path.join(entry, 'case.jsonl')
        with open(case_file) as f:
            line = json.loads(f.readline())
        line['record']['clock'] += 1
        with open(case_file, 'w') as f:
            f.write(json.dumps(line) + '\n')
        r = subprocess.run([dtrcheck, 'fuzz-diff', '--replay', archive],
                           capture_output=True, text=True)
        assert r.returncode == 1 and 'clock: simrd' in r.stdout, r.stdout + r.stderr

        # 3. The archive is still simrd's word.
        corpus = os.path.join(ROOT, 'corpus', 'parity')
        entries = sorted(os.listdir(corpus)) if os.path.isdir(corpus) else []
        for e in entries:
            case_file = os.path.join(corpus, e, 'case.jsonl')
            if not os.path.exists(case_file):
                continue
            with open(case_file) as f:
                line = json.loads(f.readline())
            options = ['--no-start'] if line['parse'].get('no_start') else []
            options += ['--preallocate'] if line['parse'].get('preallocate') else []
            options += ['--strict-release'] if line['parse'].get('strict_release') else []
            got = simrd_client.run(os.path.join(corpus, e, line['trace_file']), line['config'],
                                   options)
            assert got == line['record'], (e, got, line['record'])
        print('corpus/parity: {} entries, simrd gives each its archived record'.format(
            len(entries)))
    finally:
        shutil.rmtree(tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
