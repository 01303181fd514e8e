#!/usr/bin/env python3
"""Runs the top-level README's five-minute tour as written and checks its output.

The tour is the part of README.md between `<!-- tour -->` and
`<!-- end tour -->`. In its code blocks, a line starting with `$ ` is a
command (a trailing `\\` continues it) and the lines up to the next command
are what it printed: each must appear in what the command prints now
(spaces collapsed; a line with `...` matches its pieces in order). A command
must exit 0.

The commands run in a scratch directory that looks like a fresh clone (every
top-level entry of the tree linked, `build` the build directory given, `fuzz/`
a real folder so that a campaign's findings stay in the scratch directory),
so the tour writes nothing into the tree. A command whose comment says
`needs simrd`, `needs PyTorch` or `needs build-fuzz` is skipped, and said to
be, when that is missing; a fuzz campaign's `--time` is cut to 60 s.

    ci/readme_tour_test.py --build build     (ctest: readme_tour, label cli)

Exits 1 naming the command that failed and the line it did not print.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = '<!-- tour -->', '<!-- end tour -->'
FUZZ_TIME = 60


def tour_commands(readme: str) -> List[Tuple[str, List[str]]]:
    """(command, the output lines shown under it) for every command of the tour."""
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f'readme_tour_test: README.md has no {BEGIN} ... {END} section')
    tour = readme.split(BEGIN, 1)[1].split(END, 1)[0]
    out: List[Tuple[str, List[str]]] = []
    in_block = False
    continued = False
    for line in tour.splitlines():
        if line.strip().startswith('```'):
            in_block = not in_block
            continued = False
            continue
        if not in_block:
            continue
        if continued:
            out[-1] = (out[-1][0] + '\n' + line, out[-1][1])
            continued = line.rstrip().endswith('\\')
        elif line.startswith('$ '):
            out.append((line[2:], []))
            continued = line.rstrip().endswith('\\')
        elif out and line.strip():
            out[-1][1].append(line)
    return out


def collapse(text: str) -> str:
    return ' '.join(text.split())


def shown_line_printed(shown: str, printed: List[str]) -> bool:
    pieces = [collapse(p) for p in collapse(shown).split('...') if p.strip()]
    for line in printed:
        at = 0
        for piece in pieces:
            at = line.find(piece, at)
            if at < 0:
                break
            at += len(piece)
        else:
            return True
    return False


def scratch_clone(build: str) -> str:
    scratch = tempfile.mkdtemp(prefix='readme_tour_')
    for name in os.listdir(ROOT):
        if name.startswith('.') or name.startswith('build'):
            continue
        if name == 'fuzz':
            os.mkdir(os.path.join(scratch, 'fuzz'))
            for child in os.listdir(os.path.join(ROOT, 'fuzz')):
                if child not in ('findings', 'findings-plugins'):
                    os.symlink(os.path.join(ROOT, 'fuzz', child),
                               os.path.join(scratch, 'fuzz', child))
            continue
        os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
    os.symlink(os.path.abspath(build), os.path.join(scratch, 'build'))
    return scratch


def missing(command: str, scratch: str) -> str:
    """Why a command cannot run here, or ''."""
    if 'needs simrd' in command:
        probe = subprocess.run([sys.executable, '-c', 'from oracle import simrd_client; '
                                'raise SystemExit(0 if simrd_client.available() else 1)'],
                               cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
        if probe.returncode != 0:
            return 'simrd is not installed (oracle/get_simrd.sh)'
    if 'needs PyTorch' in command:
        probe = subprocess.run(['/usr/bin/python3', '-c', 'import torch'], capture_output=True)
        if probe.returncode != 0:
            return 'PyTorch is not installed (DTRCHECK_TORCH=1 bash ci/deps.sh)'
    if 'needs build-fuzz' in command and not os.path.exists(
            os.path.join(ROOT, 'build-fuzz', 'bin', 'pathology_fuzzer')):
        return 'no fuzz build (ci/fuzz_build.sh)'
    return ''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--build', default=os.path.join(ROOT, 'build'),
                        help='the build directory (bin/dtrcheck in it)')
    parser.add_argument('--keep', action='store_true', help='keep the scratch directory')
    parser.add_argument('--readme', default=os.path.join(ROOT, 'README.md'),
                        help='the Markdown file whose tour to run (default README.md)')
    args = parser.parse_args()
    with open(args.readme, encoding='utf-8') as f:
        commands = tour_commands(f.read())
    if not commands:
        print('readme_tour_test: the tour has no commands')
        return 1
    scratch = scratch_clone(args.build)
    failed: List[str] = []
    ran = 0
    try:
        for command, shown in commands:
            why = missing(command, scratch)
            if why:
                print(f'skipped: {command.splitlines()[0]}: {why}')
                continue
            if 'fuzz/campaign' in command:
                command = re.sub(r'--time \d+', f'--time {FUZZ_TIME}', command)
            print(f'$ {command}', flush=True)
            run = subprocess.run(['bash', '-c', command], cwd=scratch, capture_output=True,
                                 text=True, timeout=1200)
            ran += 1
            printed = [collapse(line) for line in (run.stdout + run.stderr).splitlines()]
            if run.returncode != 0:
                failed.append(f'{command}: exit {run.returncode}\n{run.stdout}{run.stderr}')
                continue
            for line in shown:
                if not shown_line_printed(line, printed):
                    failed.append(f"{command}: did not print the README's line\n  {line}\n"
                                  f'printed:\n{run.stdout}{run.stderr}')
    finally:
        if args.keep:
            print(f'scratch directory: {scratch}')
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    for failure in failed:
        print(f'FAILED: {failure}')
    print(f'readme_tour_test: {ran} of {len(commands)} commands run, {len(failed)} failure(s)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
