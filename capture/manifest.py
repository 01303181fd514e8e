"""traces/captured/: the compressed logs of the zoo and their manifest.

A log is stored gzip-compressed (no file name, mtime 0, so the same log gives the same
bytes with the same zlib); the manifest pins the SHA-256 of the decompressed log, which is
what dtrcheck checks when it hands the log out (`dtrcheck trace-path NAME`).
"""

import gzip
import hashlib
import io
import json
import os
import subprocess
from typing import Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPTURED_DIR = os.path.join(REPO, 'traces', 'captured')
MANIFEST = os.path.join(CAPTURED_DIR, 'manifest.json')


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def gzip_bytes(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(filename='', mode='wb', fileobj=out, compresslevel=9, mtime=0) as f:
        f.write(data)
    return out.getvalue()


def read_manifest(path: str = MANIFEST) -> Dict[str, object]:
    if not os.path.exists(path):
        return {'traces': []}
    with open(path) as f:
        return json.load(f)


def write_manifest(manifest: Dict[str, object], path: str = MANIFEST) -> None:
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(manifest, f, indent=2, sort_keys=False)
        f.write('\n')
    os.replace(tmp, path)


def upsert(manifest: Dict[str, object], entry: Dict[str, object], order: List[str]) -> None:
    """Puts entry in place of the one with its name, keeping the traces in `order`."""
    traces = [t for t in manifest['traces'] if t['name'] != entry['name']]  # type: ignore
    traces.append(entry)
    rank = {name: i for i, name in enumerate(order)}
    traces.sort(key=lambda t: rank.get(t['name'], len(rank)))
    manifest['traces'] = traces


def default_dtrcheck() -> str:
    return os.path.join(REPO, 'build', 'bin', 'dtrcheck')


def baseline(dtrcheck: str, log_path: str) -> Optional[Dict[str, int]]:
    """The unbounded baseline's peak and compute (dtrcheck run --ratio 1.0), or None."""
    if not os.path.exists(dtrcheck):
        return None
    proc = subprocess.run([dtrcheck, 'run', log_path, '--ratio', '1.0', '--json'],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError('dtrcheck run failed on {}: {}'.format(log_path, proc.stderr))
    record = json.loads(proc.stdout)
    return {'baseline_peak': int(record['baseline_peak']),
            'baseline_compute': int(record['baseline_compute']),
            'status_at_ratio_1': record['status']}


def debian_version(package: str) -> Optional[str]:
    try:
        proc = subprocess.run(['dpkg-query', '-W', '-f=${Version}', package],
                              capture_output=True, text=True)
    except OSError:
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None
