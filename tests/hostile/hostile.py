"""Shared by the hostile-input scripts: run dtrcheck, check a refusal."""
import os
import subprocess
from typing import Callable, List, Optional

FAILURES: List[str] = []


def run(args: List[str], timeout: float = 120,
        preexec_fn: Optional[Callable[[], None]] = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec_fn)


def check(name: str, ok: bool, detail: str = '') -> None:
    print(('ok   ' if ok else 'FAIL ') + name + ('' if ok else ': ' + detail))
    if not ok:
        FAILURES.append(name)


def refused(name: str, args: List[str], *needles: str,
            preexec_fn: Optional[Callable[[], None]] = None) -> subprocess.CompletedProcess:
    """The command exits 2 and its error names every needle."""
    r = run(args, preexec_fn=preexec_fn)
    missing = [n for n in needles if n not in r.stderr]
    check(name, r.returncode == 2 and not missing,
          f'exit {r.returncode}, missing {missing} in stderr: {r.stderr.strip()[:600]}')
    return r


def leftovers(directory: str, keep: List[str]) -> List[str]:
    """Files in directory (recursively) other than keep (relative names)."""
    out = []
    for root, _, files in os.walk(directory):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), directory)
            if rel not in keep:
                out.append(rel)
    return sorted(out)


def finish() -> int:
    if FAILURES:
        print(f'{len(FAILURES)} failed: ' + ', '.join(FAILURES))
        return 1
    print('all passed')
    return 0
