#!/usr/bin/env python3
"""What `dtrcheck diagnose --json` reports, computed by simrd itself.

Runs simrd (loaded by oracle/simrd_client.py, unmodified simrd) on one
configuration with a runtime subclass that watches _lock/_unlock (the
locked total), _T_pending (the last materialization to start) and _free
(the failing allocation: the tensor of the innermost _materialize frame and
its request t.op.total_size). Prints one JSON object with the fields of
DiagnosisToJson that it can observe.

    PYTHONPATH=. python3 tests/sweep/simrd_diagnose.py TRACE --ratio R [--overhead-limit X]
        [--runtime NAME] [--heuristic NAME]

Exits 3 (as the oracle does) when simrd is not installed.
"""
import argparse
import json
import math
import sys
import threading
from types import ModuleType
from typing import Any, Dict, List

from oracle import simrd_client


def diagnose(simrd: ModuleType, a: argparse.Namespace) -> Dict[str, Any]:
    sp, srt, sh = simrd.parse, simrd.runtime, simrd.heuristic
    with open(a.trace) as f:
        g = sp.parse_file(f)
    closure = g.get_closure()
    base = srt.RuntimeV2EagerOptimized(math.inf, sh.Heuristic(), stats=False, trace=False)
    closure(base)
    peak, compute = base.telemetry.summary['max_memory'], base.telemetry.summary['model_compute']
    rt_cls = srt.RUNTIMES[a.runtime] if hasattr(srt, 'RUNTIMES') else getattr(srt, a.runtime)
    h_cls = getattr(sh, a.heuristic)
    out: Dict[str, Any] = {'oom': None}

    class Watched(rt_cls):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kw: Any) -> None:
            self.locked, self.max_locked, self.max_locked_clock = 0, 0, 0
            self.ever_locked: List[Any] = []
            self.last_started: Any = None
            super().__init__(*args, **kw)

        def _lock(self, s: Any) -> None:
            fresh = s.ref_int == 0
            super()._lock(s)
            if fresh:
                self.ever_locked.append(s)
                self.locked += s.size
                if self.locked > self.max_locked:
                    self.max_locked, self.max_locked_clock = self.locked, self.clock

        def _unlock(self, s: Any) -> None:
            super()._unlock(s)
            if s.ref_int == 0:
                self.locked -= s.size

        def _T_pending(self, t: Any) -> None:
            self.last_started = t
            super()._T_pending(t)

        def _free(self, size: int) -> None:
            try:
                super()._free(size)
            except MemoryError:
                chain = []
                fr: Any = sys._getframe(1)
                while fr is not None:
                    if fr.f_code.co_name == '_materialize':
                        chain.append(fr.f_locals['t'])
                    fr = fr.f_back
                chain.reverse()
                t = chain[-1]
                locked = {id(s): s for s in self.ever_locked if s.material and s.ref_int > 0}
                out['oom'] = {
                    'tensor': t.id, 'tensor_name': t.name, 'request': size,
                    'last_started': self.last_started.id,
                    'last_started_name': self.last_started.name,
                    'resident': self.memory_usage,
                    'pool_bytes': sum(s.size for s in self.storage_pool),
                    'pool_count': len(self.storage_pool),
                    'locked_bytes': self.locked, 'locked_storages': len(locked),
                    'depth': len(chain) - 1,
                    'chain': [{'id': c.id, 'name': c.name} for c in chain],
                }
                raise

    kw: Dict[str, Any] = {'stats': False, 'trace': False}
    if a.overhead_limit is not None:
        kw['remat_limit'] = compute * (a.overhead_limit - 1)
    rt = Watched(int(peak * a.ratio), h_cls(), **kw)
    try:
        closure(rt)
        out['status'] = 'ok'
    except MemoryError:
        out['status'] = 'oom'
    except srt.RematExceededError:
        out['status'] = 'thrashed'
    out['max_locked_bytes'] = rt.max_locked
    out['max_locked_clock'] = rt.max_locked_clock
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--ratio', type=float, required=True)
    ap.add_argument('--overhead-limit', type=float)
    ap.add_argument('--runtime', default='RuntimeV2EagerOptimized')
    ap.add_argument('--heuristic', default='DTR')
    a = ap.parse_args()
    # Here, not in the thread: it exits 3 without simrd. (It imports the Ab*
    # heuristics too.)
    simrd = simrd_client.load_simrd()
    sys.setrecursionlimit(1000000)  # simrd recurses once per rematerialization level
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=lambda: print(json.dumps(diagnose(simrd, a))))
    t.start()
    t.join()


if __name__ == '__main__':
    main()
