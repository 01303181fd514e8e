#!/usr/bin/env python3
"""Root-cause buckets through the campaign (fuzz/README.md, "Buckets").

Three claims as pathology_fuzzer writes them, with the inputs of archived
entries: P (pinned-oom 4f22be7cbfb03a15) and I (inversion
38c3f216a1389630) are one failure found on one input (AbEqSizeStale ok at
ratio 0.715, a pinned-frontier oom at 0.725); T (inversion
0b46ad16978ff6a9) is DTR ok -> thrashed, which a reduction allowed to change
its failure turns into an oom (tests/cli/reduce_failure_test.py).

- One machine triages P, I and T: P and I make one entry (pinned-oom/P)
  whose bucket carries both labels and counts both claims; T stays
  ok -> thrashed in its manifest and its bucket.
- Two machines triage {P, T} and {I, T}; `campaign merge` of their findings
  and archives, in either order, gives the buckets of the one machine: the
  same ids, keys, labels, representatives, counts, inputs, first and last
  seen; and the two merges are the same bytes.
- The report of a triage lists the buckets new to the archive first, and the
  run ends with the one-line summary; a second campaign into the same archive
  finds them known.
- Store merges without dtrcheck: any order and any split of the hits give
  the same records.
- The archive keeps one entry per bucket: a smaller representative replaces
  the entry before it (whose hit stays), a pruned signature found again is
  a duplicate, and `campaign buckets --prune` prunes an archive filed
  before buckets.
- corpus/buckets/ agrees with `dtrcheck bucket` on every archived entry,
  and corpus/ holds one entry per bucket.

    python3 fuzz/campaign_lib/campaign_buckets_test.py --dtrcheck build/bin/dtrcheck
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'fuzz'))
from campaign_lib import buckets, report  # noqa: E402

CAMPAIGN = os.path.join(ROOT, 'fuzz', 'campaign')
# Copies of archived entries (tests/data/archive/README.md).
FIXTURES = os.path.join(ROOT, 'tests', 'data', 'archive')
P, I, T = '4f22be7cbfb03a15', '38c3f216a1389630', '0b46ad16978ff6a9'
# DTR ok -> pinned-frontier oom at a model operator too (a DAG, 16 operators
# reduced): P's bucket, in a larger trace.
D = 'df6002f728b5030a'
ENTRIES = {P: 'pinned-oom', I: 'inversion', T: 'inversion', D: 'inversion'}
# Claims are dated by their mtime (when the fuzzer wrote them): fixed here so
# that every machine saw each finding at the same time.
FOUND = {P: 1796205600, I: 1796205660, T: 1796205720, D: 1796205780}

failures: List[str] = []


def check(ok: bool, what: str) -> None:
    print(('ok   ' if ok else 'FAIL ') + what)
    if not ok:
        failures.append(what)


def claims(findings: str, ids: List[str]) -> None:
    os.makedirs(os.path.join(findings, 'claims'))
    for cid in ids:
        path = os.path.join(findings, 'claims', cid)
        shutil.copyfile(os.path.join(FIXTURES, ENTRIES[cid], cid, 'input.bin'), path)
        os.utime(path, (FOUND[cid], FOUND[cid]))


def campaign(args: List[str]) -> str:
    out = subprocess.run([sys.executable, CAMPAIGN] + args, capture_output=True, text=True)
    print(out.stdout + out.stderr)
    check(out.returncode == 0, f'campaign {args[0]} exited {out.returncode}')
    return out.stdout


def triage(dtrcheck: str, findings: str, archive: str) -> str:
    return campaign(['triage', '--findings', findings, '--archive', archive, '--dtrcheck',
                     dtrcheck, '--no-oracle', '--optimal', '0', '--reduce-timeout', '300'])


def records(archive: str) -> Dict[str, Dict[str, Any]]:
    return buckets.Store(archive).records


def summary(recs: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """What the issue asks two ways of fuzzing to agree on."""
    keep = ('key', 'labels', 'count', 'first_seen', 'last_seen', 'inputs', 'representative')
    return {rid: {k: r[k] for k in keep} for rid, r in recs.items()}


def store_files(archive: str) -> Dict[str, bytes]:
    d = buckets.store_dir(archive)
    out = {}
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), 'rb') as f:
            out[name] = f.read()
    return out


def one_machine(dtrcheck: str, tmp: str) -> Dict[str, Dict[str, Any]]:
    findings, archive = os.path.join(tmp, 'one'), os.path.join(tmp, 'one-archive')
    claims(findings, [P, I, T])
    out = triage(dtrcheck, findings, archive)
    recs = records(archive)
    check(len(recs) == 2, f'two buckets: {sorted(recs)}')
    check(os.path.isdir(os.path.join(archive, 'pinned-oom', P)), 'P archived')
    with open(os.path.join(archive, 'pinned-oom', P, 'manifest.json')) as f:
        labels = json.load(f).get('bucket', {}).get('labels')
    check(labels == ['inversion', 'pinned-oom'], f'the entry carries both labels: {labels}')
    check(not os.path.exists(os.path.join(archive, 'inversion', I)),
          'I is not a second directory')
    pinned = next((r for r in recs.values() if 'pinned-oom' in r['labels']), None)
    check(pinned is not None and pinned['labels'] == ['inversion', 'pinned-oom'],
          'one bucket with both labels')
    if pinned:
        check(sorted(h['claim'] for h in pinned['hits']) == sorted([P, I]),
              'both claims are hits of it')
        check(pinned['representative']['entry'] == f'pinned-oom/{P}', 'P represents it')
    statuses = {}
    for cid in (P, I):
        with open(os.path.join(findings, 'triage', cid, 'result.json')) as f:
            statuses[cid] = json.load(f)['status']
    check(sorted(statuses.values()) == ['archived', 'same-finding'],
          f'one of P and I reduced and archived, the other the same finding: {statuses}')
    # ok -> thrashed stays ok -> thrashed through the campaign.
    with open(os.path.join(archive, 'inversion', T, 'manifest.json')) as f:
        m = json.load(f)
    check(m['expected']['hi']['status'] == 'thrashed' and m.get('failure') == 'thrashed',
          f'T archived ok -> {m["expected"]["hi"]["status"]}')
    thrash = next((r for r in recs.values() if r['failure'] == 'ok>thrashed'), None)
    check(thrash is not None and thrash['labels'] == ['inversion'], 'T bucket ok>thrashed')
    check('buckets: 2 new' in out, 'the run ends with the novelty line')
    with open(os.path.join(findings, 'report.md')) as f:
        md = f.read()
    check('## Buckets' in md and md.count('| NEW |') == 2, 'report lists both new buckets')
    check(any(n.startswith('saturation-') and n.endswith('.svg') for n in os.listdir(findings)),
          'saturation curve written')

    # A second campaign into the same archive: I again (another findings
    # directory) is a duplicate, D a hit of P's bucket, not filed (larger):
    # one known bucket, two more hits, no new directory.
    again = os.path.join(tmp, 'again')
    claims(again, [I, D])
    out = triage(dtrcheck, again, archive)
    with open(os.path.join(again, 'triage', D, 'result.json')) as f:
        r = json.load(f)
    check(r['status'] == 'known-bucket' and r['representative'] == f'pinned-oom/{P}',
          f'D is a known bucket: {r["status"]}')
    check(sorted(os.listdir(os.path.join(archive, 'pinned-oom'))) == [P]
          and not os.path.exists(os.path.join(archive, 'inversion', D)), 'D not filed')
    check('buckets: 0 new; 1 known' in out and records(archive)[r['bucket']]['count'] == 3,
          'a known bucket is not new, and counts D')
    return recs


def replacement(dtrcheck: str, tmp: str) -> None:
    """The archive keeps one entry per bucket: D files the bucket first; P,
    smaller, replaces it (D's directory goes, its hit stays); D found again
    is a duplicate, not a second reduction."""
    archive = os.path.join(tmp, 'replace-archive')
    claims(os.path.join(tmp, 'replace-d'), [D])
    triage(dtrcheck, os.path.join(tmp, 'replace-d'), archive)
    rec = next(iter(records(archive).values()), None)
    first = rec['representative']['entry'] if rec else None
    check(first is not None and first != f'pinned-oom/{P}', f'D filed first as {first}')
    claims(os.path.join(tmp, 'replace-p'), [P, I])
    triage(dtrcheck, os.path.join(tmp, 'replace-p'), archive)
    results = []
    for cid in (P, I):  # one is reduced and filed, the other is its same finding
        with open(os.path.join(tmp, 'replace-p', 'triage', cid, 'result.json')) as f:
            results.append(json.load(f))
    result: Dict[str, Any] = next((r for r in results if r['status'] == 'archived'), {})
    check(result.get('replaced') == [first], f'P replaced {first}: {result.get("replaced")}')
    recs = records(archive)
    check(len(recs) == 1, f'one bucket: {sorted(recs)}')
    rec = next(iter(recs.values()))
    entries = [e for e, _ in buckets.archive_entries(archive, dtrcheck)]
    check(entries == [f'pinned-oom/{P}'] and rec['representative']['entry'] == entries[0],
          f'one entry, the smaller: {entries}')
    d_hit = [h for h in rec['hits'] if h.get('pruned') == first]
    check(rec['count'] == 3 and len(d_hit) == 1 and d_hit[0]['entry'] is None,
          f'D stays a hit, its entry pruned: count {rec["count"]}')
    claims(os.path.join(tmp, 'replace-again'), [D])
    triage(dtrcheck, os.path.join(tmp, 'replace-again'), archive)
    with open(os.path.join(tmp, 'replace-again', 'triage', D, 'result.json')) as f:
        again = json.load(f)
    check(again['status'] == 'duplicate' and
          [e for e, _ in buckets.archive_entries(archive, dtrcheck)] == entries,
          f'D again: {again["status"]}, nothing filed')


def prune_command(dtrcheck: str, tmp: str) -> None:
    """`campaign buckets --prune`: an inversion and its pinned-oom filed
    twice (the archive before buckets) become one entry with two hits."""
    archive = os.path.join(tmp, 'prune-archive')
    twins = ['inversion/35bb6d445d81d295', 'pinned-oom/dc87c8d9aa189f79']
    for e in twins:
        shutil.copytree(os.path.join(FIXTURES, e), os.path.join(archive, e))
    out = campaign(['buckets', archive, '--prune', '--dtrcheck', dtrcheck])
    check('pruned 1 entries: pinned-oom/dc87c8d9aa189f79' in out, 'prune names what it removed')
    check([e for e, _ in buckets.archive_entries(archive, dtrcheck)] == twins[:1],
          'one entry left')
    rec = next(iter(records(archive).values()))
    check(rec['count'] == 2 and rec['representative']['entry'] == twins[0]
          and [h.get('pruned') for h in rec['hits'] if h.get('pruned')] == twins[1:],
          'both hits kept')


def two_machines(dtrcheck: str, tmp: str, one: Dict[str, Dict[str, Any]]) -> None:
    a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
    claims(a, [P, T])
    claims(b, [I, T])
    triage(dtrcheck, a, a + '-archive')
    triage(dtrcheck, b, b + '-archive')
    merged = []
    for name, order in (('ab', [a, a + '-archive', b, b + '-archive']),
                        ('ba', [b, b + '-archive', a, a + '-archive'])):
        dest = os.path.join(tmp, 'merged-' + name)
        campaign(['merge', '--findings', dest, '--archive', dest + '-archive', '--dtrcheck',
                  dtrcheck] + order)
        merged.append(dest + '-archive')
        check(summary(records(dest + '-archive')) == summary(one),
              f'merge {name}: the buckets of one machine')
    check(store_files(merged[0]) == store_files(merged[1]), 'both merge orders, same bytes')
    check(sorted(os.listdir(os.path.join(merged[0], 'pinned-oom'))) == [P]
          and not os.path.exists(os.path.join(merged[0], 'inversion', I)),
          'merged archive: one entry for P and I')


def store_merge(tmp: str) -> None:
    """Hits split over machines, merged in every order: one set of records."""
    key = {'id': 'b1', 'key': 'inversion|ok>oom|model|dtr|-', 'labels': ['inversion'],
           'failure': 'ok>oom', 'oom_site': 'model', 'family': 'dtr'}
    hits = [{'claim': f'c{i % 5}', 'input_sha256': f'in{i % 7}', 'signature': 's',
             'found_at': f'2026-12-0{1 + i % 4}T00:00:0{i % 10}+0000', 'operators': 10 + i % 3,
             'instructions': 30, 'trace_form': f'f{i % 3}', 'config': {},
             'entry': f'inversion/e{i}' if i % 4 == 0 else None} for i in range(24)]
    whole = buckets.record_of(key, hits)
    check(whole['representative']['operators'] == 10 and whole['count'] == len(
        {(h['claim'], h['input_sha256']) for h in hits}), 'representative and count')
    rng = random.Random(7)
    texts = set()
    for trial in range(6):
        shuffled = hits[:]
        rng.shuffle(shuffled)
        parts = [shuffled[i::3] for i in range(3)]
        archives = []
        for k, part in enumerate(parts):
            d = os.path.join(tmp, f'store-{trial}-{k}')
            buckets.Store(d).add(buckets.record_of(key, part))
            archives.append(d)
        dest = buckets.Store(os.path.join(tmp, f'store-{trial}-merged'))
        for d in reversed(archives) if trial % 2 else archives:
            for r in buckets.Store(d).records.values():
                dest.add(r)
        texts.add(dest.files()['b1'])
        check(dest.records['b1'] == whole, f'split {trial}: merged = one store')
    check(len(texts) == 1, 'every split and order writes the same bytes')


def report_order() -> None:
    done = [{'item': 'k1', 'status': 'known-bucket', 'bucket': 'old', 'bucket_key': 'K',
             'bucket_new': False, 'found_at': '2026-12-04T10:00:00+0000'},
            {'item': 'n1', 'status': 'archived', 'bucket': 'new', 'bucket_key': 'N',
             'bucket_new': True, 'found_at': '2026-12-04T10:05:00+0000'}]
    rows = report.novelty(done, {'old': {'count': 7}})
    check([r['bucket'] for r in rows] == ['new', 'old'], 'new buckets listed first')
    check(report.novelty_line(rows) == 'buckets: 1 new (new N); 1 known (old +1=7)',
          report.novelty_line(rows))
    svg = report.saturation_svg(1796205600, 1796205600 + 600, rows)
    check(svg.startswith('<svg') and 'polyline' in svg, 'saturation SVG')


def committed_store(dtrcheck: str) -> None:
    """corpus/buckets/ (written by `fuzz/campaign buckets corpus --write`)
    is what `dtrcheck bucket` says of corpus/ today: every entry in the
    bucket of its key. A change of the key must rewrite the store."""
    corpus = os.path.join(ROOT, 'corpus')
    entries = buckets.archive_entries(corpus, dtrcheck)
    computed = {e: r['bucket'] for (e, _), r in
                zip(entries, buckets.bucket_of(dtrcheck, [m for _, m in entries]))}
    stored = {h['entry']: r for r in records(corpus).values() for h in r['hits'] if h['entry']}
    check(sorted(stored) == sorted(computed), f'corpus/buckets/ names the {len(entries)} entries')
    reps = sorted(r['representative']['entry'] for r in records(corpus).values())
    check(reps == sorted(computed), 'corpus/ keeps one entry per bucket, its representative')
    wrong = [e for e in computed if e in stored and (stored[e]['id'], stored[e]['key'])
             != (computed[e]['id'], computed[e]['key'])]
    check(not wrong, f'corpus/buckets/ agrees with dtrcheck bucket (differs: {wrong[:3]})')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--dtrcheck', required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='dtrcheck_buckets_test_')
    try:
        store_merge(tmp)
        report_order()
        committed_store(args.dtrcheck)
        one = one_machine(args.dtrcheck, tmp)
        replacement(args.dtrcheck, tmp)
        prune_command(args.dtrcheck, tmp)
        two_machines(args.dtrcheck, tmp, one)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f'{len(failures)} check(s) failed')
        sys.exit(1)
    print('ok')


if __name__ == '__main__':
    main()
