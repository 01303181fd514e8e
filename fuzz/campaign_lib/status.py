"""What a person watching a campaign sees: a status line every so often.

    10:42:07 status 120/600 s (fuzzing): pathology_fuzzer 2 workers 61 exec/s corpus 812;
             trace_parse_fuzzer ... | claims 14: triaged 9, pending 5
             | buckets: 3 new, 4 hits of known

(one line).

The line is made in one place (`status_line`) from what the campaign's own
files say (fuzzer logs, claims/, triage results, the bucket store), so a
status line and the final report can never disagree about a count. A
background thread prints it, because the main thread may be inside a
reduction for minutes.
"""
import os
import threading
import time
from typing import Callable, Dict, List, Optional, Set

from .fuzzers import FuzzerRun
from .layout import Findings
from .report import results
from .triage import Triage


def status_line(elapsed: float, total: float, phase: str, runs: List[FuzzerRun],
                stats: Dict[str, Dict[str, int]], rates: Dict[str, float], findings: Findings,
                claims_before: Set[str], triage: Triage, bucket_ids: Set[str],
                since: float) -> str:
    """`stats` and `rates`: each run's FuzzerRun.stats() and exec/s, by target."""
    fuzz = []
    for r in runs:
        fuzz.append(f"{r.target} {r.workers} worker{'s' if r.workers != 1 else ''} "
                    f"{rates.get(r.target, 0):.0f} exec/s corpus {stats[r.target]['corpus']}")
    claims = len(set(os.listdir(findings.claims)) - claims_before)
    done = results(findings, since=since)
    pending = len(triage.pending_claims()) + len(triage.pending_artifacts())
    new = len(bucket_ids - triage.known_buckets)
    known_hits = sum(1 for r in done if r.get('bucket') in triage.known_buckets)
    parts = [f'status {elapsed:.0f}/{total:.0f} s ({phase})']
    if fuzz:
        parts[0] += ': ' + '; '.join(fuzz)
    parts.append(f'claims {claims}: triaged {len(done)}, pending {pending}')
    parts.append(f'buckets: {new} new, {known_hits} hits of known')
    return ' | '.join(parts)


class StatusLines(threading.Thread):
    """Prints `status_line` every `every` seconds until `stop()`; exec/s is
    the rate over the last interval."""

    def __init__(self, every: float, start: float, total: float, runs: List[FuzzerRun],
                 findings: Findings, claims_before: Set[str], triage: Triage,
                 bucket_ids: Callable[[], Set[str]], log: Callable[[str], None],
                 phase: Callable[[], str]) -> None:
        super().__init__(daemon=True)
        self.every = every
        self.start_time = start
        self.total = total
        self.runs = runs
        self.findings = findings
        self.claims_before = claims_before
        self.triage = triage
        self.bucket_ids = bucket_ids
        self.log = log
        self.phase = phase
        self._stopped = threading.Event()
        self._last: Dict[str, int] = {}
        self._last_time = start

    def rates(self, stats: Dict[str, Dict[str, int]]) -> Dict[str, float]:
        """exec/s of each target since the last call, from its stats now."""
        now = time.time()
        dt = max(1e-6, now - self._last_time)
        out = {}
        for target, st in stats.items():
            out[target] = (st['execs'] - self._last.get(target, 0)) / dt
            self._last[target] = st['execs']
        self._last_time = now
        return out

    def line(self) -> str:
        stats = {r.target: r.stats() for r in self.runs}  # reads every worker's log once
        return status_line(time.time() - self.start_time, self.total, self.phase(), self.runs,
                           stats, self.rates(stats), self.findings, self.claims_before,
                           self.triage, self.bucket_ids(), self.start_time)

    def run(self) -> None:
        while not self._stopped.wait(self.every):
            try:
                self.log(self.line())
            except (OSError, RuntimeError) as e:  # a file mid-write; try next time
                self.log(f'status: {e}')

    def stop(self) -> None:
        self._stopped.set()


def triage_reserve(total: float, reserve: Optional[float], reduce_timeout: float) -> float:
    """Seconds at the end of --time for triage alone (fuzzers stopped): given,
    or a quarter of the run, at most one reduction's time."""
    if reserve is not None:
        return max(0.0, min(reserve, total))
    return min(total / 4, reduce_timeout)
