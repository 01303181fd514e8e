"""The end of a campaign: a summary table on stdout and a markdown report."""
import calendar
import glob
import os
import time
from typing import Any, Optional

from .layout import Findings, read_json

Result = dict[str, Any]  # a triage result.json, or a campaign record


def results(findings: Findings, since: Optional[float] = None) -> list[Result]:
    """Triage results, oldest first; only those finished at or after `since`
    (seconds since the epoch) if given."""
    out = []
    for path in glob.glob(os.path.join(findings.triage, '*', 'result.json')):
        r = read_json(path)
        if r is None:
            continue
        r['_mtime'] = os.path.getmtime(path)
        if since is None or r['_mtime'] >= since:
            out.append(r)
    return sorted(out, key=lambda r: r['_mtime'])


def _fmt_end(end: Optional[Result]) -> str:
    if end is None:
        return '?'
    s: str = end['status']
    if s == 'ok':
        # A reduced trace may have no compute left (every TIME 0): no overhead.
        s += f" {end['overhead']:.3f}x" if end['overhead'] > 0 else ' (no compute)'
    return s


def _fmt_optimum(optimal: Optional[Result]) -> str:
    """The manifest's "optimal" block (check-finding --optimal --record) as
    one cell: the heuristic's regret where the optimum is known, and whether
    the entry is a proven heuristic defect."""
    if not optimal:
        return '-'
    regret = [f"{optimal[end]['regret']:.3f}x" for end in ('lo', 'hi')
              if 'regret' in optimal.get(end, {})]
    cell = 'regret ' + ', '.join(regret) if regret else 'optimum not proven'
    return cell + ('; proven defect' if optimal.get('proven_defect') else '')


def finding_rows(archived_results: list[Result],
                 archive_manifests: dict[str, Result]) -> list[dict[str, str]]:
    rows = []
    for r in archived_results:
        # Filed under its own id, or under the pinned-oom finding it was
        # promoted to (triage.strongest).
        m = archive_manifests.get(os.path.basename(str(r.get('archive', ''))),
                                  archive_manifests.get(r['item'], {}))
        o = m.get('original', {})
        cfg = m.get('config', {})
        exp = m.get('expected', {})
        ops = m.get('operators', {})
        rows.append({
            'kind': r.get('kind', '?'),
            'id': os.path.basename(str(r.get('archive', ''))) or r['item'],
            'config': f"{cfg.get('runtime', '?')}/{cfg.get('heuristic', '?')}"
                      + (f" limit {cfg['overhead_limit']:g}" if 'overhead_limit' in cfg else ''),
            'shape': o.get('case', {}).get('generator', {}).get('shape', '?'),
            'budgets': ' -> '.join(f"{b.get('ratio', b.get('bytes'))}"
                                   for b in m.get('budgets', {}).values()),
            'runs': ' -> '.join(_fmt_end(e) for e in exp.values()),
            'operators': f"{ops.get('before', '?')} -> {ops.get('after', '?')}",
            'simrd': m.get('simrd_status', '?'),
            'found': '?' if r.get('time_to_find') is None else f"{r['time_to_find']:.0f}s",
            'optimum': _fmt_optimum(m.get('optimal')),
            'sha256': str(m.get('trace_sha256', '?'))[:16],
            'archive': r.get('archive', ''),
        })
    return rows


def table(rows: list[dict[str, str]], columns: list[str]) -> str:
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) if rows else len(c)
              for c in columns}
    lines = ['  '.join(c.ljust(widths[c]) for c in columns)]
    lines += ['  '.join(str(r[c]).ljust(widths[c]) for c in columns) for r in rows]
    return '\n'.join(lines)


def markdown_table(rows: list[dict[str, str]], columns: list[str]) -> str:
    lines = ['| ' + ' | '.join(columns) + ' |', '|' + '---|' * len(columns)]
    lines += ['| ' + ' | '.join(str(r[c]).replace('|', '\\|') for c in columns) + ' |'
              for r in rows]
    return '\n'.join(lines)


def bucket_hits(done: list[Result]) -> list[Result]:
    """This campaign's results that landed in a bucket (archived, known
    bucket, duplicate signature, same finding), in the order found."""
    hits = [r for r in done if r.get('bucket')]
    return sorted(hits, key=lambda r: (str(r.get('found_at') or ''), r['item']))


def novelty(done: list[Result], store: dict[str, Result]) -> list[dict[str, Any]]:
    """The buckets this campaign hit, new ones first (with respect to the
    archive when the campaign started, as ClusterFuzz lists new crashes
    first), each in the order of its first hit; then the known ones."""
    rows: dict[str, dict[str, Any]] = {}
    for r in bucket_hits(done):
        b = rows.setdefault(r['bucket'], {
            'bucket': r['bucket'], 'key': r.get('bucket_key', '?'), 'new': r.get('bucket_new'),
            'first_hit': r.get('found_at'), 'hits_now': 0})
        b['hits_now'] += 1
    for b in rows.values():
        rec = store.get(b['bucket'], {})
        rep = rec.get('representative') or {}
        b['count'] = rec.get('count', b['hits_now'])
        b['representative'] = rep.get('entry', '-')
        b['operators'] = rep.get('operators', '-')
        b['first_seen'] = rec.get('first_seen') or '?'
    return sorted(rows.values(), key=lambda b: (not b['new'], str(b['first_hit']), b['bucket']))


def novelty_line(rows: list[dict[str, Any]]) -> str:
    """The one line a run ends with: new buckets first, then known ones with counts."""
    new = [b for b in rows if b['new']]
    known = [b for b in rows if not b['new']]
    line = f'buckets: {len(new)} new' + (' (' + ', '.join(
        f"{b['bucket']} {b['key']}" for b in new) + ')' if new else '')
    line += f'; {len(known)} known' + (' (' + ', '.join(
        f"{b['bucket']} +{b['hits_now']}={b['count']}" for b in known) + ')' if known else '')
    return line


def saturation_svg(start: float, end: float, rows: list[dict[str, Any]]) -> str:
    """New buckets over the campaign's time: a step curve that flattens as the
    fuzzer stops finding new mechanisms. Hand-written SVG (no plotting
    library on the machines that fuzz), like cli/plot_svg.cc's."""
    times = []
    for b in rows:
        if b['new'] and b['first_hit']:
            try:
                t = calendar.timegm(time.strptime(str(b['first_hit'])[:19],
                                                  '%Y-%m-%dT%H:%M:%S'))  # UTC
                times.append(max(0.0, t - start))
            except ValueError:
                pass
    times.sort()
    span = max(end - start, times[-1] if times else 0.0, 1.0)
    top = max(len(times), 1)
    w, h, left, bottom = 480, 240, 50, 30
    pw, ph = w - left - 10, h - bottom - 20

    def xy(t: float, n: int) -> str:
        return f'{left + pw * t / span:.1f},{20 + ph * (1 - n / top):.1f}'
    pts = [xy(0, 0)]
    for i, seconds in enumerate(times):
        pts += [xy(seconds, i), xy(seconds, i + 1)]
    pts.append(xy(span, len(times)))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{left}" y1="{20 + ph}" x2="{left + pw}" y2="{20 + ph}" stroke="black"/>',
           f'<line x1="{left}" y1="20" x2="{left}" y2="{20 + ph}" stroke="black"/>',
           f'<text x="{left + pw / 2}" y="{h - 5}" text-anchor="middle">'
           f'seconds since the campaign started (0-{span:.0f})</text>',
           f'<text x="12" y="{20 + ph / 2}" transform="rotate(-90 12 {20 + ph / 2})" '
           'text-anchor="middle">new buckets</text>',
           f'<text x="{left - 4}" y="24" text-anchor="end">{top}</text>',
           f'<text x="{left - 4}" y="{20 + ph}" text-anchor="end">0</text>',
           f'<polyline fill="none" stroke="#c0392b" stroke-width="2" points="{" ".join(pts)}"/>',
           '</svg>']
    return '\n'.join(out) + '\n'


def group_bugs(bugs: list[Result]) -> list[tuple[str, list[Result]]]:
    """Bug results grouped by signature, largest group first."""
    groups: dict[str, list[Result]] = {}
    for r in bugs:
        groups.setdefault(str(r.get('bug_signature') or r.get('detail', '')), []).append(r)
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


BUCKET_COLUMNS = ['new', 'bucket', 'key', 'hits_now', 'count', 'first_seen', 'representative',
                  'operators']
COLUMNS = ['kind', 'id', 'config', 'shape', 'budgets', 'runs', 'operators', 'simrd', 'found',
           'optimum']


def build(campaign: Result, findings: Findings, archive_manifests: dict[str, Result],
          pending: int, interrupted: bool,
          store: Optional[dict[str, Result]] = None) -> tuple[str, str, str]:
    """Returns (summary text, markdown, saturation SVG)."""
    done = results(findings, since=campaign['start'])
    bucket_rows = novelty(done, store or {})
    svg = saturation_svg(campaign['start'], campaign.get('end', time.time()), bucket_rows)
    archived = [r for r in done if r.get('status') == 'archived']
    rows = finding_rows(archived, archive_manifests)
    by_status: dict[str, int] = {}
    for r in done:
        by_status[r.get('status', '?')] = by_status.get(r.get('status', '?'), 0) + 1
    bugs = [r for r in done if r.get('status') == 'bug']
    disagree = [r for r in done if r.get('status') == 'simrd-disagrees']
    elapsed = campaign.get('end', time.time()) - campaign['start']
    fuzz_lines = []
    for target, st in campaign.get('fuzzers', {}).items():
        rate = st['execs'] / st['seconds'] if st.get('seconds') else 0
        fuzz_lines.append(f"{target}: {st['workers']} worker(s), {st['execs']:,} executions in "
                          f"{st['seconds']:.0f} s ({rate:.0f}/s), corpus {st['corpus']}")
    kinds: dict[str, int] = {}
    for r in archived:
        kind = str(r.get('kind'))
        kinds[kind] = kinds.get(kind, 0) + 1

    summary = [f"campaign {campaign['stamp']}: {elapsed:.0f} s"
               + (' (interrupted)' if interrupted else '')]
    summary += ['  ' + line for line in fuzz_lines]
    statuses = ', '.join(f'{n} {s}' for s, n in sorted(by_status.items()))
    summary.append(f"  claims {campaign.get('claims_new', 0)} new; triaged {len(done)}"
                   + (f' ({statuses})' if statuses else '') + f'; pending {pending}')
    replaced = sorted(e for r in archived for e in r.get('replaced', []))
    summary.append('  archived: '
                   + (', '.join(f'{n} {k}' for k, n in sorted(kinds.items())) or 'none')
                   + (f'; replacing {len(replaced)} larger representative(s): '
                      + ', '.join(replaced) if replaced else ''))
    if bucket_rows:
        summary += ['', table([dict(b, new='NEW' if b['new'] else 'known') for b in bucket_rows],
                              BUCKET_COLUMNS)]
    if rows:
        summary += ['', table(rows, COLUMNS)]
    for sig, group in group_bugs(bugs):
        summary.append(f"BUG x{len(group)} {sig}: reproduce {group[0].get('reproduce', '')}")
    for r in disagree:
        summary.append(f"SIMRD DISAGREES {r['item']}: {r.get('description', '')}")

    md = [f"# Fuzz campaign {campaign['stamp']}", '',
          f"- host: {campaign.get('host')}, {campaign.get('jobs')} jobs, {elapsed:.0f} s"
          + (' (interrupted)' if interrupted else ''),
          f"- command: `{campaign.get('command')}`",
          f"- memory model {campaign.get('memory', 'bytes')}; heuristics "
          f"{campaign.get('heuristics') or 'all'}; plugins "
          f"{', '.join(campaign.get('plugins') or []) or 'none'}",
          f"- cliff factor {campaign.get('cliff_factor')}, "
          f"gap {campaign.get('cliff_gap')} of peak; "
          f"reduce limit {campaign.get('reduce_timeout')} s per finding; "
          f"simrd {'asked' if campaign.get('oracle') else 'not asked'}; "
          + (f"optimum solved with {campaign['optimal_seconds']:g} s per budget"
             if campaign.get('optimal_seconds') else 'optimum not solved'),
          f"- dtrcheck: {campaign.get('version', 'unknown')}",
          f"- started {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(campaign['start']))}; "
          "each archived trace's SHA-256 (first 16 digits) is in the table, the whole digest "
          'in its manifest', '']
    md += ['## Fuzzers', ''] + [f'- {line}' for line in fuzz_lines] + ['']
    md += ['## Triage', '',
           f"{campaign.get('claims_new', 0)} new claims; {len(done)} items triaged: "
           + (', '.join(f'{n} {s}' for s, n in sorted(by_status.items())) or 'none')
           + f'; {pending} pending (`fuzz/campaign triage` continues them).', '']
    md += ['## Buckets', '',
           'Root causes hit by this campaign (fuzz/README.md, "Buckets"): those new to '
           'the archive first, then the known ones; `hits_now` counts the findings of '
           'this campaign, `count` all the archive has seen.', '']
    md += [markdown_table([dict(b, new='NEW' if b['new'] else 'known') for b in bucket_rows],
                          BUCKET_COLUMNS), ''] if bucket_rows else ['None.', '']
    md += [f"![new buckets over time](saturation-{campaign['stamp']}.svg)", '']
    md += ['## Archived counterexamples', '']
    md += [markdown_table(rows, COLUMNS + ['sha256', 'archive']), ''] if rows else ['None.', '']
    if bugs or disagree:
        md += ['## Bugs', '']
        md += [f"- {len(g)} artifact(s): `{g[0].get('detail', '')}` — "
               f"reproduce: `{g[0].get('reproduce', '')}`" for _, g in group_bugs(bugs)]
        md += [f"- `{r['item']}`: simrd does not confirm the reduced trace "
               f"({r.get('description', '')}); see `{os.path.join('triage', r['item'])}`"
               for r in disagree]
        md.append('')
    not_other = ('archived', 'bug', 'simrd-disagrees', 'pathology-artifact', 'known-bucket',
                 'same-finding', 'duplicate')
    other = [r for r in done if r.get('status') not in not_other]
    if other:
        md += ['## Not archived', '']
        md += [f"- `{r['item']}` {r.get('kind', '')}: {r['status']} — {r.get('detail', '')}"
               for r in other]
        md.append('')
    summary.append(novelty_line(bucket_rows))
    return '\n'.join(summary), '\n'.join(md), svg
