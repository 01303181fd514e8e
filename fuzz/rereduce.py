#!/usr/bin/env python3
"""Re-reduce archived counterexamples from their fuzzer inputs with the
current reducer, and file the result in their place.

    fuzz/rereduce.py [--dtrcheck build/bin/dtrcheck] corpus/inversion/ID ...

For each entry: `dtrcheck fuzz-decode input.bin` gives the original trace
back, `dtrcheck reduce` runs with the finding's own reduce arguments (so
with today's defaults, e.g. an inversion keeps the exact failure it started
from), and `dtrcheck archive add` re-files it under the same id with the
same found-at and time-to-find, confirmed by simrd when it is installed.
The old entry is moved aside first and restored if anything fails, so an
entry is never lost. Prints one line per entry: before -> after.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd: List[str], **kw: object) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]


def rereduce(dtrcheck: str, entry: str) -> str:
    entry = os.path.abspath(entry.rstrip('/'))
    with open(os.path.join(entry, 'manifest.json')) as f:
        old: Dict = json.load(f)
    fuzzer = old.get('fuzzer') or {}
    if not fuzzer.get('input'):
        return 'skipped: no fuzzer input'
    archive = os.path.dirname(os.path.dirname(entry))
    with tempfile.TemporaryDirectory() as tmp:
        claim = os.path.join(tmp, 'input.bin')
        # The manifest is untrusted: its input must resolve inside the entry
        # (dtrcheck's own rule, io/entry_path.h).
        source = os.path.realpath(os.path.join(entry, fuzzer['input']))
        if os.path.commonpath([source, os.path.realpath(entry)]) != os.path.realpath(entry) \
                or source == os.path.realpath(entry):
            return f'refused: fuzzer.input {fuzzer["input"]!r} escapes the entry directory'
        shutil.copyfile(source, claim)
        p = run([dtrcheck, 'fuzz-decode', claim, '-o', os.path.join(tmp, 'original.log'),
                 '--json'])
        if p.returncode != 0:
            return 'fuzz-decode failed: ' + p.stderr.strip()
        finding = next((f for f in json.loads(p.stdout)['findings'] if f['id'] == old['id']),
                       None)
        if finding is None:
            return 'the input no longer decodes to this finding'
        reduced = os.path.join(tmp, 'reduced.log')
        p = run([dtrcheck, 'reduce', os.path.join(tmp, 'original.log')]
                + finding['reduce_arguments'] + ['-o', reduced, '--no-oracle'])
        if p.returncode != 0:
            return 'reduce failed: ' + p.stderr.strip()[-300:]
        aside = os.path.join(tmp, 'old-entry')
        shutil.move(entry, aside)
        cmd = [dtrcheck, 'archive', 'add', reduced, '--archive', os.path.relpath(archive, ROOT),
               '--id', old['id'], '--fuzzer-input', claim, '--json']
        if fuzzer.get('found_at'):
            cmd += ['--found-at', fuzzer['found_at']]
        if fuzzer.get('time_to_find_seconds') is not None:
            cmd += ['--time-to-find', repr(fuzzer['time_to_find_seconds'])]
        p = run(cmd, cwd=ROOT)
        outcome = json.loads(p.stdout) if p.stdout.strip() else {}
        if outcome.get('status') != 'archived':
            shutil.rmtree(entry, ignore_errors=True)
            shutil.move(aside, entry)
            return 'archive add: ' + (p.stdout.strip() or p.stderr.strip()) + ' (old entry kept)'
    with open(os.path.join(entry, 'manifest.json')) as f:
        new: Dict = json.load(f)

    def end(m: Dict) -> str:
        return f'{m["expected"]["hi"]["status"]}, {m["operators"]["after"]} operators'
    return f'{end(old)} -> {end(new)} (simrd: {new["simrd_status"]})'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--dtrcheck', default=os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
    ap.add_argument('entries', nargs='+', help='archive entries: corpus/<kind>/<id>')
    args = ap.parse_args()
    for e in args.entries:
        print(f'{os.path.relpath(os.path.abspath(e), ROOT)}: {rereduce(args.dtrcheck, e)}',
              flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
