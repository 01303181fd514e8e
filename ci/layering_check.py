#!/usr/bin/env python3
"""Checks the direction of dependencies between the top-level folders: every
`#include "FOLDER/..."` in a folder's code must name the folder itself or a
folder it may depend on (README.md, Layout; docs/layout.md; each folder's README.md):

    base, memory <- sim <- io <- traces, oracle, reduce <- analysis
                 <- optimal, properties, fuzz <- cli
    sim, policies (public API only) <- plugins (the plugin loader) <- fuzz, cli, python

The table below is exact: each folder's entry equals what its libraries
link in CMake (target_link_libraries, followed transitively), and every
library a folder's libraries link directly is included by its code. Unit
tests (`*_test.cc`) beside the code may use what sits above it (a sim test
may write a trace with io/ or generate one with traces/): they are not part
of the library. tests/ and bench/ may use everything.

Python: a folder's Python code imports the repository's packages (oracle,
capture, fuzz/campaign_lib) only as PY_MAY_IMPORT says, and that table is
exact too (each entry is imported somewhere): the campaign and the capture
tool run dtrcheck as a program and import nothing of it.

One mechanism, one place: dtrcheck's JSON (io/json.h) is read by
ParseJson only, which keeps integers past 64 bits exact; `Json::parse`
(which makes them doubles) is refused everywhere but io/json.cc and the test
that shows why.

    ci/layering_check.py      (ctest: layering_check, label style)

Exits 1 naming every include that points the wrong way and every other
reader of JSON text.
"""
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What each folder's code may include besides itself: what its libraries
# link, transitively (checked against the CMakeLists.txt files).
MAY_USE: dict[str, set[str]] = {
    'base': set(),
    'memory': set(),
    'policies': set(),  # the public API (include/dtrcheck/) only
    'sim': {'base', 'memory'},
    'plugins': {'base', 'memory', 'sim', 'policies'},
    'io': {'base', 'memory', 'sim'},
    'traces': {'base', 'memory', 'sim', 'io'},
    'oracle': {'base', 'memory', 'sim', 'io'},
    'analysis': {'base', 'memory', 'sim', 'io', 'traces', 'oracle'},
    'reduce': {'base', 'memory', 'sim', 'io'},
    'optimal': {'base', 'memory', 'sim', 'io', 'traces', 'oracle', 'analysis'},
    'properties': {'base', 'memory', 'sim', 'io', 'traces', 'oracle', 'analysis', 'reduce'},
    'fuzz': {'base', 'memory', 'sim', 'plugins', 'policies', 'io', 'traces', 'oracle',
             'analysis', 'reduce'},
    'cli': {'base', 'memory', 'sim', 'plugins', 'policies', 'io', 'traces', 'oracle', 'analysis',
            'reduce', 'fuzz', 'optimal'},
    # python/: the extension _dtrcheck
    'python': {'base', 'memory', 'sim', 'plugins', 'policies', 'io', 'traces', 'oracle',
               'analysis', 'reduce', 'fuzz', 'optimal'},
}
# The repository's Python packages, by folder, and which folders' Python
# code imports them besides their own (tests/ and bench/ aside).
PY_PACKAGES = {'oracle': 'oracle', 'capture': 'capture', 'campaign_lib': 'fuzz'}
PY_MAY_IMPORT: dict[str, set[str]] = {
    'capture': set(),
    'oracle': set(),
    'fuzz': set(),
    'traces': {'oracle'},  # traces/synthetic/oracle_check.py: generators against simrd
    'cli': {'oracle'},  # cli/bad_input_test.py: refusals against simrd's
}
PY_ANYTHING = {'tests', 'bench'}
LIBRARY = re.compile(r'(?:add_library|add_executable|pybind11_add_module)\(\s*([A-Za-z0-9_]+)')
LINK = re.compile(r'target_link_libraries\(\s*([A-Za-z0-9_]+)([^)]*)\)', re.S)
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


def tracked(*patterns: str) -> list[str]:
    return subprocess.run(['git', 'ls-files', *patterns], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.split()


def cmake_links() -> dict[str, set[str]]:
    """Folder -> the folders its libraries (and the dtrcheck executable) link
    directly, from every CMakeLists.txt; test executables are left out."""
    owner: dict[str, str] = {}
    links: dict[str, set[str]] = {}
    texts = {}
    for path in tracked('CMakeLists.txt', '*/CMakeLists.txt'):
        folder = path.split('/', 1)[0]
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            texts[path] = re.sub(r'#.*', '', f.read())
        for name in LIBRARY.findall(texts[path]):
            if folder in MAY_USE and not name.endswith('_test') and (
                    name.startswith('dtr') or name == '_dtrcheck'):
                owner[name] = folder
    for text in texts.values():
        for name, args in LINK.findall(text):
            if name in owner:
                # python/ links position-independent copies (X_pic) of X.
                words = [w[:-4] if w.endswith('_pic') else w for w in args.split()]
                used = {owner[w] for w in words if w in owner} - {owner[name]}
                links.setdefault(owner[name], set()).update(used)
    return links


def closure(links: dict[str, set[str]], folder: str) -> set[str]:
    seen: set[str] = set()
    todo = list(links.get(folder, ()))
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo += links.get(f, ())
    return seen


def table_mismatches(links: dict[str, set[str]], included: dict[str, set[str]]) -> list[str]:
    bad = []
    for folder in sorted(MAY_USE):
        linked = closure(links, folder)
        if linked != MAY_USE[folder]:
            bad.append(f'ci/layering_check.py: MAY_USE[{folder!r}] is '
                       f'{sorted(MAY_USE[folder])}, but {folder}/ links (transitively) '
                       f'{sorted(linked)} in CMake')
        for unused in sorted(links.get(folder, set()) - included.get(folder, set())):
            bad.append(f'{folder}/: links {unused}/ in CMake but its code includes nothing '
                       'of it (drop the link)')
    return bad


def python_imports() -> list[str]:
    files = subprocess.run(['bash', os.path.join(ROOT, 'ci', 'source_files.sh'), 'python'],
                           check=True, capture_output=True, text=True).stdout.split()
    bad: list[str] = []
    used: dict[str, set[str]] = {}
    for path in files:
        folder = path.split('/', 1)[0]
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and not node.level else [])
            for name in names:
                package = PY_PACKAGES.get(name.split('.')[0])
                if package is None or package == folder or folder in PY_ANYTHING:
                    continue
                used.setdefault(folder, set()).add(package)
                if package not in PY_MAY_IMPORT.get(folder, set()):
                    bad.append(f'{path}:{node.lineno}: {folder}/ imports {name} '
                               f'({package}/); {folder}/ may import: '
                               f"{', '.join(sorted(PY_MAY_IMPORT.get(folder, ()))) or 'nothing'}")
    for folder, allowed in sorted(PY_MAY_IMPORT.items()):
        for unused in sorted(allowed - used.get(folder, set())):
            bad.append(f'ci/layering_check.py: PY_MAY_IMPORT[{folder!r}] allows {unused}, '
                       'which no Python file there imports')
    return bad


def main() -> int:
    files = subprocess.run(['bash', os.path.join(ROOT, 'ci', 'source_files.sh'), 'cxx'],
                           check=True, capture_output=True, text=True).stdout.split()
    bad: list[str] = []
    included: dict[str, set[str]] = {}
    checked = 0
    for path in files:
        if path.split('/', 1)[0] in MAY_USE and not path.endswith('_test.cc'):
            checked += 1
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            text = f.read()
        bad += violations(path, text) + json_readers(path, text)
        folder = path.split('/', 1)[0]
        if folder in MAY_USE and not path.endswith('_test.cc'):
            for line in text.splitlines():
                m = INCLUDE.match(line)
                if m and m.group(1) in MAY_USE and m.group(1) != folder:
                    included.setdefault(folder, set()).add(m.group(1))
    bad += table_mismatches(cmake_links(), included) + python_imports()
    for line in bad:
        print(line)
    print(f'layering_check: {checked} files, {len(bad)} include(s) or import(s) pointing the wrong '
          'way, table entries CMake does not link, or readers of JSON besides ParseJson')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
