"""fuzz/campaign's command line: run, triage, merge, buckets (see fuzz/README.md)."""
import argparse
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from types import FrameType
from typing import Any, List, Optional

from . import buckets, report
from .fuzzers import FuzzerRun, allocate, stop_all
from .layout import ROOT, TARGETS, Findings, append_jsonl
from .status import StatusLines, triage_reserve
from .triage import Interrupted, Triage

# Do not start a reduction with less time than this before the deadline:
# a few seconds of delta debugging archive an almost unreduced trace.
MIN_REDUCE_SECONDS = 30

# dtrcheck's --memory models (sim/placed_memory.h, MemoryModelNames), which
# the fuzzers read from DTRCHECK_FUZZ_MEMORY ("" or unset: bytes).
MEMORY_MODELS = ('bytes', 'cuda-caching', 'arena')


class RenamedOption(argparse.Action):
    """An option renamed as dtrcheck's (cli/renamed_option.h): the old name
    works for one release, hidden from --help, with a warning on stderr."""

    def __init__(self, option_strings: List[str], dest: str, new_name: str,
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.new_name = new_name

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: Optional[str] = None) -> None:
        print(f'fuzz/campaign: {option_string} is now {self.new_name}; the old name goes in '
              'the next release', file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_triage_options(p: argparse.ArgumentParser) -> None:
    p.add_argument('--findings', default=None,
                   help='working directory of campaigns (default fuzz/findings, ignored by git; '
                        'with --plugin, fuzz/findings-plugins)')
    p.add_argument('--archive', default=None,
                   help='where counterexamples are archived, as <kind>/<id>/ (default corpus/; '
                        'with --plugin, FINDINGS/archive, since ctest replays corpus/ without '
                        'plugins)')
    p.add_argument('--plugin', action='append', default=[], metavar='PATH.so',
                   help='fuzz the heuristics of this plugin (include/dtrcheck/heuristic.h) and '
                        'nothing else; repeatable. Findings are confirmed by replay in dtrcheck '
                        '(simrd has no oracle for them)')
    p.add_argument('--heuristics', default=None, metavar='NAME,NAME',
                   help='fuzz only these heuristics (built-in or from --plugin)')
    p.add_argument('--memory', default=None, choices=MEMORY_MODELS, metavar='MODEL',
                   help='the allocator model of every sweep (DTRCHECK_FUZZ_MEMORY): bytes '
                        '(default), cuda-caching or arena; the address-aware heuristics (DTE, '
                        'Coop, MegEngineDTR, MegEngineDTRSqrt) need one of the last two')
    p.add_argument('--dtrcheck', default=os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
    p.add_argument('--fuzz-build', default=os.path.join(ROOT, 'build-fuzz'),
                   help='the clang build with DTRCHECK_FUZZ=ON (binaries in bin/)')
    p.add_argument('--reduce-timeout', type=float, default=180,
                   help='seconds per reduction; then the best trace so far is archived '
                        '(default 180)')
    p.add_argument('--no-oracle', action='store_true',
                   help='do not confirm reduced traces with simrd')
    p.add_argument('--cliff-factor', type=float, default=2.0,
                   help='a cliff is a factor >= F (default 2)')
    p.add_argument('--cliff-delta', type=float, default=0.01,
                   help='between budgets at most D of the peak apart (default 0.01)')
    p.add_argument('--cliff-gap', type=float, dest='cliff_delta', action=RenamedOption,
                   new_name='--cliff-delta', help=argparse.SUPPRESS)
    p.add_argument('--optimal', type=float, default=10, metavar='SECONDS',
                   help='solve the optimum of each archived counterexample at both budgets '
                        '(dtrcheck check-finding --optimal --record, SECONDS per solve; '
                        'default 10, 0 to skip): the report then gives the regret')
    p.add_argument('--report', help='also write the markdown report here')


def dtrcheck_version(dtrcheck: str) -> str:
    """`dtrcheck --version`: its version, commit and the simrd commit it reproduces."""
    try:
        out = subprocess.run([dtrcheck, '--version'], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f'unknown ({e})'
    return out.stdout.strip() or f'unknown (exit {out.returncode})'


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog='fuzz/campaign', description=__doc__)
    sub = ap.add_subparsers(dest='command')
    run = sub.add_parser(
        'run', help='fuzz for --time seconds on --jobs cores, triaging findings as they come')
    add_triage_options(run)
    run.add_argument('--time', type=float, default=600,
                     help='wall seconds for the whole run, triage included (default 600): '
                          'the fuzzers stop --triage-reserve seconds before the end')
    run.add_argument('--triage-reserve', type=float, default=None, metavar='SECONDS',
                     help='the last SECONDS of --time triage only, fuzzers stopped (default a '
                          'quarter of --time, at most --reduce-timeout)')
    run.add_argument('--status-every', type=float, default=60, metavar='SECONDS',
                     help='print a status line every SECONDS (default 60; 0: none)')
    run.add_argument('--jobs', type=int, default=os.cpu_count() or 1,
                     help='fuzzing processes (default: all cores)')
    run.add_argument('--targets', default=None,
                     help='comma-separated fuzzers (default both; with --plugin, '
                          'pathology_fuzzer: the parser is no plugin business)')
    run.add_argument('--drain', type=float, default=0,
                     help='after fuzzing, go on triaging pending findings '
                          'for up to this many seconds')
    run.add_argument('--build', action='store_true',
                     help='build both builds first (ci/fuzz_build.sh)')
    tri = sub.add_parser('triage', help='triage pending findings without fuzzing')
    add_triage_options(tri)
    tri.add_argument('--time', type=float, default=None, help='stop after this many seconds')
    mer = sub.add_parser(
        'merge', help="merge other machines' findings directories and archives into these")
    mer.add_argument('--findings', default=os.path.join(ROOT, 'fuzz', 'findings'))
    mer.add_argument('--archive', default=os.path.join(ROOT, 'corpus'))
    mer.add_argument('--fuzz-build', default=os.path.join(ROOT, 'build-fuzz'))
    mer.add_argument('--minimize', action='store_true',
                     help='merge libFuzzer corpora with -merge=1 '
                          '(keeps only inputs adding coverage)')
    mer.add_argument('sources', nargs='+', help='findings directories and/or archive directories')
    mer.add_argument('--dtrcheck', default=os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
    bkt = sub.add_parser(
        'buckets', help='the root-cause buckets of an archive (fuzz/README.md, "Buckets")')
    bkt.add_argument('archive', nargs='?', default=os.path.join(ROOT, 'corpus'))
    bkt.add_argument('--dtrcheck', default=os.path.join(ROOT, 'build', 'bin', 'dtrcheck'))
    bkt.add_argument('--write', action='store_true',
                     help='write ARCHIVE/buckets/<id>.json (computed afresh from the entries, '
                          'merged with the hits the store has)')
    bkt.add_argument('--prune', action='store_true',
                     help='write the records and keep one entry per bucket, its representative: '
                          'remove the directories of the other members (their hits stay)')
    bkt.add_argument('--json', action='store_true', help='print the records as one JSON object')
    args = ap.parse_args(argv)
    if args.command is None:
        ap.print_help()
        sys.exit(2)
    plugins = getattr(args, 'plugin', [])
    args.plugin = [os.path.abspath(p) for p in plugins]
    if getattr(args, 'findings', '') is None:
        args.findings = os.path.join(ROOT, 'fuzz', 'findings-plugins' if plugins else 'findings')
    if getattr(args, 'archive', '') is None:
        args.archive = os.path.join(args.findings, 'archive') if plugins \
            else os.path.join(ROOT, 'corpus')
    if hasattr(args, 'memory'):
        args.memory = memory_model(args.memory, os.environ.get('DTRCHECK_FUZZ_MEMORY'))
    return args


def memory_model(option: Optional[str], inherited: Optional[str]) -> str:
    """The campaign's memory model: --memory, else DTRCHECK_FUZZ_MEMORY
    from the environment (as before the option), else bytes. Both, naming
    different models, is an error: which one the fuzzers would read is not
    what the record would say."""
    inherited = inherited or None  # empty is unset, as dtrcheck reads it
    refusal = None
    if inherited is not None and inherited not in MEMORY_MODELS:
        refusal = (f'DTRCHECK_FUZZ_MEMORY={inherited} in the environment: not a memory model '
                   f"({', '.join(MEMORY_MODELS)})")
    elif option is not None and inherited is not None and option != inherited:
        refusal = (f'--memory {option} but DTRCHECK_FUZZ_MEMORY={inherited} in the environment: '
                   'unset it or pass the same model')
    if refusal:  # bad input: one line, exit 2 (as argparse's own errors)
        print('campaign: ' + refusal, file=sys.stderr)
        sys.exit(2)
    return option or inherited or 'bytes'


def check_plugins(args: argparse.Namespace, findings: Findings) -> None:
    """A fuzzer input decodes to another runtime/heuristic pair under other
    plugins or another --heuristics (fuzz/lib/fuzz_case.h), and to other
    runs under another --memory: one findings directory is fuzzed and
    triaged with one such choice, recorded in pairs.json (one written
    before --memory has no "memory": bytes)."""
    path = os.path.join(findings.root, 'pairs.json')
    mine = {'plugins': sorted(args.plugin), 'heuristics': args.heuristics,
            'memory': args.memory}
    if os.path.exists(path):
        with open(path) as f:
            theirs = json.load(f)
        if dict({'memory': 'bytes'}, **theirs) != mine:
            sys.exit(f'campaign: {findings.root} was fuzzed with {json.dumps(theirs)}, '
                     f'not {json.dumps(mine)} (--plugin, --heuristics, --memory): use another '
                     '--findings')
        return
    with open(path + '.tmp', 'w') as f:
        json.dump(mine, f)
    os.rename(path + '.tmp', path)


def log(message: str) -> None:
    print(time.strftime('%H:%M:%S ') + message, flush=True)


def environment(args: argparse.Namespace, findings: Findings) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DTRCHECK_FUZZ_CLAIMS=findings.claims, DTRCHECK_FUZZ_ON_FINDING='claim',
               DTRCHECK_FUZZ_CLIFF_FACTOR=repr(args.cliff_factor),
               DTRCHECK_FUZZ_CLIFF_GAP=repr(args.cliff_delta))
    # Read by the fuzzers and by every dtrcheck command triage runs.
    env.pop('DTRCHECK_PLUGINS', None)
    env.pop('DTRCHECK_FUZZ_HEURISTICS', None)
    if args.plugin:
        env['DTRCHECK_PLUGINS'] = ':'.join(args.plugin)
    if args.heuristics:
        env['DTRCHECK_FUZZ_HEURISTICS'] = args.heuristics
    env['DTRCHECK_FUZZ_MEMORY'] = args.memory
    return env


def triage_until(triage: Triage, deadline: float, stop_when_idle: bool) -> Optional[str]:
    """Triages artifacts (quick) then claims until the deadline; when
    `stop_when_idle`, also returns once nothing is pending. A tool that
    cannot be started (dtrcheck being rebuilt, removed, not executable) is
    no crash: the item stays pending; while fuzzers run, triage waits and
    tries again (a rebuild ends), otherwise it returns why it stopped."""
    failure = ''
    while time.time() < deadline:
        try:
            artifacts = triage.pending_artifacts()
            if artifacts:
                triage.triage_artifact(*artifacts[0])
                continue
            if deadline - time.time() >= MIN_REDUCE_SECONDS or deadline == float('inf'):
                cid = triage.next_claim()
                if cid:
                    triage.triage_claim(cid,
                                        deadline=None if deadline == float('inf') else deadline)
                    continue
        except OSError as e:
            why = f'cannot run {e.filename or "a tool"}: {e.strerror or e}'
            if why != failure:
                log(f'triage: {why}; the item stays pending')
            failure = why
            if stop_when_idle:
                return why
            time.sleep(max(0.0, min(30.0, deadline - time.time())))
            continue
        failure = ''
        if stop_when_idle:
            return None
        time.sleep(max(0.0, min(5.0, deadline - time.time())))
    return failure or None


def sigterm_as_interrupt(signum: int, frame: Optional[FrameType]) -> None:
    raise KeyboardInterrupt()


def campaign(args: argparse.Namespace, fuzz: bool) -> int:
    findings = Findings(args.findings)
    findings.ensure()
    held = findings.lock()  # noqa: F841 (held until the campaign ends)
    check_plugins(args, findings)
    if fuzz and args.build:
        subprocess.run(['bash', os.path.join(ROOT, 'ci', 'fuzz_build.sh')], check=True)
    if not os.path.exists(args.dtrcheck):
        sys.exit(f'campaign: {args.dtrcheck} not found: build it (ci/build.sh) or pass --build')
    if not os.access(args.dtrcheck, os.X_OK):
        print(f'campaign: {args.dtrcheck} is not executable', file=sys.stderr)
        return 2
    if fuzz and args.targets is None:
        args.targets = 'pathology_fuzzer' if args.plugin else ','.join(TARGETS)
    targets = [t for t in args.targets.split(',') if t] if fuzz else []
    fuzz_bin = os.path.join(args.fuzz_build, 'bin')
    for t in targets:
        if t not in TARGETS:
            sys.exit(f"campaign: unknown target {t}; valid: {', '.join(TARGETS)}")
        if not os.path.exists(os.path.join(fuzz_bin, t)):
            sys.exit(f'campaign: {os.path.join(fuzz_bin, t)} not found: '
                     'pass --build (or run ci/fuzz_build.sh)')
    signal.signal(signal.SIGTERM, sigterm_as_interrupt)
    env = environment(args, findings)
    stamp = time.strftime('%Y%m%d-%H%M%S')
    start = time.time()
    record = {'stamp': stamp, 'start': start, 'host': socket.gethostname(),
              'jobs': getattr(args, 'jobs', 0),
              'command': 'fuzz/campaign ' + ' '.join(shlex.quote(a) for a in sys.argv[1:]),
              'cliff_factor': args.cliff_factor, 'cliff_gap': args.cliff_delta,
              'reduce_timeout': args.reduce_timeout, 'oracle': not args.no_oracle,
              'targets': targets, 'plugins': args.plugin, 'heuristics': args.heuristics,
              'memory': args.memory,
              'optimal_seconds': args.optimal, 'version': dtrcheck_version(args.dtrcheck)}
    append_jsonl(findings.campaigns, record)  # time to find counts from here
    claims_before = set(os.listdir(findings.claims))
    triage = Triage(findings, args.archive, args.dtrcheck, fuzz_bin, env, args.reduce_timeout,
                    oracle=not args.no_oracle, log=log, optimal_seconds=args.optimal)
    runs: list[FuzzerRun] = []
    interrupted = False
    stopped: Optional[str] = None  # why the last triage stopped short
    phase = ['fuzzing' if targets else 'triage']
    status: Optional[StatusLines] = None
    every = getattr(args, 'status_every', 60)
    if every > 0:
        status = StatusLines(every, start, getattr(args, 'time', None) or 0, runs, findings,
                             claims_before, triage, lambda: set(triage.store.records), log,
                             lambda: phase[0])
        status.start()
    try:
        if targets and args.time > 0:
            reserve = triage_reserve(args.time, args.triage_reserve, args.reduce_timeout)
            fuzz_seconds = max(1.0, args.time - reserve)
            for target, workers in allocate(args.jobs, targets).items():
                runs.append(FuzzerRun(target, os.path.join(fuzz_bin, target), workers,
                                      fuzz_seconds, findings, stamp, env))
                log(f'{target}: {workers} worker(s) for {fuzz_seconds:.0f} s, '
                    f'logs in {runs[-1].log_dir}')
            if reserve > 0:
                log(f'the last {reserve:.0f} s of {args.time:.0f} s triage only')
            triage_until(triage, start + fuzz_seconds, stop_when_idle=False)
            stop_all(runs)
            phase[0] = 'triage'
            stopped = triage_until(triage, start + args.time, stop_when_idle=True)
            if args.drain > 0 and not stopped:
                stopped = triage_until(triage, time.time() + args.drain, stop_when_idle=True)
        else:
            limit = getattr(args, 'time', None)
            stopped = triage_until(triage, start + limit if limit else float('inf'),
                                   stop_when_idle=True)
    except (KeyboardInterrupt, Interrupted):
        interrupted = True
        log('interrupted: stopping; finished work is kept, '
            'the item in progress stays pending')
    finally:
        # A second Ctrl-C must not cut the report short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if status:
            status.stop()
        stop_all(runs)
        record['end'] = time.time()
        fuzzers = {}
        for r in runs:
            st: dict[str, float] = dict(r.stats())
            st.update(workers=r.workers, seconds=record['end'] - r.started)
            fuzzers[r.target] = st
        record['fuzzers'] = fuzzers
        record['claims_new'] = len(set(os.listdir(findings.claims)) - claims_before)
        record['interrupted'] = interrupted
        append_jsonl(findings.campaigns, record)
        pending = len(triage.pending_claims()) + len(triage.pending_artifacts())
        summary, md, svg = report.build(record, findings, triage.archived(), pending,
                                        interrupted, triage.store.records)
        print(summary, flush=True)
        for path in [findings.report] + ([args.report] if args.report else []):
            with open(path, 'w') as f:
                f.write(md + '\n')
            # The report names its curve beside it.
            svg_path = os.path.join(os.path.dirname(os.path.abspath(path)),
                                    f'saturation-{stamp}.svg')
            with open(svg_path, 'w') as f:
                f.write(svg)
        log(f'report: {findings.report}' + (f' and {args.report}' if args.report else ''))
        if pending:
            log(f'{pending} finding(s) pending; finish them with: fuzz/campaign triage '
                f'--findings {shlex.quote(findings.root)} --archive {shlex.quote(args.archive)}')
        if stopped and not interrupted:
            print(f'campaign: triage stopped: {stopped}', file=sys.stderr)
    if interrupted:
        return 130
    return 2 if stopped else 0


def copy_missing(src: str, dst: str) -> bool:
    """Copies src (file or directory) to dst unless dst exists; directories
    through a temporary name, so a merged entry appears whole."""
    if os.path.exists(dst):
        return False
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.isdir(src):
        tmp = os.path.join(os.path.dirname(dst), '.tmp-merge-' + os.path.basename(dst))
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(src, tmp)
        os.rename(tmp, dst)
    else:  # copy2 keeps the mtime: a claim's is when it was found
        shutil.copy2(src, dst)
    return True


def merge(args: argparse.Namespace) -> int:
    dest = Findings(args.findings)
    dest.ensure()
    held = dest.lock()  # noqa: F841 (held until the merge ends)
    store = buckets.Store(args.archive)
    counts = {'claims': 0, 'corpus': 0, 'triage': 0, 'archive': 0, 'buckets': 0}
    for src in args.sources:
        src = os.path.abspath(src)
        # An archive: <kind>/<id>/manifest.json (possibly under corpus/), and
        # its buckets: records merge as unions of their hits (buckets.py), so
        # the result is the same in any order of the sources.
        for base in (src, os.path.join(src, 'corpus')):
            if os.path.abspath(base) != os.path.abspath(args.archive):
                for record in buckets.Store(base).records.values():
                    store.add(record)
                    counts['buckets'] += 1
            for entry, manifest in buckets.archive_entries(base, args.dtrcheck):
                counts['archive'] += copy_missing(os.path.dirname(manifest),
                                                  os.path.join(args.archive, entry))
        # A findings directory: claims, corpora, finished triage.
        other = Findings(src)
        if os.path.isdir(other.claims):
            for name in os.listdir(other.claims):
                if '.tmp' not in name:
                    counts['claims'] += copy_missing(os.path.join(other.claims, name),
                                                     os.path.join(dest.claims, name))
        for target in TARGETS:
            if os.path.isdir(other.corpus(target)):
                if args.minimize:
                    binary = os.path.join(args.fuzz_build, 'bin', target)
                    subprocess.run([binary, '-merge=1', dest.corpus(target), other.corpus(target)],
                                   check=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                    counts['corpus'] += 1
                else:  # libFuzzer names inputs by their SHA-1: a union is a copy
                    for name in os.listdir(other.corpus(target)):
                        counts['corpus'] += copy_missing(os.path.join(other.corpus(target), name),
                                                         os.path.join(dest.corpus(target), name))
        if os.path.isdir(other.triage) and other.triage != dest.triage:
            for item in os.listdir(other.triage):
                if os.path.exists(os.path.join(other.triage, item, 'result.json')):
                    counts['triage'] += copy_missing(os.path.join(other.triage, item),
                                                     os.path.join(dest.triage, item))
    # Entries from an archive without bucket records (filed before buckets).
    if os.path.exists(args.dtrcheck):
        buckets.sync(store, args.archive, args.dtrcheck)
    # One entry per bucket, as each machine's campaign keeps it: a function
    # of the merged hits, so the same in any order of the sources.
    counts['pruned'] = len(buckets.prune(store, os.path.abspath(args.archive)))
    print('merge: ' + ', '.join(f'{n} {k}' for k, n in counts.items())
          + ('' if not args.minimize else ' (corpora merged with -merge=1)'))
    return 0


def show_buckets(args: argparse.Namespace) -> int:
    """The buckets of an archive: how many, their sizes, representatives."""
    if not os.path.exists(args.dtrcheck):
        sys.exit(f'campaign: {args.dtrcheck} not found: build it (ci/build.sh)')
    records = buckets.rebuild(os.path.abspath(args.archive), args.dtrcheck)
    if args.write or args.prune:
        store = buckets.Store(args.archive)
        for record in records.values():
            store.add(record)
        if args.prune:
            removed = buckets.prune(store, os.path.abspath(args.archive))
            print(f'pruned {len(removed)} entries: ' + (', '.join(removed) or 'none'))
            records = store.records
    if args.json:
        print(json.dumps({'buckets': [records[k] for k in sorted(records)]}, indent=2))
        return 0

    def entries_of(r: dict) -> int:
        return len({h['entry'] for h in r['hits'] if h.get('entry')})
    rows = sorted(records.values(), key=lambda r: (-entries_of(r), r['key']))
    table = [{'bucket': r['id'], 'key': r['key'],
              'entries': entries_of(r),
              'hits': r['count'], 'inputs': len(r['inputs']),
              'representative': (r['representative'] or {}).get('entry', '-'),
              'operators': (r['representative'] or {}).get('operators', '-'),
              'first_seen': r['first_seen'] or '?'} for r in rows]
    entries = sum(t['entries'] for t in table)
    print(f'{len(records)} buckets of {entries} entries in {args.archive}')
    print(report.table(table, ['bucket', 'key', 'entries', 'hits', 'inputs', 'representative',
                               'operators', 'first_seen']))
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.command == 'merge':
        return merge(args)
    if args.command == 'buckets':
        return show_buckets(args)
    return campaign(args, fuzz=args.command == 'run')
