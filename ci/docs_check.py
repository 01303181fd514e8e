#!/usr/bin/env python3
"""Checks what the Markdown files of the repository say about the repository:

- every relative link `[text](path)` names a file or folder that exists
  (relative to the Markdown file, as a browser resolves it);
- every backticked path that starts with a top-level folder of the
  repository (`sim/parse.h`, `corpus/oracle/*.jsonl`) exists (a glob must
  match something); so does every such argument of a command in a code block;
- every `dtrcheck ...` command written in a Markdown file, in a code block or
  inline, names a subcommand that exists, and `dtrcheck CMD --help` lists
  every option it uses.

Placeholders are skipped: a path with `<...>`, `...`, an uppercase word
(`corpus/KIND/ID/`) or a `build*/` or `/tmp` prefix names no file in the tree.

    ci/docs_check.py build/bin/dtrcheck      (ctest: docs_check, label style)

Exits 1 naming file and line of every stale path or command.
"""
import argparse
import functools
import glob
import os
import re
import shlex
import subprocess
import sys
from typing import Iterator, List, Optional, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
INLINE = re.compile(r'`([^`\n]+)`')
FENCE = re.compile(r'^\s*(```|~~~)')
# An option as a command writes it: --name or -x (not a negative number).
OPTION = re.compile(r'^(--[A-Za-z][A-Za-z0-9-]*|-[A-Za-z])')
# A path whose first component is a tracked top-level folder, or a root file.
PATH_CHARS = re.compile(r'^[A-Za-z0-9_.*/+-]+$')
PLACEHOLDER = re.compile(r'<|>|\.\.\.|\{|\}|(^|/)[A-Z][A-Z0-9_]+(/|\.|$)')
NOT_IN_TREE = ('build', '/', '~', '$')
COMMANDS_CHECKED = [0]
BARE_FILE = re.compile(r'^[A-Za-z0-9_-]+\.(h|cc|py|sh|cmake|in|cfg)$')


def repository_files(*patterns: str) -> List[str]:
    """Tracked and new files (git), or every file outside build*/ without git."""
    try:
        out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard',
                              *patterns], cwd=ROOT, check=True, capture_output=True,
                             text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for folder, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(('.', 'build'))]
            out += [os.path.relpath(os.path.join(folder, n), ROOT) for n in names
                    if not patterns or any(n.endswith(p.lstrip('*')) for p in patterns)]
    return sorted(p for p in out if os.path.exists(os.path.join(ROOT, p)))


def markdown_files() -> List[str]:
    return repository_files('*.md')


@functools.lru_cache(maxsize=None)
def top_level() -> Set[str]:
    return {name for name in os.listdir(ROOT) if not name.startswith('.')
            and not name.startswith('build')}


def lines_with_context(text: str) -> Iterator[Tuple[int, str, bool]]:
    """Each line with its number and whether it sits in a fenced or indented
    code block."""
    fenced = False
    previous_blank = True
    indented = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            if line.startswith('    ') and (previous_blank or indented) and line.strip():
                indented = True
            elif line.strip():
                indented = False
        yield number, line, fenced or indented
        previous_blank = not line.strip()


def looks_like_repo_path(token: str) -> bool:
    token = token.rstrip('.,;:')
    if not PATH_CHARS.match(token) or '/' not in token or token.startswith(NOT_IN_TREE):
        return False
    if PLACEHOLDER.search(token):
        return False
    return token.split('/', 1)[0] in top_level()


def exists_under(base: str, path: str) -> bool:
    full = os.path.normpath(os.path.join(ROOT, base, path))
    if any(c in path for c in '*?['):
        return bool(glob.glob(full))
    # A component is named without its extension: io/trace_log for .h and .cc.
    return os.path.exists(full) or bool(glob.glob(glob.escape(full) + '.*'))


def ignored(path: str) -> bool:
    """What git ignores (a campaign's fuzz/findings/) is made by a run."""
    try:
        return subprocess.run(['git', 'check-ignore', '-q', path], cwd=ROOT,
                              capture_output=True).returncode == 0
    except OSError:
        return False


def path_exists(md: str, path: str) -> bool:
    """From the repository root, else from the Markdown file's folder."""
    path = path.rstrip('.,;:')
    return exists_under('', path) or exists_under(os.path.dirname(md), path) or ignored(path)


@functools.lru_cache(maxsize=None)
def tracked_names() -> Set[str]:
    return {os.path.basename(p) for p in repository_files()}


def bare_file_missing(token: str) -> bool:
    """A bare file name (`published.h`) must name a file somewhere in the tree
    (folder READMEs name their subfolders' files by name)."""
    if not BARE_FILE.match(token) or token.startswith('foo'):
        return False
    return token not in tracked_names() and not os.path.exists(os.path.join(ROOT, token))


def check_links(md: str, number: int, line: str) -> List[str]:
    bad = []
    for target in LINK.findall(line):
        if re.match(r'^[a-z]+:', target) or target.startswith('#'):
            continue
        path = target.split('#', 1)[0]
        full = os.path.normpath(os.path.join(ROOT, os.path.dirname(md), path))
        if not os.path.exists(full):
            bad.append(f'{md}:{number}: link to a missing file: {target}')
    return bad


def check_paths(md: str, number: int, tokens: List[str], bare: bool = False) -> List[str]:
    return [f'{md}:{number}: names a missing path: {t}' for t in tokens
            if (looks_like_repo_path(t) and not path_exists(md, t))
            or (bare and bare_file_missing(t))]


def command_words(text: str) -> Optional[List[str]]:
    try:
        return shlex.split(text, comments=True)
    except ValueError:
        return text.split()


def dtrcheck_commands(md: str, text: str) -> Iterator[Tuple[int, List[str]]]:
    """Every dtrcheck command line: code-block lines (joined across `\\`
    continuations) and inline code that start with dtrcheck."""
    pending: Optional[Tuple[int, str]] = None
    for number, line, in_code in lines_with_context(text):
        if in_code:
            body = line.strip()
            if pending is not None:
                start, acc = pending
                body = acc + ' ' + body
                number = start
                pending = None
            if body.endswith('\\'):
                pending = (number, body[:-1])
                continue
            for part in re.split(r'&&|\|\||;|\|(?=\s)', body):
                words = command_words(part) or []
                yield from start_of_dtrcheck(number, words)
        else:
            for snippet in INLINE.findall(line):
                yield from start_of_dtrcheck(number, command_words(snippet) or [])


def start_of_dtrcheck(number: int, words: List[str]) -> Iterator[Tuple[int, List[str]]]:
    while words and (words[0] in ('$', 'time', '/usr/bin/time', '-v') or '=' in words[0]):
        words = words[1:]
    if words and os.path.basename(words[0]) == 'dtrcheck':
        yield number, words[1:]


def subcommands(help_output: str) -> Set[str]:
    """The names listed under "Subcommands:" in a --help text."""
    part = help_output.split('Subcommands:', 1)
    return set(re.findall(r'^  ([a-z][a-z-]*)\b', part[1], re.M)) if len(part) > 1 else set()


@functools.lru_cache(maxsize=None)
def help_text(binary: str, command: Tuple[str, ...]) -> Optional[str]:
    run = subprocess.run([binary, *command, '--help'], capture_output=True, text=True,
                         timeout=60)
    return run.stdout + run.stderr if run.returncode == 0 else None


def clean(word: str) -> str:
    return word.strip('[](){}|,')


def check_command(binary: str, md: str, number: int, words: List[str]) -> List[str]:
    words = [w for w in (clean(w) for w in words) if w]
    where = f'{md}:{number}: dtrcheck {" ".join(words)}'
    subcommand: Tuple[str, ...] = ()
    if words and not words[0].startswith('-'):
        if words[0].isupper() or '...' in words[0]:
            return []
        if words[0] not in subcommands(help_text(binary, ()) or ''):
            return [f'{where}: no subcommand {words[0]!r}']
        subcommand = (words[0],)
        # A command of a command: archive add.
        if len(words) > 1 and words[1] in subcommands(help_text(binary, subcommand) or ''):
            subcommand = (words[0], words[1])
    # Options of the top-level app (--plugin) are accepted by every command.
    listed = (help_text(binary, subcommand) or '') + (help_text(binary, ()) or '')
    bad = []
    for word in words[len(subcommand):]:
        if word == '--':
            break
        for piece in word.split('/'):
            m = OPTION.match(piece.split('=', 1)[0])
            if not m:
                continue
            option = m.group(1)
            if not re.search(r'(^|[\s,])' + re.escape(option) + r'(?![A-Za-z0-9-])', listed):
                bad.append(f'{where}: {" ".join(subcommand) or "dtrcheck"} --help does not '
                           f'list {option}')
    return bad


def check_file(binary: Optional[str], md: str) -> List[str]:
    with open(os.path.join(ROOT, md), encoding='utf-8') as f:
        text = f.read()
    bad: List[str] = []
    for number, line, in_code in lines_with_context(text):
        if in_code:
            bad += check_paths(md, number, command_words(line) or [])
        else:
            bad += check_links(md, number, line)
            bad += check_paths(md, number, INLINE.findall(line), bare=True)
    if binary:
        for number, words in dtrcheck_commands(md, text):
            COMMANDS_CHECKED[0] += 1
            bad += check_command(binary, md, number, words)
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('dtrcheck', nargs='?', help='the built dtrcheck (commands are '
                        'not checked without it)')
    parser.add_argument('files', nargs='*', help='Markdown files (default: every one)')
    args = parser.parse_args()
    binary = os.path.abspath(args.dtrcheck) if args.dtrcheck else None
    files = args.files or markdown_files()
    bad: List[str] = []
    for md in files:
        bad += check_file(binary, os.path.relpath(os.path.abspath(md), ROOT)
                          if os.path.isabs(md) else md)
    for line in bad:
        print(line)
    print(f'docs_check: {len(files)} Markdown files, {COMMANDS_CHECKED[0]} dtrcheck commands, '
          f'{len(bad)} stale path(s) or command(s)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
