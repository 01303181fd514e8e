#!/usr/bin/env python3
"""Hostile input, class 1 (issue 45): paths and digests from untrusted
manifests. An archived entry's manifest names its files relative to its
directory; every name must resolve (symbolic links followed) inside it, and
a missing or empty trace_sha256 is an error, never a switch that turns the
integrity check off. Each case: exit 2, the error names the field, nothing
written to the archive.

    paths_test.py DTRCHECK SOURCE_DIR
"""
import json
import os
import shutil
import sys
import tempfile
from typing import Any, Callable, Dict

from hostile import check, finish, leftovers, refused, run

dtrcheck, source = sys.argv[1], sys.argv[2]


def an_entry() -> str:
    """An archived inversion entry with a fuzzer input."""
    kind = os.path.join(source, 'corpus', 'inversion')
    for e in sorted(os.listdir(kind)):
        if os.path.exists(os.path.join(kind, e, 'input.bin')):
            return os.path.join(kind, e)
    raise SystemExit('no archived entry with input.bin under ' + kind)


Edit = Callable[[Dict[str, Any], str], None]


def edited(tmp: str, name: str, edit: Edit) -> str:
    """A copy of the entry as tmp/name/ with its manifest edited."""
    d = os.path.join(tmp, name, 'entry')
    shutil.copytree(ENTRY, d)
    path = os.path.join(d, 'manifest.json')
    with open(path) as f:
        m = json.load(f)
    edit(m, d)
    with open(path, 'w') as f:
        json.dump(m, f)
    return path


def set_input(value: str) -> Edit:
    def edit(m: Dict[str, Any], d: str) -> None:
        m['fuzzer']['input'] = value
    return edit


def set_field(key: str, value: Any) -> Edit:
    def edit(m: Dict[str, Any], d: str) -> None:
        m[key] = value
    return edit


ENTRY = an_entry()
SECRET = '/etc/passwd'

with tempfile.TemporaryDirectory() as tmp:
    # A file outside every entry, reached by climbing.
    outside = os.path.join(tmp, 'outside.bin')
    with open(outside, 'wb') as f:
        f.write(b'not part of the entry')
    climb = os.path.relpath(outside, os.path.join(tmp, 'x', 'entry'))

    def link_input(m: Dict[str, Any], d: str) -> None:
        os.remove(os.path.join(d, 'input.bin'))
        os.symlink(outside, os.path.join(d, 'input.bin'))

    def link_trace(m: Dict[str, Any], d: str) -> None:
        os.rename(os.path.join(d, 'trace.log'), os.path.join(tmp, 'moved.log'))
        os.symlink(os.path.join(tmp, 'moved.log'), os.path.join(d, 'trace.log'))

    add_cases = [
        ('archive add: fuzzer.input absolute', set_input(SECRET),
         ['field "fuzzer.input"', SECRET, 'absolute path']),
        ('archive add: fuzzer.input climbs out', set_input(climb),
         ['field "fuzzer.input"', 'escapes the entry directory']),
        ('archive add: input.bin a symbolic link out', link_input,
         ['field "fuzzer.input"', 'escapes the entry directory']),
        ('archive add: trace absolute', set_field('trace', SECRET),
         ['field "trace"', 'absolute path']),
        ('archive add: trace climbs out', set_field('trace', '../../../../../../../etc/passwd'),
         ['field "trace"', 'escapes the entry directory']),
        ('archive add: trace.log a symbolic link out', link_trace,
         ['field "trace"', 'escapes the entry directory']),
        ('archive add: empty trace_sha256', set_field('trace_sha256', ''),
         ['field "trace_sha256"', 'empty']),
        ('archive add: trace is the directory', set_field('trace', '.'),
         ['field "trace"', 'escapes the entry directory']),
    ]
    for i, (name, edit, needles) in enumerate(add_cases):
        manifest = edited(tmp, f'add{i}', edit)
        archive = os.path.join(tmp, f'add{i}', 'archive')
        refused(name, [dtrcheck, 'archive', 'add', manifest, '--archive', archive, '--no-oracle'],
                manifest, *needles)
        check(name + ': nothing archived', not os.path.exists(archive),
              f'{archive}: {leftovers(archive, [])}')

    del_sha = edited(tmp, 'nosha', lambda m, d: m.pop('trace_sha256'))
    check_cases = [
        ('check-finding: trace climbs out', edited(tmp, 'c1', set_field('trace', climb)),
         ['field "trace"', 'escapes the entry directory']),
        ('check-finding: trace absolute', edited(tmp, 'c2', set_field('trace', SECRET)),
         ['field "trace"', 'absolute path']),
        ('check-finding: trace.log a symbolic link out', edited(tmp, 'c3', link_trace),
         ['field "trace"', 'escapes the entry directory']),
        ('check-finding: empty trace_sha256', edited(tmp, 'c4', set_field('trace_sha256', '')),
         ['field "trace_sha256"', 'empty; the SHA-256 of the file it guards is required']),
        ('check-finding: no trace_sha256', del_sha, ['trace_sha256']),
        ('check-finding: trace_sha256 not a digest',
         edited(tmp, 'c5', set_field('trace_sha256', 'x' * 64)),
         ['field "trace_sha256"', 'is not a SHA-256']),
    ]
    for name, manifest, needles in check_cases:
        refused(name, [dtrcheck, 'check-finding', manifest], manifest, *needles)
        refused(name + ' (entry directory)',
                [dtrcheck, 'check-finding', os.path.dirname(manifest)], *needles)
    refused('bucket: trace climbs out', [dtrcheck, 'bucket', edited(tmp, 'b1', set_field(
        'trace', climb))], 'field "trace"', 'escapes the entry directory')

    # The entry as archived still passes: the checks refuse only what escapes.
    ok = edited(tmp, 'fine', lambda m, d: None)
    r = run([dtrcheck, 'check-finding', ok])
    check('check-finding: the untouched entry holds', r.returncode == 0,
          f'exit {r.returncode}: {r.stdout[-300:]} {r.stderr[-300:]}')

sys.exit(finish())
