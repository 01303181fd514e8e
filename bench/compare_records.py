#!/usr/bin/env python3
"""The records of two dtrcheck builds on many configurations, compared.

    bench/compare_records.py [options] BUILD_A BUILD_B

runs `BUILD run TRACE --runtime RT --heuristic H --ratio R --json` with each
build for every trace, runtime, heuristic and ratio asked (by default every
trace `BUILD_A traces` lists as verified, public and captured, by name; DTR,
MSPS and DTREqClass; 0.3 and 0.6; RuntimeV2EagerOptimized), and reports the
configurations whose records differ. With --checked, BUILD_B runs with
`--region-rebuilds checked` (every region update also walked, a difference
thrown), against BUILD_A's default records.

A configuration counts as compared only if both builds print a record (a
JSON object with "status") and exit 0: two builds that fail alike, such as
on a path dtrcheck cannot read, compare nothing, and the script says so and
exits 1. Exit 0: every configuration compared, all identical. Example (a
change to the simulator, against the build before it):

    bench/compare_records.py OLD/bin/dtrcheck build/bin/dtrcheck
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
from typing import List, Optional, Tuple

Config = Tuple[str, str, str, str]  # trace, runtime, heuristic, ratio


def verified_traces(build: str) -> List[str]:
    """The names of the traces `build traces` finds and verifies."""
    out = subprocess.run([build, 'traces', '--json'], check=True, stdout=subprocess.PIPE).stdout
    return [t['name'] for t in json.loads(out)['traces'] if t['check'] == 'verified']


def record_of(build: str, config: Config, extra: List[str],
              timeout: Optional[float]) -> Tuple[Optional[str], str]:
    """The record `build` prints for config (its JSON text), or None and
    why there is none."""
    trace, runtime, heuristic, ratio = config
    command = [build, 'run', trace, '--runtime', runtime, '--heuristic', heuristic,
               '--ratio', ratio, '--json'] + extra
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f'timed out after {timeout} s'
    text = done.stdout.decode(errors='replace').strip()
    if done.returncode != 0:
        said = (text or done.stderr.decode(errors='replace')).strip().splitlines()
        return None, f'exit {done.returncode}: {said[0][:300] if said else "nothing said"}'
    try:
        record = json.loads(text)
    except json.JSONDecodeError:
        return None, f'not JSON: {text[:300]}'
    if not isinstance(record, dict) or 'status' not in record:
        return None, f'no record: {text[:300]}'
    return text, ''


def compare(args: argparse.Namespace, config: Config) -> Tuple[str, str]:
    """('same' | 'differ' | 'failed', detail) for one configuration."""
    a, why_a = record_of(args.build_a, config, [], args.timeout)
    extra = ['--region-rebuilds', 'checked'] if args.checked else []
    b, why_b = record_of(args.build_b, config, extra, args.timeout)
    if a is None or b is None:
        return 'failed', '; '.join(f'{name}: {why}' for name, why in (('A', why_a), ('B', why_b))
                                   if why)
    return ('same', '') if a == b else ('differ', '')


def main() -> int:
    parser = argparse.ArgumentParser(
        description='the records of two dtrcheck builds on many configurations, compared')
    parser.add_argument('build_a')
    parser.add_argument('build_b')
    parser.add_argument('--traces', help='comma-separated trace names or paths '
                        '(default: every verified trace of `BUILD_A traces`)')
    parser.add_argument('--runtimes', default='RuntimeV2EagerOptimized',
                        help='comma-separated (default RuntimeV2EagerOptimized)')
    parser.add_argument('--heuristics', default='DTR,MSPS,DTREqClass',
                        help='comma-separated (default DTR,MSPS,DTREqClass)')
    parser.add_argument('--ratios', default='0.3,0.6', help='comma-separated (default 0.3,0.6)')
    parser.add_argument('--checked', action='store_true',
                        help='BUILD_B runs with --region-rebuilds checked')
    parser.add_argument('--timeout', type=float, help='seconds per run (default: none)')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1,
                        help='configurations run at once (default: the cores)')
    args = parser.parse_args()

    traces = args.traces.split(',') if args.traces else verified_traces(args.build_a)
    configs: List[Config] = [(t, rt, h, r) for t in traces for rt in args.runtimes.split(',')
                             for h in args.heuristics.split(',') for r in args.ratios.split(',')]
    # Each difference is printed as its configuration's turn comes (in the
    # configurations' order, whatever --jobs), with a count on a terminal;
    # Ctrl-C prints the summary of what finished.
    counts = {'same': 0, 'differ': 0, 'failed': 0}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    try:
        for done, (config, (outcome, detail)) in enumerate(
                zip(configs, pool.map(lambda c: compare(args, c), configs)), 1):
            counts[outcome] += 1
            if outcome != 'same':
                print(f'{outcome.upper()}: {" ".join(config)}' + (f' ({detail})' if detail else ''),
                      flush=True)
            if sys.stderr.isatty():
                print(f'\r{done}/{len(configs)} configurations', end='', file=sys.stderr,
                      flush=True)
    except KeyboardInterrupt:
        print('\ninterrupted: the summary counts the configurations that finished',
              file=sys.stderr)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    compared = counts['same'] + counts['differ']
    print(f'{len(configs)} configurations ({len(traces)} traces): {compared} compared, '
          f'{counts["same"]} identical, {counts["differ"]} differ, '
          f'{counts["failed"]} not compared (a build printed no record)'
          + (', B in the checked mode' if args.checked else ''))
    return 0 if compared == len(configs) and counts['differ'] == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
