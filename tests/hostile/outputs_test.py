#!/usr/bin/env python3
"""Hostile use, class 4 (issue 45): outputs. dtrcheck never writes over its
input (compared by device and inode, so a hard or symbolic link is caught
too); every output is written to a unique temporary beside it and renamed
(io/atomic_file.h), so a full disk or a missing directory is exit 2 naming
the file with no temporary left, and two sweeps writing one file leave one
whole output; a sweep stopped by Ctrl-C leaves FILE.partial, never FILE,
which census and sweep --merge refuse and sweep --resume finishes; two
fuzz campaigns on one findings directory: the second exits 2.

    outputs_test.py DTRCHECK SOURCE_DIR
"""
import fcntl
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable

from hostile import check, finish, leftovers, refused, run

dtrcheck, source = sys.argv[1], sys.argv[2]
SMALL = os.path.join(source, 'tests', 'data', 'small_resnet.log')


def digest(path: str) -> str:
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def small_files(limit: int) -> Callable[[], None]:
    """A file-size limit (a disk that fills up): writes past it fail with
    EFBIG once SIGXFSZ is ignored, as they would with ENOSPC."""
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, 'trace.log')
    shutil.copyfile(SMALL, trace)
    os.link(trace, os.path.join(tmp, 'hard.log'))
    os.symlink(trace, os.path.join(tmp, 'sym.log'))
    before = digest(trace)

    # Never over an input, whatever the name.
    for out in [trace, os.path.join(tmp, 'hard.log'), os.path.join(tmp, 'sym.log'),
                os.path.join(tmp, '.', 'trace.log')]:
        refused(f'sweep X -o {os.path.basename(out)}',
                [dtrcheck, 'sweep', trace, '--from', '0.5', '--to', '0.6', '--step', '0.1',
                 '-o', out], 'is the input trace', out, trace)
    refused('reduce X -o X', [dtrcheck, 'reduce', trace, '--property', 'inversion', '--lo', '0.3',
                              '--hi', '0.5', '-o', os.path.join(tmp, 'hard.log')],
            'is the input trace')
    refused('optimal X --schedule X', [dtrcheck, 'optimal', trace, '--ratio', '0.5',
                                       '--schedule', trace], '--schedule', 'is the input trace')
    check('the trace is untouched', digest(trace) == before)

    records = os.path.join(tmp, 'records.jsonl')
    r = run([dtrcheck, 'sweep', trace, '--from', '0.4', '--to', '0.6', '--step', '0.1',
             '--format', 'jsonl', '-o', records])
    check('a sweep writes its records', r.returncode == 0, r.stderr)
    kept = digest(records)
    refused('sweep --merge X -o X', [dtrcheck, 'sweep', '--merge', records, '-o', records],
            'is the input --merge file')
    refused('census X --markdown X', [dtrcheck, 'census', f'{trace}={records}',
                                      '--markdown', records], 'is the input records')
    check('the records are untouched', digest(records) == kept)

    # Outputs that cannot be written: exit 2 naming the file, nothing left.
    missing = os.path.join(tmp, 'no', 'such', 'dir', 'out.log')
    refused('gen -o in a missing directory', [dtrcheck, 'gen', '--shape', 'chain', '-o', missing],
            missing, 'cannot write')
    if os.path.isdir('/sys'):  # read-only even for root, who writes into a chmod 555 directory
        refused('gen -o in a read-only directory',
                [dtrcheck, 'gen', '--shape', 'chain', '-o', '/sys/dtrcheck-hostile.log'],
                '/sys/dtrcheck-hostile.log', 'cannot write')
    refused('gen -o a directory', [dtrcheck, 'gen', '--shape', 'chain', '-o', tmp], tmp,
            'is a directory')
    full = os.path.join(tmp, 'full')
    os.mkdir(full)
    refused('sweep -o on a full disk',
            [dtrcheck, 'sweep', trace, '--from', '0.3', '--to', '0.9', '--step', '0.01',
             '--format', 'jsonl', '-o', os.path.join(full, 'out.jsonl')],
            os.path.join(full, 'out.jsonl'), 'cannot write', preexec_fn=small_files(4096))
    refused('scan --report on a full disk',
            [dtrcheck, 'scan', trace, '--from', '0.3', '--to', '0.9', '--step', '0.01',
             '--report', os.path.join(full, 'report')],
            os.path.join(full, 'report', 'points.jsonl'), 'cannot write',
            preexec_fn=small_files(4096))
    check('a full disk leaves no file behind', leftovers(full, []) == [], str(leftovers(full, [])))

    # Two sweeps writing one file: one whole output, never a mix.
    mid = os.path.join(tmp, 'mid.log')
    r = run([dtrcheck, 'gen', '--shape', 'resnet', '--layers', '30', '-o', mid])
    check('gen writes a trace', r.returncode == 0, r.stderr)
    grid = ['--from', '0.3', '--to', '0.9', '--step', '0.02', '--format', 'jsonl']
    reference = os.path.join(tmp, 'reference.jsonl')
    r = run([dtrcheck, 'sweep', mid] + grid + ['-o', reference])
    check('the reference sweep', r.returncode == 0, r.stderr)
    shared = os.path.join(tmp, 'shared.jsonl')
    both = [subprocess.Popen([dtrcheck, 'sweep', mid] + grid + ['--jobs', '1', '-o', shared],
                             stderr=subprocess.PIPE) for _ in range(2)]
    codes = [p.wait(timeout=600) for p in both]
    check('two sweeps on one -o both finish', codes == [0, 0], str(codes))
    check('two sweeps on one -o leave one whole output',
          os.path.exists(shared) and digest(shared) == digest(reference))

    # Ctrl-C: the finished points go to FILE.partial, never FILE.
    out = os.path.join(tmp, 'stopped.jsonl')
    sweep = subprocess.Popen([dtrcheck, 'sweep', mid] + grid + ['--jobs', '1', '-o', out],
                             stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and sweep.poll() is None:
        temporaries = [f for f in os.listdir(tmp) if f.startswith('.stopped.jsonl.')]
        if temporaries and os.path.getsize(os.path.join(tmp, temporaries[0])) > 0:
            break
        time.sleep(0.05)
    sweep.send_signal(signal.SIGINT)
    _, err = sweep.communicate(timeout=300)
    partial = out + '.partial'
    check('Ctrl-C: exit 130', sweep.returncode == 130, f'exit {sweep.returncode}: {err}')
    check('Ctrl-C: nothing under the final name', not os.path.exists(out))
    check('Ctrl-C: the finished points in FILE.partial',
          os.path.exists(partial) and os.path.getsize(partial) > 0, err)
    check('Ctrl-C: the message names FILE.partial', partial in err, err)
    refused('census refuses a partial sweep', [dtrcheck, 'census', f'{mid}={partial}'],
            partial, 'partial result of an interrupted sweep')
    refused('sweep --merge refuses a partial sweep', [dtrcheck, 'sweep', '--merge', partial],
            partial, 'partial result of an interrupted sweep')
    r = run([dtrcheck, 'sweep', mid] + grid + ['--resume', partial, '-o', out], timeout=600)
    check('sweep --resume FILE.partial -o FILE finishes the sweep',
          r.returncode == 0 and digest(out) == digest(reference), r.stderr)
    check('the finished resume removes FILE.partial', not os.path.exists(partial))
    check('no temporary is left', [f for f in os.listdir(tmp) if f.endswith('.tmp')] == [])

    # Two campaigns on one findings directory: the second refuses.
    findings = os.path.join(tmp, 'findings')
    os.makedirs(findings)
    with open(os.path.join(findings, 'lock'), 'a+b') as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        refused('a second campaign on one findings directory',
                [sys.executable, os.path.join(source, 'fuzz', 'campaign'), 'triage',
                 '--findings', findings, '--dtrcheck', dtrcheck], findings, 'is in use')

sys.exit(finish())
