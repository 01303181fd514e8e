"""The end of a campaign: a summary table on stdout and a markdown report."""
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
        m = archive_manifests.get(r['item'], {})
        o = m.get('original', {})
        cfg = m.get('config', {})
        exp = m.get('expected', {})
        ops = m.get('operators', {})
        rows.append({
            'kind': r.get('kind', '?'),
            'id': r['item'],
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


def group_bugs(bugs: list[Result]) -> list[tuple[str, list[Result]]]:
    """Bug results grouped by signature, largest group first."""
    groups: dict[str, list[Result]] = {}
    for r in bugs:
        groups.setdefault(str(r.get('bug_signature') or r.get('detail', '')), []).append(r)
    return sorted(groups.items(), key=lambda kv: -len(kv[1]))


COLUMNS = ['kind', 'id', 'config', 'shape', 'budgets', 'runs', 'operators', 'simrd', 'found',
           'optimum']


def build(campaign: Result, findings: Findings, archive_manifests: dict[str, Result],
          pending: int, interrupted: bool) -> tuple[str, str]:
    """Returns (summary text, markdown)."""
    done = results(findings, since=campaign['start'])
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
    summary.append('  archived: '
                   + (', '.join(f'{n} {k}' for k, n in sorted(kinds.items())) or 'none'))
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
    not_other = ('archived', 'bug', 'simrd-disagrees', 'pathology-artifact')
    other = [r for r in done if r.get('status') not in not_other]
    if other:
        md += ['## Not archived', '']
        md += [f"- `{r['item']}` {r.get('kind', '')}: {r['status']} — {r.get('detail', '')}"
               for r in other]
        md.append('')
    return '\n'.join(summary), '\n'.join(md)
