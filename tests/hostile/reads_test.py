#!/usr/bin/env python3
"""Hostile input, class 2 (issue 45): unbounded reads. Every JSON and JSON
Lines input (replay's corpus, sweep --merge, scan --records, census, a
manifest, a parity manifest and its case.jsonl, a fuzzer input) goes through the one bounded
reader: a special file (/dev/zero, a FIFO, a directory) is refused by name
before a byte is read, a line past 16 MiB is refused naming its line, and a failed
allocation is an error, never an end of file that reads as "0 passed".

Each case runs under a 3 GB address-space limit and a timeout (a FIFO
would block a reader that opens it): exit 2, the message names the file.
(The trace reader's own bound on a device or a pipe, /dev/zero stopped at
its first 16 MiB line, is base/file_text_test's BoundsWhatIsRead: the TRACE
argument accepts regular files only.)

    reads_test.py DTRCHECK SOURCE_DIR
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from typing import List

from hostile import check, finish, refused

dtrcheck, source = sys.argv[1], sys.argv[2]
TRACE = os.path.join(source, 'tests', 'data', 'small_resnet.log')


def capped() -> None:
    limit = 3 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def hostile(name: str, args: List[str], *needles: str) -> None:
    try:
        refused(name, args, *needles, preexec_fn=capped)
    except subprocess.TimeoutExpired:
        check(name, False, 'timed out (blocked or reading forever)')


with tempfile.TemporaryDirectory() as tmp:
    fifo = os.path.join(tmp, 'fifo.jsonl')
    os.mkfifo(fifo)
    directory = os.path.join(tmp, 'dir.jsonl')
    os.mkdir(directory)
    long_line = os.path.join(tmp, 'long.jsonl')
    with open(long_line, 'w') as f:
        f.write('\n"' + 'x' * (17 << 20) + '"\n')
    big = os.path.join(tmp, 'big.bin')
    with open(big, 'wb') as b:
        b.write(b'\0' * (2 << 20))

    specials = [('/dev/zero', 'is a character device'), (fifo, 'is a FIFO'),
                (directory, 'directory')]  # CLI11 says "is actually a directory"
    for path, what in specials:
        hostile(f'replay {path}', [dtrcheck, 'replay', path], path, what)
        hostile(f'sweep --merge {path}', [dtrcheck, 'sweep', '--merge', path], path, what)
        hostile(f'scan --records {path}',
                [dtrcheck, 'scan', TRACE, '--records', path], path, what)
        hostile(f'census {path}', [dtrcheck, 'census', f'{TRACE}={path}'], path, what)
        hostile(f'fuzz-decode {path}', [dtrcheck, 'fuzz-decode', path], path, what)
        if path != directory:  # a directory is an entry: its manifest.json is read
            hostile(f'check-finding {path}', [dtrcheck, 'check-finding', path], path, what)
            hostile(f'bucket {path}', [dtrcheck, 'bucket', path], path, what)
    hostile('replay: a 17 MiB line', [dtrcheck, 'replay', long_line], long_line + ':2: a line of')
    hostile('sweep --merge: a 17 MiB line', [dtrcheck, 'sweep', '--merge', long_line],
            long_line + ':2: a line of')
    hostile('check-finding: a manifest past 16 MiB', [dtrcheck, 'check-finding', long_line],
            long_line, 'longer than')
    # A parity archive whose manifest was cut short (a full disk, an
    # interrupted copy): exit 2 naming it, not an internal error.
    parity = os.path.join(tmp, 'parity')
    entry = os.path.join(source, 'corpus', 'parity', sorted(os.listdir(
        os.path.join(source, 'corpus', 'parity')))[0])
    shutil.copytree(entry, os.path.join(parity, 'entry'))
    manifest = os.path.join(parity, 'entry', 'manifest.json')
    with open(manifest) as m:
        text = m.read()
    with open(manifest, 'w') as m:
        m.write(text[:len(text) // 2])
    hostile('fuzz-diff --replay: a truncated parity manifest',
            [dtrcheck, 'fuzz-diff', '--replay', parity], manifest, 'not JSON')
    # The same archive with its case.jsonl (what the replay compares) a FIFO
    # (a reader would block), /dev/zero (it would read forever) or one line
    # past 16 MiB: the bounded reader refuses it by name.
    with open(manifest, 'w') as m:
        m.write(text)
    case = os.path.join(parity, 'entry', 'case.jsonl')
    os.remove(case)
    os.mkfifo(case)
    hostile('fuzz-diff --replay: case.jsonl a FIFO',
            [dtrcheck, 'fuzz-diff', '--replay', parity], case, 'is a FIFO')
    os.remove(case)
    os.symlink('/dev/zero', case)
    hostile('fuzz-diff --replay: case.jsonl /dev/zero',
            [dtrcheck, 'fuzz-diff', '--replay', parity], case, 'is a character device')
    os.remove(case)
    shutil.copyfile(long_line, case)
    hostile('fuzz-diff --replay: case.jsonl with a 17 MiB line',
            [dtrcheck, 'fuzz-diff', '--replay', parity], case + ':2: a line of')
    hostile('fuzz-decode: 2 MiB is no fuzzer input', [dtrcheck, 'fuzz-decode', big],
            big, 'longer than 1048576 bytes')

sys.exit(finish())
