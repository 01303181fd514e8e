#!/usr/bin/env python3
"""CPU time and peak RSS of one command, in microseconds.

    bench/cpu_time.py --append FILE -- COMMAND ARGS...

runs COMMAND with this process's standard streams and appends one line
"USER_SECONDS SYSTEM_SECONDS MAX_RSS_KB" to FILE, from the kernel's
accounting of that child (wait4), as `/usr/bin/time -f "%U %S %M"` would,
but without its 10 ms steps, which on a 0.1 s run are a tenth of it. Exits
with the command's exit code. The peak RSS has a floor: Linux keeps a
process's peak across exec, and the child is this Python (about 14 MB)
until it execs the command, as it was /usr/bin/time (2 MB) before.
bench_vs_simrd.sh times both sides with it; compare_builds.py uses its
run_timed.
"""
import argparse
import os
import resource
import subprocess
import sys
from typing import List, Optional, Tuple


def run_timed(command: List[str], stdout: Optional[int] = None,
              stderr: Optional[int] = None) -> Tuple[int, resource.struct_rusage, bytes]:
    """Runs command; its exit code, its own rusage, and its standard output
    if stdout is subprocess.PIPE (else b''). stdout and stderr: None
    (inherited), subprocess.PIPE or subprocess.DEVNULL."""
    p = subprocess.Popen(command, stdout=stdout, stderr=stderr)
    out = b''
    if p.stdout is not None:
        out = p.stdout.read()
        p.stdout.close()
    # wait4: this child's own rusage, in microseconds (os.times counts in
    # clock ticks, 10 ms).
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage, out


def main() -> int:
    parser = argparse.ArgumentParser(
        description='CPU time and peak RSS of one command, appended to a file')
    parser.add_argument('--append', required=True, help='file to append "USER SYS MAXRSS_KB" to')
    parser.add_argument('command', nargs=argparse.REMAINDER, help='-- then the command')
    o = parser.parse_args()
    command = o.command[1:] if o.command[:1] == ['--'] else o.command
    if not command:
        parser.error('needs the command after --')
    code, usage, _ = run_timed(command)
    with open(o.append, 'a') as f:
        f.write(f'{usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss}\n')
    return code


if __name__ == '__main__':
    sys.exit(main())
