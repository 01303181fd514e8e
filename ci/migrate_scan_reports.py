#!/usr/bin/env python3
"""Renames the overhead pathology in scan reports written before 2026-12-03.

`dtrcheck scan` called an overhead rise "non-monotonic" (finding kind) and
its factor "nonmono_factor" (scan.json); it now writes "overhead-rise" and
"rise_factor". This rewrites those names, and only those, in the files of
report directories (scan.json, scan.txt, report.md) and in the index
README.md that ci/scan_corpus.sh writes, so that committed reports read as
what the tool writes today without being run again.

    python3 ci/migrate_scan_reports.py [DIR]   (default corpus/scan-report)
"""
import os
import sys

# The exact phrases dtrcheck scan and ci/scan_corpus.sh wrote, old -> new.
TEXT = [
    ('non-monotonic: rise > 1.5x',
     "overhead rise: a bigger budget's overhead > 1.5x a smaller one's"),
    ('(non-monotonic findings are listed but not marked on the plot)',
     '(overhead rises are listed but not marked on the plot)'),
    ('| non-monotonic |', '| overhead-rise |'),
    ('. non-monotonic: ', '. overhead-rise: '),
]
INDEX = [
    ("non-monotonic: a bigger budget's overhead > 1.5x a smaller one's)",
     "overhead rises: a bigger budget's overhead > 1.5x a smaller one's)"),
    ('| cliffs | non-monotonic |', '| cliffs | overhead rises |'),
]


def rewrite(path: str, pairs: list[tuple[str, str]]) -> bool:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    new = text
    for old, repl in pairs:
        new = new.replace(old, repl)
    if new != text:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(new)
    return new != text


JSON = [
    ('"nonmono_factor": ', '"rise_factor": '),
    ('"kind": "non-monotonic"', '"kind": "overhead-rise"'),
]


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else 'corpus/scan-report'
    changed = []
    index = os.path.join(root, 'README.md')
    if os.path.exists(index) and rewrite(index, INDEX):
        changed.append('README.md')
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isdir(d):
            continue
        for fname in ('scan.txt', 'report.md'):
            p = os.path.join(d, fname)
            if os.path.exists(p) and rewrite(p, TEXT):
                changed.append(os.path.join(name, fname))
        p = os.path.join(d, 'scan.json')
        if os.path.exists(p) and rewrite(p, JSON):
            changed.append(os.path.join(name, 'scan.json'))
    print('\n'.join(changed) if changed else 'nothing to migrate')
    return 0


if __name__ == '__main__':
    sys.exit(main())
