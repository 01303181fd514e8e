#!/usr/bin/env python3
"""What `dtrcheck diagnose --json` reports, computed by simrd itself.

Runs simrd (via oracle/simrd_oracle.py's loader, unmodified simrd) on one
configuration with a runtime subclass that watches _lock/_unlock (the
locked total), _T_pending (the last materialization to start) and _free
(the failing allocation: the tensor of the innermost _materialize frame and
its request t.op.total_size). Prints one JSON object with the fields of
DiagnosisToJson that it can observe.

    simrd_diagnose.py TRACE --ratio R [--overhead-limit X] [--runtime NAME] [--heuristic NAME]
"""
import argparse, json, math, os, sys, threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'oracle'))
import simrd_oracle  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--ratio', type=float, required=True)
    ap.add_argument('--overhead-limit', type=float)
    ap.add_argument('--runtime', default='RuntimeV2EagerOptimized')
    ap.add_argument('--heuristic', default='DTR')
    a = ap.parse_args()
    import simrd.parse as sp, simrd.runtime as srt, simrd.heuristic as sh
    import simrd.heuristic.ablation  # noqa: F401
    with open(a.trace) as f:
        g = sp.parse_file(f)
    closure = g.get_closure()
    base = srt.RuntimeV2EagerOptimized(math.inf, sh.Heuristic(), stats=False, trace=False)
    closure(base)
    peak, compute = base.telemetry.summary['max_memory'], base.telemetry.summary['model_compute']
    rt_cls = srt.RUNTIMES[a.runtime] if hasattr(srt, 'RUNTIMES') else getattr(srt, a.runtime)
    h_cls = getattr(sh, a.heuristic)
    out = {'oom': None}

    class Watched(rt_cls):
        def __init__(self, *args, **kw):
            self.locked, self.max_locked, self.max_locked_clock = 0, 0, 0
            self.ever_locked, self.last_started = [], None
            super().__init__(*args, **kw)

        def _lock(self, s):
            fresh = s.ref_int == 0
            super()._lock(s)
            if fresh:
                self.ever_locked.append(s)
                self.locked += s.size
                if self.locked > self.max_locked:
                    self.max_locked, self.max_locked_clock = self.locked, self.clock

        def _unlock(self, s):
            super()._unlock(s)
            if s.ref_int == 0:
                self.locked -= s.size

        def _T_pending(self, t):
            self.last_started = t
            super()._T_pending(t)

        def _free(self, size):
            try:
                super()._free(size)
            except MemoryError:
                chain, fr = [], sys._getframe(1)
                while fr is not None:
                    if fr.f_code.co_name == '_materialize':
                        chain.append(fr.f_locals['t'])
                    fr = fr.f_back
                chain.reverse()
                t = chain[-1]
                locked = {id(s): s for s in self.ever_locked if s.material and s.ref_int > 0}
                out['oom'] = {
                    'tensor': t.id, 'tensor_name': t.name, 'request': size,
                    'last_started': self.last_started.id, 'last_started_name': self.last_started.name,
                    'resident': self.memory_usage,
                    'pool_bytes': sum(s.size for s in self.storage_pool),
                    'pool_count': len(self.storage_pool),
                    'locked_bytes': self.locked, 'locked_storages': len(locked),
                    'depth': len(chain) - 1,
                    'chain': [{'id': c.id, 'name': c.name} for c in chain],
                }
                raise

    kw = {'stats': False, 'trace': False}
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
    print(json.dumps(out))


if __name__ == '__main__':
    simrd_oracle.load_simrd()  # here, not in the thread: it exits 3 without simrd
    sys.setrecursionlimit(1000000)
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
