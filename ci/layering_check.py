#!/usr/bin/env python3
"""Checks the direction of dependencies between the top-level folders: every
`#include "FOLDER/..."` in a folder's code must name the folder itself or a
folder it may depend on (README.md, Layout; each folder's README.md):

    memory <- sim <- io, traces <- oracle <- analysis <- reduce <- properties, fuzz <- cli

Unit tests (`*_test.cc`) beside the code may use what sits above it (a sim
test may write a trace with io/ or generate one with traces/): they are not
part of the library. tests/ and bench/ may use everything.

One mechanism, one place: dtrcheck's JSON (io/json.h) is read by
ParseJson only, which keeps integers past 64 bits exact; `Json::parse`
(which makes them doubles) is refused everywhere but io/json.cc and the test
that shows why.

    ci/layering_check.py      (ctest: layering_check, label style)

Exits 1 naming every include that points the wrong way and every other
reader of JSON text.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What each folder's code may include besides itself.
MAY_USE: dict[str, set[str]] = {
    'memory': set(),
    'sim': set(),
    'io': {'sim'},
    'traces': {'sim', 'io'},
    'oracle': {'sim', 'io'},
    'analysis': {'sim', 'io', 'traces', 'oracle'},
    'reduce': {'sim', 'io', 'traces', 'oracle', 'analysis'},
    'optimal': {'sim', 'io', 'traces', 'oracle', 'analysis'},
    'properties': {'sim', 'io', 'traces', 'oracle', 'analysis', 'reduce'},
    'fuzz': {'sim', 'io', 'traces', 'oracle', 'analysis', 'reduce'},
    'cli': {'sim', 'io', 'traces', 'oracle', 'analysis', 'reduce', 'fuzz', 'optimal'},
}
# memory/ (allocator models) uses nothing else in dtrcheck; every other folder may use it.
for _folder, _uses in MAY_USE.items():
    if _folder != 'memory':
        _uses.add('memory')
INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/')
JSON_PARSE = re.compile(r'\bJson::(sax_)?parse\(')
JSON_READER = {'io/json.cc', 'io/json_test.cc'}


def json_readers(path: str, text: str) -> list[str]:
    if path in JSON_READER:
        return []
    return [f'{path}:{number}: reads JSON with Json::parse; use ParseJson (io/json.h), '
            f'which keeps integers past 64 bits exact: {line.strip()}'
            for number, line in enumerate(text.splitlines(), 1) if JSON_PARSE.search(line)]


def violations(path: str, text: str) -> list[str]:
    folder = path.split('/', 1)[0]
    allowed = MAY_USE.get(folder)
    if allowed is None or path.endswith('_test.cc'):
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        m = INCLUDE.match(line)
        if m and m.group(1) != folder and m.group(1) in MAY_USE and m.group(1) not in allowed:
            found.append(f'{path}:{number}: {folder}/ includes {m.group(1)}/: '
                         f'{line.strip()} ({folder}/ may use: '
                         f"{', '.join(sorted(allowed)) or 'nothing else'})")
    return found


def main() -> int:
    files = subprocess.run(['bash', os.path.join(ROOT, 'ci', 'source_files.sh'), 'cxx'],
                           check=True, capture_output=True, text=True).stdout.split()
    bad: list[str] = []
    checked = 0
    for path in files:
        if path.split('/', 1)[0] in MAY_USE and not path.endswith('_test.cc'):
            checked += 1
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            text = f.read()
        bad += violations(path, text) + json_readers(path, text)
    for line in bad:
        print(line)
    print(f'layering_check: {checked} files, {len(bad)} include(s) pointing the wrong way or '
          'readers of JSON besides ParseJson')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
