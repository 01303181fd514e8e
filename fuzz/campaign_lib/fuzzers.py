"""Running the libFuzzer targets for a campaign, and reading their statistics.

Each target runs as `FUZZER -jobs=J -workers=W ...`: W long-lived fuzzing
processes sharing one corpus directory (libFuzzer reloads it, so what one
worker finds the others build on), and when one dies on a crash another
starts. pathology_fuzzer runs with DTRCHECK_FUZZ_ON_FINDING=claim: a new
pathology is written to claims/ and the worker goes on, instead of
restarting (-fork mode restarted short jobs so often that it ran a tenth as
many inputs on two cores).
"""
import glob
import os
import re
import signal
import subprocess
import time
from typing import IO, Optional

from .layout import ROOT, Findings

TARGET_OPTIONS: dict[str, list[str]] = {
    # Inputs are kFuzzCaseBytes (15) long; longer ones decode the same, so
    # no need to grow lengths slowly. A case is a whole sweep: seconds-long
    # ones are normal under ASan (not slow units), and the fast ones should
    # be mutated more (scale the schedule by execution time).
    'pathology_fuzzer': ['-max_len=32', '-len_control=0', '-timeout=300',
                         '-report_slow_units=600', '-entropic_scale_per_exec_time=1',
                         '-rss_limit_mb=4096'],
    'trace_parse_fuzzer': ['-timeout=30', '-rss_limit_mb=4096'],
}


def allocate(jobs: int, targets: list[str]) -> dict[str, int]:
    """Workers per target: one each, then the rest to pathology_fuzzer, the
    expensive one (a case is a whole budget sweep)."""
    alloc = {t: 1 for t in targets}
    spare = max(0, jobs - len(targets))
    main = 'pathology_fuzzer' if 'pathology_fuzzer' in alloc else targets[0]
    alloc[main] += spare
    return alloc


class FuzzerRun:
    def __init__(self, target: str, binary: str, workers: int, seconds: float,
                 findings: Findings, stamp: str, env: dict[str, str]) -> None:
        self.target = target
        self.workers = workers
        self.log_dir = findings.logs(stamp, target)
        os.makedirs(self.log_dir, exist_ok=True)
        seeds = os.path.join(ROOT, 'fuzz', target + '_seed_corpus')
        cmd = [binary, f'-jobs={workers * 1000}', f'-workers={workers}',
               f'-max_total_time={int(seconds)}', '-print_final_stats=1',
               f'-artifact_prefix={findings.artifacts(target)}/',
               f"-dict={os.path.join(ROOT, 'fuzz', target + '.dict')}"] + TARGET_OPTIONS[target]
        cmd += [findings.corpus(target), seeds]
        self.command = cmd
        self.started = time.time()
        # A session of its own: Ctrl-C in the terminal reaches the campaign,
        # which stops the fuzzers itself (and gets their final statistics).
        self.log: IO[str] = open(os.path.join(self.log_dir, 'jobs.log'), 'w')
        self.proc = subprocess.Popen(cmd, cwd=self.log_dir, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def running(self) -> bool:
        return self.proc.poll() is None

    def stats(self) -> dict[str, int]:
        return log_stats(self.log_dir)

    def signal(self, sig: signal.Signals) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass


def stop_all(runs: list[FuzzerRun], grace: float = 20) -> None:
    """SIGINT to every process of every run (libFuzzer prints its final
    statistics and exits), then SIGKILL to what is left after `grace` s."""
    for r in runs:
        if r.running():
            r.signal(signal.SIGINT)
    deadline = time.time() + grace
    for r in runs:
        try:
            r.proc.wait(timeout=max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            pass
    for r in runs:
        r.signal(signal.SIGKILL)  # stragglers, and jobs the parent started meanwhile
        r.proc.wait()
        r.log.close()


_DONE = re.compile(r'^Done (\d+) runs in (\d+) second')
_FINAL = re.compile(r'^stat::number_of_executed_units: (\d+)')
_PROGRESS = re.compile(r'^#(\d+)\s')
_CORPUS = re.compile(r'corp: (\d+)/')


def log_stats(log_dir: str) -> dict[str, int]:
    """Executions and the largest corpus size over the workers' logs
    (fuzz-<job>.log): each log's final count, or its last progress line if
    the worker was killed."""
    execs, corpus = 0, 0
    for path in glob.glob(os.path.join(log_dir, 'fuzz-*.log')):
        last: Optional[int] = None
        final: Optional[int] = None
        with open(path, errors='replace') as f:
            for line in f:
                m = _PROGRESS.match(line)
                if m:
                    last = int(m.group(1))
                    c = _CORPUS.search(line)
                    if c:
                        corpus = max(corpus, int(c.group(1)))
                m = _FINAL.match(line) or _DONE.match(line)
                if m:
                    final = int(m.group(1))
        execs += final if final is not None else (last or 0)
    return {'execs': execs, 'corpus': corpus}
