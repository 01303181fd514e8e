"""Triage: from a fuzzer's finding to an archived, reduced, confirmed
counterexample.

A pathology claim (claims/<id>, the input that first showed signature <id>)
goes through:
  decode     `dtrcheck fuzz-decode` (the fuzzer's own decoder): the trace,
             the sweep and its findings; the one whose id is the claim's is
             the finding to triage.
  promote    an inversion whose decoded sweep also has a pinned-oom finding
             of the same two runs is that finding: one failure, reduced
             once with the stronger property, filed once (both labels).
  dedupe     a signature already archived (corpus/<kind>/<id>) is done: a
             hit of that entry's bucket.
  reduce     `dtrcheck reduce` with the finding's property, budgets and
             configuration; SIGINT after the time limit keeps the best
             trace so far (not 1-minimal then, and the manifest says so).
  archive    `dtrcheck archive add`, which writes the manifest: it re-checks
             the reduced trace, asks simrd (both budgets) when it is
             installed (a trace simrd runs differently is a parity bug, kept
             in triage/ and reported, never archived), treats a reduced
             trace identical to an archived one of the same kind and
             configuration as a duplicate, and writes corpus/<kind>/<id>/ in
             a temporary directory renamed into place: it either exists
             whole or not at all.
  bucket     `dtrcheck bucket` on the reduced trace (analysis/bucket.h); a
             bucket the archive has, with a representative no larger, is
             a hit only (status known-bucket, nothing filed); otherwise the
             trace is archived and becomes the bucket's representative.
             Every outcome with a bucket is recorded in ARCHIVE/buckets/
             (buckets.py). Pending claims with the same input and runs are
             finished with it (status same-finding).
An artifact of libFuzzer (crash-, leak-, timeout-, oom-) is rerun once to
keep its report, and filed under bugs/ unless it is a pathology report.
Each item ends with triage/<item>/result.json; an item without one is
pending and is triaged again by the next campaign.
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import buckets
from .layout import ROOT, Findings, kinds, read_json, read_jsonl, write_atomic, write_json

Json = Dict[str, Any]


class Interrupted(Exception):
    """The campaign was stopped (Ctrl-C) while an item was in progress."""


def rel(path: str) -> str:
    """A path relative to the repository when inside it: manifests are committed."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


class Triage:
    def __init__(self, findings: Findings, archive: str, dtrcheck: str, fuzz_bin: str,
                 env: Dict[str, str], reduce_timeout: float, oracle: bool = True,
                 log: Callable[[str], None] = print, optimal_seconds: float = 0) -> None:
        self.findings = findings
        self.archive = os.path.abspath(archive)
        self.dtrcheck = dtrcheck
        self.fuzz_bin = fuzz_bin
        self.env = env
        self.reduce_timeout = reduce_timeout
        self.oracle = oracle
        self.log = log
        self.optimal_seconds = optimal_seconds
        # claim id -> (decode json, finding) of pending claims
        self.decoded: Dict[str, Tuple[Json, Optional[Json]]] = {}
        self.store = buckets.Store(self.archive)
        self.sync_buckets()
        # What "new" means in this campaign's report: not in the archive before.
        self.known_buckets = set(self.store.records)

    # ----- buckets ---------------------------------------------------------
    def sync_buckets(self) -> None:
        """Buckets for archived entries no bucket record names yet (an
        archive filed before buckets, or entries merged in without theirs)."""
        buckets.sync(self.store, self.archive, self.dtrcheck, self.env)

    def claim_input_sha256(self, cid: str) -> str:
        return buckets.sha256_of_file(os.path.join(self.findings.claims, cid))

    def claim_found_at(self, cid: str) -> str:
        mtime = os.path.getmtime(os.path.join(self.findings.claims, cid))
        return time.strftime('%Y-%m-%dT%H:%M:%S+0000', time.gmtime(mtime))

    def record_hit(self, bucket: Json, hit: Json) -> Json:
        """Adds a hit to its bucket; the fields a result keeps about it."""
        record, _ = self.store.add(buckets.record_of(bucket, [hit]))
        return {'bucket': record['id'], 'bucket_key': record['key'],
                'labels': record['labels'], 'bucket_new': record['id'] not in self.known_buckets,
                'found_at': hit.get('found_at')}

    def entry_hit(self, cid: str, entry: str, signature: str,
                  found: Optional[Tuple[Json, Json]] = None) -> Json:
        """A claim whose failure is archived already (its signature, or the
        pinned-oom it is promoted to): a hit of that entry's bucket, with the
        entry's reduced trace. `found` is Store.hit_of_entry(entry) if the
        caller has looked it up already."""
        if found is None:
            found = self.store.hit_of_entry(entry)
        if found is None:  # not yet in the store (sync_buckets adds all at start)
            self.sync_buckets()
            found = self.store.hit_of_entry(entry)
        if found is None:
            return {}
        record, theirs = found
        hit = dict(theirs, claim=cid, signature=signature, entry=None,
                   input_sha256=self.claim_input_sha256(cid), found_at=self.claim_found_at(cid))
        hit.pop('pruned', None)
        return self.record_hit(record, hit)

    # ----- what is pending -------------------------------------------------
    def result_path(self, item: str) -> str:
        return os.path.join(self.findings.triage, item, 'result.json')

    def pending_claims(self) -> List[str]:
        out = []
        for path in glob.glob(os.path.join(self.findings.claims, '*')):
            name = os.path.basename(path)
            if '.tmp' in name or os.path.exists(self.result_path(name)):
                continue
            out.append(name)
        return out

    def pending_artifacts(self) -> List[Tuple[str, str, str]]:
        out = []
        for target in ('pathology_fuzzer', 'trace_parse_fuzzer'):
            for path in glob.glob(os.path.join(self.findings.artifacts(target), '*')):
                item = target + '-' + os.path.basename(path)
                if not os.path.exists(self.result_path(item)):
                    out.append((item, target, path))
        return sorted(out)

    def archived(self) -> Dict[str, Json]:
        """Manifests of the archive, by id."""
        out = {}
        for kind in kinds(self.dtrcheck):
            for m in glob.glob(os.path.join(self.archive, kind, '*', 'manifest.json')):
                j = read_json(m)
                if j:
                    out[j.get('id', os.path.basename(os.path.dirname(m)))] = j
        return out

    def next_claim(self) -> Optional[str]:
        """The pending claim to triage next: of the kind archived least so
        far (so that a short campaign ends with one of each kind rather than
        many of one), then the smallest trace (fastest to reduce)."""
        pending = self.pending_claims()
        if not pending:
            return None
        counts = {k: 0 for k in kinds(self.dtrcheck)}
        for j in self.archived().values():
            counts[j.get('kind', '')] = counts.get(j.get('kind', ''), 0) + 1
        best: Optional[Tuple[Tuple[int, int], str]] = None
        for cid in pending:
            if cid not in self.decoded:
                self.decoded[cid] = self.decode_claim(cid)
            decoded, finding = self.decoded[cid]
            if finding is None:
                key = (-1, 0)  # finished at once: not reproduced
            else:
                key = (counts.get(finding['kind'], 0), decoded['trace']['operators'])
            if best is None or key < best[0]:
                best = (key, cid)
        return best[1] if best else None

    # ----- pathology claims ------------------------------------------------
    def work(self, item: str) -> str:
        d = os.path.join(self.findings.triage, item)
        os.makedirs(d, exist_ok=True)
        return d

    def decode_claim(self, cid: str) -> Tuple[Json, Optional[Json]]:
        work = self.work(cid)
        claim = os.path.join(self.findings.claims, cid)
        out = subprocess.run([self.dtrcheck, 'fuzz-decode', claim,
                              '-o', os.path.join(work, 'original.log'), '--json'],
                             env=self.env, capture_output=True, text=True)
        if out.returncode != 0:
            return {'error': out.stderr.strip(), 'trace': {'operators': 0}}, None
        decoded = json.loads(out.stdout)
        write_json(os.path.join(work, 'decode.json'), decoded)
        finding = next((f for f in decoded['findings'] if f['id'] == cid), None)
        return decoded, finding

    def finish(self, item: str, result: Json) -> Json:
        result['item'] = item
        result['finished'] = time.strftime('%Y-%m-%dT%H:%M:%S%z')
        write_json(self.result_path(item), result)
        return result

    def time_to_find(self, cid: str) -> Optional[float]:
        """Seconds from the start of the campaign that was running when the
        claim was written to when it was written."""
        mtime = os.path.getmtime(os.path.join(self.findings.claims, cid))
        starts = [c['start'] for c in read_jsonl(self.findings.campaigns)
                  if c.get('targets') and c.get('start', 0) <= mtime]  # fuzzing campaigns only
        return (mtime - max(starts)) if starts else None

    def triage_claim(self, cid: str, deadline: Optional[float] = None) -> Json:
        if cid not in self.decoded:
            self.decoded[cid] = self.decode_claim(cid)
        decoded, finding = self.decoded.pop(cid)
        work = self.work(cid)
        if finding is None:
            why = decoded.get('error') or \
                'the finding is not in the decoded sweep (other cliff options?)'
            return self.finish(cid, {'status': 'not-reproduced', 'detail': why})
        claimed = finding
        finding = strongest(decoded, finding)
        fid = finding['id']  # the id the failure is filed under
        kind = finding['kind']
        base = {'kind': kind, 'signature': finding['signature'],
                'description': finding['description']}
        if fid != cid:
            base['claimed'] = {'kind': claimed['kind'], 'signature': claimed['signature']}
        # simrd-error: the generator made a trace simrd cannot run
        if kind not in kinds(self.dtrcheck):
            return self.finish(cid, dict(base, status='bug', detail=finding.get('detail', '')))
        target = os.path.join(self.archive, kind, fid)
        # Archived, or archived and then pruned as a bucket's near-duplicate.
        entry = f'{kind}/{fid}'
        found = self.store.hit_of_entry(entry)
        if os.path.exists(target) or found is not None:
            entry_fields = self.entry_hit(cid, entry, claimed['signature'], found)
            return self.finish(cid, dict(base, status='duplicate', archive=rel(target),
                                         detail='signature already archived', **entry_fields))

        reduced = os.path.join(work, 'reduced.log')
        # simrd is asked once, by `archive add`, not by reduce as well.
        cmd = [self.dtrcheck, 'reduce', os.path.join(work, 'original.log')] + \
            finding['reduce_arguments'] + ['-o', reduced, '--no-oracle']
        self.log(f'triage {cid}: {finding["description"]}')
        self.log(f'triage {cid}: reducing {decoded["trace"]["operators"]} operators')
        limit = self.reduce_timeout
        if deadline is not None:
            limit = min(limit, max(1.0, deadline - time.time()))
        code = run_interruptible(cmd, os.path.join(work, 'reduce.log'), limit, self.env)
        manifest = read_json(os.path.join(work, 'reduced.manifest.json'))
        if manifest is None or not manifest.get('holds'):
            return self.finish(cid, dict(base, status='reduce-failed', exit=code,
                                         detail=f'see {rel(os.path.join(work, "reduce.log"))}'))
        time_to_find = self.time_to_find(cid)
        reduced_manifest = os.path.join(work, 'reduced.manifest.json')
        try:
            bucket: Optional[Json] = buckets.bucket_of(self.dtrcheck, [reduced_manifest],
                                                       self.env)[0]['bucket']
        except (RuntimeError, IndexError, ValueError) as e:
            # Filed all the same: `fuzz/campaign buckets` can bucket it later.
            self.log(f'triage {cid}: no bucket ({e})')
            bucket = None
        hit: Json = {}
        if bucket is not None:
            hit = buckets.hit_of_manifest(reduced_manifest, bucket, claim=cid,
                                          input_sha256=self.claim_input_sha256(cid),
                                          found_at=self.claim_found_at(cid))
            hit['signature'] = claimed['signature']
            known = self.store.records.get(bucket['id'])
            rep = known and known.get('representative')
            if rep and buckets.size_key(hit) >= buckets.size_key(rep):
                # The bucket's story is archived already, in a trace no larger.
                known_fields = self.record_hit(bucket, hit)
                self.log(f'triage {cid}: known bucket {bucket["id"]} ({bucket["key"]}), '
                         f'represented by {rep["entry"]}')
                result = self.finish(cid, dict(base, status='known-bucket',
                                               representative=rep['entry'],
                                               time_to_find=time_to_find,
                                               operators=manifest['operators'],
                                               **known_fields))
                self.finish_siblings(cid, decoded, finding, bucket, hit, result)
                return result
        added = self.archive_add(reduced, cid, time_to_find, fid)
        status = added.get('status', 'archive-failed')
        if status == 'archived':
            self.log(f'triage {cid}: archived {added["archive"]} '
                     f'({added["operators"]["before"]} -> {added["operators"]["after"]} '
                     f'operators, simrd: {added["simrd_status"]})')
            self.record_optimum(cid, os.path.join(ROOT, added['archive']))
            hit_fields: Json = {}
            if bucket is not None:
                hit['entry'] = f'{kind}/{fid}'
                hit_fields = self.record_hit(bucket, hit)
                self.log(f'triage {cid}: bucket {bucket["id"]} ({bucket["key"]})'
                         + (' NEW' if hit_fields['bucket_new'] else ''))
                # The archive keeps one entry per bucket: a smaller
                # representative replaces the ones before it.
                replaced = buckets.prune_bucket(self.store, self.archive, bucket['id'])
                if replaced:
                    hit_fields['replaced'] = replaced
                    self.log(f'triage {cid}: {kind}/{fid} now represents the bucket; removed '
                             + ', '.join(replaced))
            result = self.finish(cid, dict(base, status='archived', archive=added['archive'],
                                           time_to_find=time_to_find,
                                           operators=added['operators'],
                                           simrd=added['simrd_status'],
                                           reduce_seconds=added['reduction']['seconds'],
                                           **hit_fields))
            if bucket is not None:
                self.finish_siblings(cid, decoded, finding, bucket, hit, result)
            return result
        if status == 'simrd-disagrees':
            self.log(f'triage {cid}: SIMRD DISAGREES (kept in {rel(work)})')
        extra = {k: v for k, v in added.items() if k in ('archive', 'simrd', 'detail')}
        if status == 'duplicate' and bucket is not None:  # the same reduced trace is archived
            extra.update(self.record_hit(bucket, hit))
        return self.finish(cid, dict(base, status=status, **extra))

    def finish_siblings(self, cid: str, decoded: Json, finding: Json, bucket: Json,
                        hit: Json, result: Json) -> None:
        """Pending claims of the same input whose finding is this one (a
        pinned-oom and its inversion): finished with this claim's outcome,
        each a hit of the same bucket, with no second reduction."""
        with open(os.path.join(self.findings.claims, cid), 'rb') as f:
            data = f.read()
        for other in sorted(self.pending_claims()):
            path = os.path.join(self.findings.claims, other)
            with open(path, 'rb') as f:
                if f.read() != data:
                    continue
            if other not in self.decoded:
                self.decoded[other] = self.decode_claim(other)
            _, theirs = self.decoded[other]
            if theirs is None or strongest(decoded, theirs)['id'] != finding['id']:
                continue
            self.decoded.pop(other)
            their_hit = dict(hit, claim=other, signature=theirs['signature'], entry=None,
                             input_sha256=self.claim_input_sha256(other),
                             found_at=self.claim_found_at(other))
            reduced = {k: result[k] for k in ('operators',) if k in result}
            self.finish(other, dict(kind=finding['kind'], signature=finding['signature'],
                                    description=finding['description'],
                                    claimed={'kind': theirs['kind'],
                                             'signature': theirs['signature']},
                                    status='same-finding', same_as=cid,
                                    **reduced, **self.record_hit(bucket, their_hit)))
            self.log(f'triage {other}: the same failure as {cid} (bucket {bucket["id"]})')

    def archive_add(self, reduced: str, cid: str, time_to_find: Optional[float],
                    fid: Optional[str] = None) -> Json:
        """`dtrcheck archive add`: re-checks the reduced trace, asks simrd,
        files corpus/<kind>/<cid>/ atomically. Its outcome (--json), or
        archive-failed with its message."""
        claim = os.path.join(self.findings.claims, cid)
        cmd = [self.dtrcheck, 'archive', 'add', reduced, '--archive', rel(self.archive),
               '--id', fid or cid, '--fuzzer-input', claim, '--json']
        if time_to_find is not None:
            cmd += ['--time-to-find', repr(time_to_find)]
        if not self.oracle:
            cmd.append('--no-oracle')
        try:  # from the repository: the manifest's archive path is relative to it
            out = subprocess.run(cmd, env=self.env, capture_output=True, text=True, cwd=ROOT)
        except KeyboardInterrupt:
            raise Interrupted()
        if out.returncode in (0, 1) and out.stdout.strip():
            result: Json = json.loads(out.stdout)
            return result
        return {'status': 'archive-failed', 'detail': (out.stderr or out.stdout).strip()}

    def record_optimum(self, cid: str, entry: str) -> None:
        """The optimum at both budgets and the heuristic's regret, kept in the
        archived manifest (`check-finding --optimal --record`); a solve that
        fails or is interrupted leaves the entry as archived, without them."""
        if self.optimal_seconds <= 0:
            return
        cmd = [self.dtrcheck, 'check-finding', entry, '--optimal', '--record',
               '--time-limit', repr(self.optimal_seconds)]
        try:
            out = subprocess.run(cmd, env=self.env, capture_output=True, text=True, cwd=ROOT)
        except KeyboardInterrupt:
            raise Interrupted()
        line = next((ln.strip() for ln in out.stdout.splitlines() if 'optimal:' in ln), '')
        self.log(f'triage {cid}: {line or "optimum not recorded: " + out.stderr.strip()}')

    # ----- libFuzzer artifacts ---------------------------------------------
    def triage_artifact(self, item: str, target: str, path: str) -> Json:
        if os.path.basename(path).startswith('slow-unit-'):
            # Not a failure: an input slower than -report_slow_units.
            return self.finish(item, {'status': 'slow-input', 'target': target,
                                      'artifact': rel(path)})
        binary = os.path.join(self.fuzz_bin, target)
        env = {k: v for k, v in self.env.items()
               if k not in ('DTRCHECK_FUZZ_CLAIMS', 'DTRCHECK_FUZZ_ON_FINDING')}
        try:
            out = subprocess.run([binary, '-runs=1', path], env=env, capture_output=True,
                                 text=True, errors='replace', timeout=120)
            text = out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired) as e:
            text = f'rerun failed: {e}'
        if 'dtrcheck-finding:' in text:
            # The abort of a pathology report (a claim covers it).
            return self.finish(item, {'status': 'pathology-artifact', 'target': target,
                                      'artifact': rel(path)})
        bugs = self.findings.bugs(target)
        os.makedirs(bugs, exist_ok=True)
        kept = os.path.join(bugs, os.path.basename(path))
        shutil.copyfile(path, kept)
        write_atomic(kept + '.txt', text)
        detail = key_line(text)
        self.log(f'triage {item}: BUG {detail or "(no report; see " + rel(kept) + ".txt)"}')
        return self.finish(item, {'status': 'bug', 'target': target, 'artifact': rel(kept),
                                  'detail': detail,
                                  'bug_signature': bug_signature(target, detail),
                                  'reproduce': f'{rel(binary)} {rel(kept)}'})


def strongest(decoded: Json, finding: Json) -> Json:
    """The finding the claim's failure is triaged as: an inversion whose
    sweep has a pinned-oom finding of the same two runs (the fuzzer reports
    both, analysis/pathology.h) is that pinned-oom, whose property keeps
    the inversion and the pinned frontier: one failure, one entry with both
    labels. Anything else is itself."""
    if finding['kind'] != 'inversion':
        return finding
    for f in decoded.get('findings', []):
        if f['kind'] == 'pinned-oom' and f['lo'] == finding['lo'] and f['hi'] == finding['hi']:
            return dict(f)
    return finding


# What names a crash, most telling first: a sanitizer's report, an
# exception's what(), a fuzzer's own invariant message, libFuzzer's summary.
_KEY_PATTERNS = (re.compile(r'runtime error: .*'), re.compile(r'ERROR: AddressSanitizer: .*'),
                 re.compile(r'ERROR: LeakSanitizer: .*'), re.compile(r'what\(\): .*'),
                 re.compile(r'^(trace_parse_fuzzer|pathology_fuzzer): .*'),
                 re.compile(r'ERROR: libFuzzer: .*'), re.compile(r'SUMMARY: .*'))


def key_line(text: str) -> str:
    for pattern in _KEY_PATTERNS:
        for line in text.splitlines():
            m = pattern.search(line)
            if m:
                return m.group(0).strip()
    return ''


def bug_signature(target: str, detail: str) -> str:
    """The crash with its input-specific parts (quoted text, numbers,
    addresses) blanked: the same bug found twice has one signature."""
    return target + ': ' + re.sub(r'\'[^\']*\'|"[^"]*"|0x[0-9a-f]+|\d+', '_', detail)


def run_interruptible(cmd: List[str], log_path: str, limit: float, env: Dict[str, str]) -> int:
    """Runs cmd, sending SIGINT after `limit` seconds (dtrcheck reduce then
    writes its best trace so far). Ctrl-C of the campaign interrupts it too,
    and raises Interrupted once it has exited."""
    with open(log_path, 'w') as log:
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            try:
                return proc.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                return proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            proc.wait()
            raise Interrupted()
