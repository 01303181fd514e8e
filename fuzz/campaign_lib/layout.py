"""Where a campaign keeps things, and writing them so that a crash or a
Ctrl-C never leaves a half-written file behind.

A findings directory (default fuzz/findings/, ignored by git) holds:
  claims/              one file per pathology signature, named by its id
                       (SignatureId), holding the fuzzer input that found
                       it; written by pathology_fuzzer ($DTRCHECK_FUZZ_CLAIMS)
  corpus/<target>/     libFuzzer's working corpus, kept across campaigns
  artifacts/<target>/  libFuzzer's crash-/leak-/timeout-/oom- files
  logs/<stamp>/<target>/  the fuzzers' output (fuzz-<job>.log)
  triage/<item>/       decoded trace, reduction, result.json once finished
  bugs/<target>/       artifacts that are bugs (sanitizer reports, crashes)
  campaigns.jsonl      one line per campaign: start, end, host, options
  report.md            the last campaign's report, saturation-<stamp>.svg
                       its curve of new buckets
  lock                 held (flock) by the run, triage or merge using the
                       directory; a second one exits 2 (Findings.lock)
The archive (default corpus/ of the repository) holds the counterexamples:
  <kind>/<id>/trace.log, manifest.json, input.bin
  buckets/<bucket id>.json   their root-cause buckets (buckets.py)
"""
import fcntl
import functools
import json
import os
import subprocess
import sys
import tempfile
from typing import IO, Any, Dict, List, Optional, Tuple, Union

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = ('pathology_fuzzer', 'trace_parse_fuzzer')


@functools.lru_cache(maxsize=None)
def kinds(dtrcheck: str) -> Tuple[str, ...]:
    """The pathology kinds, the archive's <kind>/ folders: `dtrcheck kinds
    --json`, so that the list is spelled once (analysis/reduce_property.cc)."""
    try:
        out = subprocess.run([dtrcheck, 'kinds', '--json'], capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(f'{dtrcheck} kinds: {e}') from e
    if out.returncode != 0:
        raise RuntimeError(f'{dtrcheck} kinds: exit {out.returncode}: {out.stderr.strip()}')
    return tuple(json.loads(out.stdout)['kinds'])


class Findings:
    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self.claims = os.path.join(self.root, 'claims')
        self.triage = os.path.join(self.root, 'triage')
        self.campaigns = os.path.join(self.root, 'campaigns.jsonl')
        self.report = os.path.join(self.root, 'report.md')

    def corpus(self, target: str) -> str:
        return os.path.join(self.root, 'corpus', target)

    def artifacts(self, target: str) -> str:
        return os.path.join(self.root, 'artifacts', target)

    def bugs(self, target: str) -> str:
        return os.path.join(self.root, 'bugs', target)

    def logs(self, stamp: str, target: str) -> str:
        return os.path.join(self.root, 'logs', stamp, target)

    def ensure(self) -> None:
        per_target = [f(t) for t in TARGETS for f in (self.corpus, self.artifacts)]
        for d in [self.claims, self.triage] + per_target:
            os.makedirs(d, exist_ok=True)

    def lock(self) -> IO[bytes]:
        """Takes the directory for this process: two campaigns triaging one
        findings directory would count the same claims twice and race on
        their representatives. An exclusive flock on ROOT/lock, held until
        the returned file is closed (or the process ends, however it ends);
        a second taker exits 2 naming the directory and the holder."""
        os.makedirs(self.root, exist_ok=True)
        path = os.path.join(self.root, 'lock')
        f = open(path, 'a+b')
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().decode(errors='replace').strip() or 'another process'
            f.close()
            print(f'campaign: {self.root} is in use by {holder} (its lock {path} is held); '
                  'wait for it to finish or use another --findings', file=sys.stderr)
            sys.exit(2)
        f.truncate(0)
        f.write(f'pid {os.getpid()}\n'.encode())
        f.flush()
        return f


def write_atomic(path: str, data: Union[str, bytes]) -> None:
    """Writes bytes or text to path through a temporary file renamed into place."""
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or '.', prefix='.tmp-')
    with os.fdopen(fd, 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.replace(tmp, path)


def write_json(path: str, obj: Any) -> None:
    write_atomic(path, json.dumps(obj, indent=2) + '\n')


def read_json(path: str, default: Optional[Any] = None) -> Any:
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def append_jsonl(path: str, obj: Any) -> None:
    with open(path, 'a') as f:
        f.write(json.dumps(obj) + '\n')


def read_jsonl(path: str) -> List[Dict[str, Any]]:
    out = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass  # a line cut by a crash
    except OSError:
        pass
    return out
