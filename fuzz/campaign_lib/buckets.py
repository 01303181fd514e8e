"""Root-cause buckets of the archive (fuzz/README.md, "Buckets").

The bucket key of a reduced counterexample is computed by `dtrcheck bucket`
(analysis/bucket.h): labels, failure, oom site and policy family. This
module only keeps the record
of each bucket, ARCHIVE/buckets/<bucket id>.json:

  id, key, labels, failure, oom_site, family   from dtrcheck (the same for
                  every member: they make the key)
  hits            every finding that landed in the bucket: its claim (the
                  signature id the fuzzer claimed), the SHA-256 of its input,
                  when it was found, its configuration, its reduced trace's
                  size, canonical form (trace_form) and features, and the
                  archive entry filed for it, if any
  representative  the hit with an entry whose reduced trace is smallest:
                  (operators, instructions, trace_form) ascending, then the
                  entry's name; and the entries holding that same trace form
  count, first_seen, last_seen, inputs   derived from the hits

Everything but the hits is derived from them (`normalize`), and hits are a
set keyed by (claim, input): merging two records is a union of hits, so
archives merge to the same bytes in any order and however the findings were
split between machines.

An archive keeps one entry per bucket, its representative (`prune`): the
other members are near-duplicates (the same mechanism in a larger trace, or
the same trace filed under its other label), so their directories are
removed and their hits stay, with no entry (`pruned` names what was filed,
so the campaign still knows the signature is done): the count, first and
last seen and inputs still say every time the bucket was hit.
"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .layout import kinds, read_json, write_json

Json = Dict[str, Any]
KEY_FIELDS = ('id', 'key', 'labels', 'failure', 'oom_site', 'family')


def store_dir(archive: str) -> str:
    return os.path.join(archive, 'buckets')


def sha256_of_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        h.update(f.read())
    return h.hexdigest()


def hit_key(hit: Json) -> Tuple[str, str]:
    return (str(hit['claim']), str(hit['input_sha256']))


def size_key(hit: Json) -> Tuple[int, int, str]:
    """The order of reduced traces: smaller first, the canonical form breaking ties."""
    return (int(hit['operators']), int(hit['instructions']), str(hit['trace_form']))


def merge_hit(a: Json, b: Json) -> Json:
    """One hit seen twice (another machine, a re-run): the earliest sighting,
    and the entry filed for it if either filed one (the smaller name if both)."""
    out = dict(a)
    out['found_at'] = min(str(a.get('found_at') or '~'), str(b.get('found_at') or '~'))
    if out['found_at'] == '~':
        out['found_at'] = None
    entries = sorted(e for e in (a.get('entry'), b.get('entry')) if e)
    out['entry'] = entries[0] if entries else None
    pruned = sorted(e for e in (a.get('pruned'), b.get('pruned')) if e)
    out.pop('pruned', None)
    if pruned:
        out['pruned'] = pruned[0]
    if size_key(b) < size_key(a):  # the same claim reduced twice: keep the smaller
        for k in ('operators', 'instructions', 'trace_form', 'features'):
            out[k] = b[k]
    return out


def normalize(record: Json) -> Json:
    """The record with its derived fields recomputed from its hits, and its
    lists sorted: a function of the set of hits and the key alone."""
    hits: Dict[Tuple[str, str], Json] = {}
    for h in record.get('hits', []):
        k = hit_key(h)
        hits[k] = merge_hit(hits[k], h) if k in hits else dict(h)
    # Fields in one order too: the bytes written depend on the hits alone.
    ordered = [dict(sorted(hits[k].items())) for k in sorted(hits)]
    out: Json = {k: record[k] for k in KEY_FIELDS}
    filed = [h for h in ordered if h.get('entry')]
    rep: Optional[Json] = None
    if filed:
        best = min(size_key(h) for h in filed)
        same = [h for h in filed if size_key(h) == best]
        rep = {'entry': min(str(h['entry']) for h in same),
               'entries': sorted({str(h['entry']) for h in same}),
               'operators': best[0], 'instructions': best[1], 'trace_form': best[2]}
    seen = sorted(str(h['found_at']) for h in ordered if h.get('found_at'))
    out.update(count=len(ordered), first_seen=seen[0] if seen else None,
               last_seen=seen[-1] if seen else None,
               inputs=sorted({str(h['input_sha256']) for h in ordered}),
               representative=rep, hits=ordered)
    return out


def merge_records(a: Json, b: Json) -> Json:
    if a['key'] != b['key']:
        raise ValueError(f"bucket {a['id']}: two keys: {a['key']!r} and {b['key']!r}")
    return normalize(dict(a, hits=list(a.get('hits', [])) + list(b.get('hits', []))))


class Store:
    """ARCHIVE/buckets/: read once, written record by record (atomically)."""

    def __init__(self, archive: str) -> None:
        self.dir = store_dir(archive)
        self.records: Dict[str, Json] = {}
        if os.path.isdir(self.dir):
            for name in sorted(os.listdir(self.dir)):
                if name.endswith('.json') and not name.startswith('.'):
                    r = read_json(os.path.join(self.dir, name))
                    if r and 'key' in r:
                        self.records[r['id']] = normalize(r)

    def add(self, record: Json) -> Tuple[Json, bool]:
        """Merges a record (or a bucket with new hits) in; returns the merged
        record and whether the bucket is new to this store."""
        rid = record['id']
        new = rid not in self.records
        merged = normalize(record) if new else merge_records(self.records[rid], record)
        self.records[rid] = merged
        write_json(os.path.join(self.dir, rid + '.json'), merged)
        return merged, new

    def replace(self, record: Json) -> Json:
        """Writes a record as given (not merged: `prune` clears entries,
        which a merge keeps)."""
        rid = record['id']
        self.records[rid] = normalize(record)
        write_json(os.path.join(self.dir, rid + '.json'), self.records[rid])
        return self.records[rid]

    def hit_of_entry(self, entry: str) -> Optional[Tuple[Json, Json]]:
        """(record, hit) of the finding filed as `entry` (kind/id), whether
        the entry is archived or was pruned as a near-duplicate."""
        for rid in sorted(self.records):
            for h in self.records[rid]['hits']:
                if entry in (h.get('entry'), h.get('pruned')):
                    return self.records[rid], h
        return None

    def files(self) -> Dict[str, str]:
        """Bucket id -> the record's bytes as written: what tests compare."""
        return {rid: json.dumps(r, indent=2) + '\n' for rid, r in sorted(self.records.items())}


def bucket_of(dtrcheck: str, manifests: List[str], env: Optional[Dict[str, str]] = None) -> \
        List[Json]:
    """`dtrcheck bucket` on each manifest: [{"manifest", "bucket": {...}, ...}]."""
    if not manifests:
        return []
    out = subprocess.run([dtrcheck, 'bucket'] + manifests, capture_output=True, text=True,
                         env=env)
    if out.returncode != 0:
        raise RuntimeError(f'dtrcheck bucket: exit {out.returncode}: {out.stderr.strip()}')
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def record_of(bucket: Json, hits: Iterable[Json]) -> Json:
    """A bucket record from `dtrcheck bucket`'s "bucket" object and hits."""
    return normalize(dict({k: bucket[k] for k in KEY_FIELDS}, hits=list(hits)))


def hit_of_manifest(manifest_path: str, bucket: Json, claim: Optional[str] = None,
                    entry: Optional[str] = None, found_at: Optional[str] = None,
                    input_sha256: Optional[str] = None) -> Json:
    """The hit of a reduced counterexample, from its manifest (archived or as
    `dtrcheck reduce` wrote it) and its bucket. The input is `input_sha256`,
    or the fuzzer's (input.bin beside an archived manifest,
    fuzzer.input_base64 otherwise)."""
    m = read_json(manifest_path) or {}
    fuzzer = m.get('fuzzer') or {}
    input_path = os.path.join(os.path.dirname(manifest_path), 'input.bin')
    if input_sha256:
        input_sha = input_sha256
    elif os.path.exists(input_path):
        input_sha = sha256_of_file(input_path)
    elif fuzzer.get('input_base64'):
        input_sha = hashlib.sha256(base64.b64decode(fuzzer['input_base64'])).hexdigest()
    else:  # reduced by hand: the trace stands for the input
        input_sha = str(m.get('before', {}).get('sha256') or m.get('trace_sha256'))
    return {'claim': claim or m.get('id') or m.get('trace_sha256', '')[:16],
            'signature': m.get('signature', ''),
            'input_sha256': input_sha,
            'found_at': found_at or fuzzer.get('found_at'),
            'operators': m['operators']['after'], 'instructions': m['instructions']['after'],
            'trace_form': bucket['trace_form'], 'features': bucket.get('features', []),
            'config': m.get('config', {}),
            'entry': entry}


def archive_entries(archive: str, dtrcheck: str) -> List[Tuple[str, str]]:
    """(kind/id, manifest path) of every archived entry, sorted."""
    out = []
    for kind in kinds(dtrcheck):
        kdir = os.path.join(archive, kind)
        if not os.path.isdir(kdir):
            continue
        for name in sorted(os.listdir(kdir)):
            manifest = os.path.join(kdir, name, 'manifest.json')
            if not name.startswith('.') and os.path.exists(manifest):
                out.append((f'{kind}/{name}', manifest))
    return out


def rebuild(archive: str, dtrcheck: str, env: Optional[Dict[str, str]] = None) -> Dict[str, Json]:
    """The buckets of every entry of the archive, computed afresh (each entry
    is a hit of its own claim), merged with the hits the store already has
    (findings that were not filed)."""
    entries = archive_entries(archive, dtrcheck)
    results = bucket_of(dtrcheck, [m for _, m in entries], env)
    records: Dict[str, Json] = {}
    for (entry, manifest), res in zip(entries, results):
        b = res['bucket']
        rec = record_of(b, [hit_of_manifest(manifest, b, entry=entry)])
        records[b['id']] = merge_records(records[b['id']], rec) if b['id'] in records else rec
    for rid, old in Store(archive).records.items():
        records[rid] = merge_records(records[rid], old) if rid in records else old
    return records


def sync(store: Store, archive: str, dtrcheck: str, env: Optional[Dict[str, str]] = None) -> int:
    """Adds a hit for each archived entry that no bucket record names (an
    archive filed before buckets, or entries merged in without their
    records); returns how many."""
    named = {h.get('entry') for r in store.records.values() for h in r['hits']}
    missing = [(e, m) for e, m in archive_entries(archive, dtrcheck) if e not in named]
    for (entry, manifest), res in zip(missing, bucket_of(dtrcheck, [m for _, m in missing], env)):
        b = res['bucket']
        store.add(record_of(b, [hit_of_manifest(manifest, b, entry=entry)]))
    return len(missing)


def prune_bucket(store: Store, archive: str, rid: str) -> List[str]:
    """Removes the entries of bucket `rid` other than its representative:
    the record is written first (their hits lose their entry), then each
    directory is renamed out of place and deleted, so an interruption leaves
    either a spare directory (the next prune removes it; `sync` gives it a
    hit again meanwhile) or nothing, never a record naming a missing
    representative. Returns the removed entries (kind/id)."""
    record = store.records[rid]
    rep = record.get('representative')
    if not rep:
        return []
    drop = sorted({str(h['entry']) for h in record['hits']
                   if h.get('entry') and h['entry'] != rep['entry']})
    if not drop:
        return []
    store.replace(dict(record, hits=[dict(h, entry=None, pruned=h['entry'])
                                     if h.get('entry') in drop else h
                                     for h in record['hits']]))
    for entry in drop:
        path = os.path.join(archive, entry)
        if os.path.isdir(path):
            kind, name = entry.split('/', 1)
            gone = os.path.join(archive, kind, f'.tmp-prune-{name}-{os.getpid()}')
            os.rename(path, gone)
            shutil.rmtree(gone)
    return drop


def prune(store: Store, archive: str) -> List[str]:
    """`prune_bucket` on every bucket: the archive keeps one entry per
    bucket. Returns the removed entries, sorted."""
    removed: List[str] = []
    for rid in sorted(store.records):
        removed += prune_bucket(store, archive, rid)
    return sorted(removed)
