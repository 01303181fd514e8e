#!/usr/bin/env python3
"""dtrcheck oracle: run the real simrd (uwsampl/dtr-prototype @ eff53cc4) on a
trace and print one JSON record per simulation.

simrd is used unmodified; it is only hooked by subclassing the runtime (to
record evictions).  See oracle/README.md for the record format.

    simrd_oracle.py run TRACE (--budget BYTES | --ratio R) [options]
    simrd_oracle.py batch TRACE [--configs FILE] [parse options] < configs.jsonl
    simrd_oracle.py serve < requests.jsonl   (each request carries its trace)

Exit codes: 0 ok (also for status oom/thrashed/error), 1 trace parse or
baseline failure, 2 usage error / unknown name / runtime-heuristic pair refused
by simrd, 3 simrd or attrs not available.
"""

import argparse
import hashlib
import io
import json
import math
import os
import random
import signal
import sys
import threading
import time
from types import ModuleType
from typing import IO, Any, Callable, NoReturn, Optional, TypeVar

Config = dict[str, Any]  # a configuration, as normalize_config returns it
Record = dict[str, Any]  # one JSON record
T = TypeVar('T')

ORACLE_ID = 'simrd@eff53cc4'
SIMRD_COMMIT = 'eff53cc4804cc7d6246a6e5086861ce2b846f62b'

DEFAULT_RUNTIME = 'RuntimeV2EagerOptimized'
DEFAULT_HEURISTIC = 'DTR'
DEFAULT_BASELINE_RUNTIME = 'RuntimeV2EagerOptimized'
DEFAULT_SEED = 0

RECURSION_LIMIT = 1000000
# simrd's _materialize recurses once per level of a rematerialization chain.
STACK_BYTES = int(os.environ.get('DTRCHECK_ORACLE_STACK_MB', '512')) * 1024 * 1024

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_REFUSED = 2
EXIT_NO_SIMRD = 3

STORAGE_STAT_COLUMNS = ('root_id', 'size', 'evict_count',
                        'direct_remat_count', 'collateral_remat_count')
CONFIG_KEYS = ('runtime', 'heuristic', 'budget', 'ratio', 'baseline_runtime',
               'overhead_limit', 'remat_limit', 'seed', 'stats', 'time',
               'eviction_log', 'costs_at')

# Records go to the real stdout; simrd prints diagnostics with print(), which
# are sent to stderr instead (sys.stdout is redirected in main()).
OUT = sys.stdout


def emit(record: Record) -> None:
    OUT.write(json.dumps(record) + '\n')
    OUT.flush()


def die(msg: str, code: int) -> NoReturn:
    sys.stderr.write('simrd_oracle: ' + msg.rstrip('\n') + '\n')
    sys.exit(code)


# --------------------------------------------------------------------------
# locating and importing simrd

def _env(name: str) -> Optional[str]:
    v = os.environ.get(name)
    return v if v else None


def simrd_dir() -> tuple[str, str]:
    d = _env('SIMRD_DIR')
    if d is not None:
        return d, 'SIMRD_DIR'
    cache = _env('SIMRD_CACHE')
    if cache is None:
        xdg = _env('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
        cache = os.path.join(xdg, 'dtrcheck')
    return os.path.join(cache, 'simrd'), 'default location'


def load_simrd() -> ModuleType:
    here = os.path.dirname(os.path.abspath(__file__))
    getter = os.path.join(here, 'get_simrd.sh')
    d, origin = simrd_dir()
    if not os.path.isfile(os.path.join(d, 'simrd', 'runtime', 'v2.py')):
        die('simrd not found at {} ({}): expected the simrd package at {}.\n'
            'Get it with `{}` (uwsampl/dtr-prototype, folder simrd/, commit {}),\n'
            'or set SIMRD_DIR to the directory that contains the `simrd` package.'
            .format(d, origin, os.path.join(d, 'simrd'), getter, SIMRD_COMMIT),
            EXIT_NO_SIMRD)
    try:
        import attr  # noqa: F401  (simrd's only third-party dependency)
    except ImportError:
        die('the Python package `attrs` (module `attr`) is required by simrd but is '
            'missing.\nInstall it: `apt-get install python3-attr` or '
            '`python3 -m pip install attrs`.', EXIT_NO_SIMRD)
    # simrd is a folder of modules, not an installed package: it is found at
    # run time (SIMRD_DIR or the cache), so its directory goes on the path here.
    sys.path.insert(0, os.path.abspath(d))
    try:
        import simrd.parse
        import simrd.runtime
        import simrd.heuristic
        import simrd.heuristic.ablation  # noqa: F401  (registers the Ab* classes)
        import simrd.telemetry
    except Exception as e:  # pragma: no cover
        die('failed to import simrd from {}: {!r}\nRe-fetch it with `{} --force`.'
            .format(d, e, getter), EXIT_NO_SIMRD)
    for name in ('simrd',):
        f = getattr(sys.modules[name], '__file__', None) or ''
        if not os.path.abspath(f).startswith(os.path.abspath(d) + os.sep):
            die('imported simrd from {} instead of {}'.format(f, d), EXIT_NO_SIMRD)
    return simrd


# --------------------------------------------------------------------------
# configuration

class ConfigError(Exception):
    pass


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def normalize_config(raw: dict[str, Any]) -> Config:
    """raw: dict with CONFIG_KEYS (None = absent). Returns a normalized dict."""
    unknown = sorted(set(raw) - set(CONFIG_KEYS))
    if unknown:
        raise ConfigError('unknown configuration key(s) {}; valid keys: {}'
                          .format(', '.join(unknown), ', '.join(CONFIG_KEYS)))
    c = {k: raw.get(k) for k in CONFIG_KEYS}
    for k, default in (('runtime', DEFAULT_RUNTIME), ('heuristic', DEFAULT_HEURISTIC),
                       ('baseline_runtime', DEFAULT_BASELINE_RUNTIME)):
        if c[k] is None:
            c[k] = default
        elif not isinstance(c[k], str):
            raise ConfigError('{} must be a string'.format(k))
    if (c['budget'] is None) == (c['ratio'] is None):
        raise ConfigError('exactly one of budget and ratio is required')
    if c['budget'] is not None and not _is_int(c['budget']):
        raise ConfigError('budget must be an integer')
    if c['ratio'] is not None:
        if not _is_num(c['ratio']):
            raise ConfigError('ratio must be a number')
        c['ratio'] = float(c['ratio'])
    if c['overhead_limit'] is not None and c['remat_limit'] is not None:
        raise ConfigError('overhead_limit and remat_limit are mutually exclusive')
    if c['overhead_limit'] is not None:
        if not _is_num(c['overhead_limit']):
            raise ConfigError('overhead_limit must be a number')
        c['overhead_limit'] = float(c['overhead_limit'])
    # An integer, or the float an overhead limit gave (as a record keeps it:
    # a record read back runs again under exactly that limit).
    if c['remat_limit'] is not None and not _is_num(c['remat_limit']):
        raise ConfigError('remat_limit must be a number')
    if c['seed'] is not None and not _is_int(c['seed']):
        raise ConfigError('seed must be an integer')
    if c['costs_at'] is not None and (not _is_int(c['costs_at']) or c['costs_at'] < 0):
        raise ConfigError('costs_at must be a non-negative integer')
    for k in ('stats', 'time', 'eviction_log'):
        if c[k] is None:
            c[k] = False
        elif not isinstance(c[k], bool):
            raise ConfigError('{} must be a boolean'.format(k))
    return c


# --------------------------------------------------------------------------
# the oracle proper

class ParseFailure(Exception):
    pass


class Oracle:
    """One trace (a file, or the bytes of one: `data`) with its parse options."""

    def __init__(self, simrd: ModuleType, trace_path: str, no_start: bool = False,
                 preallocate: bool = False, strict_release: bool = False,
                 data: Optional[bytes] = None) -> None:
        self.simrd = simrd
        self.RUNTIMES = simrd.runtime.RUNTIMES
        self.HEURISTICS = simrd.heuristic.HEURISTICS
        self.trace_path = trace_path
        self.no_start = no_start
        self.preallocate = preallocate
        self.strict_release = strict_release
        if data is None:
            with open(trace_path, 'rb') as f:
                data = f.read()
            self.data: Optional[bytes] = None
        else:
            self.data = data
        self.trace_sha256 = hashlib.sha256(data).hexdigest()
        self.callback: Optional[Callable[[Any], None]] = None
        self.parse_error: Optional[str] = None
        self._baselines: dict[str, tuple[Any, Any, Optional[str]]] = {}
        self._hooked: dict[type, type] = {}

    # -- names -------------------------------------------------------------
    def check_name(self, kind: str, name: str) -> type:
        table: dict[str, type] = self.HEURISTICS if kind == 'heuristic' else self.RUNTIMES
        if name not in table:
            raise ConfigError('unknown {} {!r}; valid {}s: {}'.format(
                kind.replace('_', ' '), name, kind.replace('_', ' '),
                ', '.join(table)))
        return table[name]

    # -- parse -------------------------------------------------------------
    def parse(self) -> None:
        sp = self.simrd.parse
        out_cond = (sp.OutputCondition.PREALLOCATE if self.preallocate
                    else sp.OutputCondition.REMATERIALIZE)
        try:
            # The bytes of a served log are read as open() reads a file: UTF-8
            # text with universal newlines.
            with (open(self.trace_path, 'r', encoding='utf-8') if self.data is None
                  else io.TextIOWrapper(io.BytesIO(self.data), encoding='utf-8')) as f:
                graph = sp.parse_file(f, start=not self.no_start, out_cond=out_cond,
                                      ignore_undefined_release=not self.strict_release)
            self.callback = graph.get_closure()
        except Exception as e:
            self.parse_error = repr(e)
            raise ParseFailure(self.parse_error)

    # -- baseline ----------------------------------------------------------
    def baseline(self, name: str) -> tuple[Any, Any, Optional[str]]:
        if name not in self._baselines:
            cls = self.RUNTIMES[name]
            try:
                rt = cls(math.inf, self.simrd.heuristic.Heuristic(), stats=False, trace=False)
                assert self.callback is not None, 'baseline before a successful parse'
                self.callback(rt)
                s = rt.telemetry.summary
                self._baselines[name] = (s['max_memory'], s['model_compute'], None)
            except Exception as e:
                self._baselines[name] = (None, None, repr(e))
        return self._baselines[name]

    # -- hooked runtime ----------------------------------------------------
    def hooked(self, cls: Any) -> type:
        if cls not in self._hooked:
            class HookedRuntime(cls):
                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    self._dtrcheck_evictions: list[tuple[Any, int]] = []
                    super().__init__(*args, **kwargs)

                def _T_evict(self, s: Any) -> None:
                    super()._T_evict(s)
                    self._dtrcheck_evictions.append((self.clock, s.root_id))

            HookedRuntime.__name__ = HookedRuntime.__qualname__ = 'Hooked' + cls.__name__
            self._hooked[cls] = HookedRuntime
        return self._hooked[cls]

    # -- records -----------------------------------------------------------
    def _prefix(self, c: Config, budget: Optional[int] = None, remat_limit: Any = None,
                seed: Optional[int] = None) -> Record:
        return {
            'runtime': c['runtime'],
            'heuristic': c['heuristic'],
            'ratio': c['ratio'],
            'budget': budget if budget is not None else c['budget'],
            'remat_limit': remat_limit if remat_limit is not None else c['remat_limit'],
            'seed': seed,
        }

    def error_record(self, msg: str, c: Optional[Config] = None, raw: Any = None,
                     prefix: Optional[Record] = None, **extra: Any) -> Record:
        rec: Record = {'error': msg}
        if c is not None:
            rec.update(prefix if prefix is not None else self._prefix(c))
        elif raw is not None:
            rec['config'] = raw
        rec.update(extra)
        rec['trace_sha256'] = self.trace_sha256
        rec['oracle'] = ORACLE_ID
        return rec

    def run_config(self, c: Config) -> tuple[Record, int]:
        """c: normalized config. Returns (record, exit_code)."""
        try:
            rt_cls = self.check_name('runtime', c['runtime'])
            h_cls = self.check_name('heuristic', c['heuristic'])
            self.check_name('baseline_runtime', c['baseline_runtime'])
        except ConfigError as e:
            return self.error_record(str(e), c), EXIT_REFUSED
        if self.callback is None:
            return self.error_record('trace parse failed', c,
                                     message=self.parse_error), EXIT_FAILED

        baseline_peak, baseline_compute, berr = self.baseline(c['baseline_runtime'])
        if berr is not None:
            return self.error_record('baseline run failed', c, message=berr,
                                     baseline_runtime=c['baseline_runtime']), EXIT_FAILED

        budget: int
        if c['ratio'] is not None:
            budget = int(baseline_peak * c['ratio'])
        else:
            budget = c['budget']
        kwargs: dict[str, Any] = {'stats': c['stats'], 'trace': False}
        remat_limit = None
        if c['overhead_limit'] is not None:
            remat_limit = baseline_compute * (c['overhead_limit'] - 1)
        elif c['remat_limit'] is not None:
            remat_limit = c['remat_limit']
        if remat_limit is not None:
            kwargs['remat_limit'] = remat_limit
        seed = c['seed']
        if seed is None and issubclass(h_cls, self.simrd.heuristic.RandomStorage):
            seed = DEFAULT_SEED
        prefix = self._prefix(c, budget, remat_limit, seed)

        heuristic = h_cls()
        costs: list[list[Any]] = []
        if c['costs_at'] is not None:
            # Record every candidate's cost in the choose() that precedes
            # eviction number costs_at (for `dtrcheck diff`).
            target = c['costs_at']

            class CostRecording(h_cls):  # type: ignore[valid-type,misc]
                def evaluate(self, s: Any, rt: Any, **kw: Any) -> Any:
                    cost = super().evaluate(s, rt, **kw)
                    if len(rt._dtrcheck_evictions) == target:
                        costs.append([s.root_id, repr(cost)])
                    return cost
            heuristic = CostRecording()
        try:
            rt = self.hooked(rt_cls)(budget, heuristic, **kwargs)
        except RuntimeError as e:  # simrd's feature check
            return self.error_record(str(e), c, prefix=prefix), EXIT_REFUSED

        if seed is not None:
            random.seed(seed)
        message = None
        t0 = time.perf_counter()
        try:
            self.callback(rt)
            status = 'ok'
        except MemoryError:
            status = 'oom'
        except self.simrd.runtime.RematExceededError:
            status = 'thrashed'
        except Exception as e:
            status = 'error'
            message = repr(e)
        seconds = time.perf_counter() - t0

        rec = dict(prefix)
        rec['status'] = status
        if message is not None:
            rec['message'] = message
        rec['clock'] = rt.clock
        s = rt.telemetry.summary
        for k in ('model_compute', 'remat_compute', 'max_memory', 'model_const_memory',
                  'bottleneck_memory', 'heuristic_eval_count', 'heuristic_access_count'):
            rec[k] = s[k]
        rec['memory_usage'] = rt.memory_usage
        ev = rt._dtrcheck_evictions
        h = hashlib.sha256()
        for clock, root_id in ev:
            h.update('{} {}\n'.format(str(clock), str(root_id)).encode('ascii'))
        rec['evictions'] = len(ev)
        rec['distinct_evicted'] = len(set(r for _, r in ev))
        rec['eviction_digest'] = h.hexdigest()
        rec['baseline_peak'] = baseline_peak
        rec['baseline_compute'] = baseline_compute
        rec['trace_sha256'] = self.trace_sha256
        rec['oracle'] = ORACLE_ID
        if c['stats']:
            cols = self.simrd.telemetry.Telemetry.STORAGE_STATS
            idx = {k: cols.index(k) for k in STORAGE_STAT_COLUMNS}
            stats = []
            for root_id in sorted(rt.telemetry.storage):
                row = rt.telemetry.storage[root_id]
                if (row[idx['evict_count']] or row[idx['direct_remat_count']]
                        or row[idx['collateral_remat_count']]):
                    stats.append({k: row[idx[k]] for k in STORAGE_STAT_COLUMNS})
            rec['storage_stats'] = stats
        if c['eviction_log']:
            rec['eviction_log'] = [[clock, root_id] for clock, root_id in ev]
        if c['costs_at'] is not None:
            rec['costs_at'] = {'index': c['costs_at'], 'costs': costs}
        if c['time']:
            rec['seconds'] = seconds
        return rec, EXIT_OK


# --------------------------------------------------------------------------
# driver

def run_in_big_thread(fn: Callable[[], T]) -> T:
    """Run fn() in a thread with a large stack (simrd recurses deeply)."""
    sys.setrecursionlimit(RECURSION_LIMIT)
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result['value'] = fn()
        except BaseException as e:  # re-raised in the calling thread
            result['exc'] = e

    old = threading.stack_size()
    size = STACK_BYTES
    while True:
        try:
            threading.stack_size(size)
            break
        except (ValueError, RuntimeError):
            if size <= 64 * 1024 * 1024:
                raise
            size //= 2
    try:
        th = threading.Thread(target=target, name='simrd', daemon=True)
        th.start()
    finally:
        threading.stack_size(old)
    th.join()
    if 'exc' in result:
        raise result['exc']
    return result['value']


def cmd_run(simrd: ModuleType, args: argparse.Namespace) -> int:
    try:
        c = normalize_config({
            'runtime': args.runtime, 'heuristic': args.heuristic,
            'budget': args.budget, 'ratio': args.ratio,
            'baseline_runtime': args.baseline_runtime,
            'overhead_limit': args.overhead_limit, 'remat_limit': args.remat_limit,
            'seed': args.seed, 'stats': args.stats, 'time': args.time,
            'eviction_log': args.eviction_log, 'costs_at': args.costs_at,
        })
    except ConfigError as e:
        die(str(e), EXIT_REFUSED)
    oracle = Oracle(simrd, args.trace, args.no_start, args.preallocate, args.strict_release)
    try:
        for kind in ('runtime', 'heuristic', 'baseline_runtime'):
            oracle.check_name(kind, c[kind])
    except ConfigError as e:
        emit(oracle.error_record(str(e), c))
        die(str(e), EXIT_REFUSED)

    def work() -> tuple[Record, int]:
        try:
            oracle.parse()
        except ParseFailure:
            pass
        return oracle.run_config(c)

    rec, code = run_in_big_thread(work)
    emit(rec)
    if 'error' in rec:
        sys.stderr.write('simrd_oracle: {}{}\n'.format(
            rec['error'], ': ' + rec['message'] if rec.get('message') else ''))
    return code


def cmd_batch(simrd: ModuleType, args: argparse.Namespace) -> int:
    oracle = Oracle(simrd, args.trace, args.no_start, args.preallocate, args.strict_release)
    src: IO[str] = open(args.configs, 'r', encoding='utf-8') if args.configs else sys.stdin

    def work() -> int:
        try:
            oracle.parse()
        except ParseFailure as e:
            sys.stderr.write('simrd_oracle: trace parse failed: {}\n'.format(e))
        for line in src:
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except ValueError as e:
                emit(oracle.error_record('invalid JSON configuration: {}'.format(e),
                                         raw=line.rstrip('\n')))
                continue
            if not isinstance(raw, dict):
                emit(oracle.error_record('configuration must be a JSON object', raw=raw))
                continue
            try:
                c = normalize_config(raw)
            except ConfigError as e:
                emit(oracle.error_record(str(e), raw=raw))
                continue
            if args.time:
                c['time'] = True
            rec, _ = oracle.run_config(c)
            emit(rec)
        return EXIT_FAILED if oracle.callback is None else EXIT_OK

    try:
        return run_in_big_thread(work)
    finally:
        if src is not sys.stdin:
            src.close()


SERVE_KEYS = ('trace', 'log', 'parse', 'config')
PARSE_KEYS = ('no_start', 'preallocate', 'strict_release')


def serve_request(simrd: ModuleType, raw: Any, cache: dict[str, Oracle]) -> Record:
    """One `serve` request: {"trace": PATH | "log": TEXT, "parse": {no_start,
    preallocate, strict_release}, "config": {...}}. The last trace (bytes and
    parse options) stays parsed, with its baselines, for the next request."""
    if not isinstance(raw, dict):
        return {'error': 'a request must be a JSON object', 'oracle': ORACLE_ID}
    unknown = sorted(set(raw) - set(SERVE_KEYS))
    if unknown or (raw.get('trace') is None) == (raw.get('log') is None):
        return {'error': 'a request has exactly one of trace and log, and parse and config '
                         '(unknown keys: {})'.format(', '.join(unknown) or 'none'),
                'request': raw, 'oracle': ORACLE_ID}
    parse = raw.get('parse') or {}
    if not isinstance(parse, dict) or set(parse) - set(PARSE_KEYS) \
            or not all(isinstance(v, bool) for v in parse.values()):
        return {'error': 'parse holds booleans {}'.format(', '.join(PARSE_KEYS)),
                'request': raw, 'oracle': ORACLE_ID}
    no_start, preallocate, strict = (bool(parse.get(k, False)) for k in PARSE_KEYS)
    if raw.get('log') is not None:
        if not isinstance(raw['log'], str):
            return {'error': 'log must be a string', 'request': raw, 'oracle': ORACLE_ID}
        path, data = '<log>', raw['log'].encode('utf-8')
    else:
        path, data = str(raw['trace']), None
        if not os.path.isfile(path):
            return {'error': 'trace not found: {}'.format(path), 'oracle': ORACLE_ID}
    digest = hashlib.sha256(data).hexdigest() if data is not None else 'file:' + path
    key = json.dumps([digest, no_start, preallocate, strict])
    oracle = cache.get(key)
    if oracle is None:
        cache.clear()
        oracle = Oracle(simrd, path, no_start, preallocate, strict, data=data)
        try:
            oracle.parse()
        except ParseFailure:
            pass
        cache[key] = oracle
    config = raw.get('config')
    if not isinstance(config, dict):
        return oracle.error_record('config must be a JSON object', raw=config)
    try:
        c = normalize_config(config)
    except ConfigError as e:
        return oracle.error_record(str(e), raw=config)
    rec, _ = oracle.run_config(c)
    return rec


def cmd_serve(simrd: ModuleType, args: argparse.Namespace) -> int:
    cache: dict[str, Oracle] = {}

    def work() -> int:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except ValueError as e:
                emit({'error': 'invalid JSON request: {}'.format(e), 'oracle': ORACLE_ID})
                continue
            emit(serve_request(simrd, raw, cache))
        return EXIT_OK

    return run_in_big_thread(work)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog='simrd_oracle.py',
        description='Run the real simrd (' + ORACLE_ID + ') on a DTR trace and print '
                    'JSON records. See oracle/README.md.')
    sub = p.add_subparsers(dest='cmd', metavar='{run,batch,serve}')
    sub.required = True

    def parse_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument('trace', metavar='TRACE', help='trace log (JSON lines)')
        sp.add_argument('--no-start', action='store_true',
                        help='parse_file(start=False): do not skip to the START annotation')
        sp.add_argument('--preallocate', action='store_true',
                        help='out_cond=OutputCondition.PREALLOCATE (default REMATERIALIZE)')
        sp.add_argument('--strict-release', action='store_true',
                        help='ignore_undefined_release=False')
        sp.add_argument('--time', action='store_true',
                        help='add "seconds" (wall time of the main run only)')

    r = sub.add_parser('run', help='run one simulation')
    parse_opts(r)
    r.add_argument('--runtime', default=DEFAULT_RUNTIME)
    r.add_argument('--heuristic', default=DEFAULT_HEURISTIC)
    g = r.add_mutually_exclusive_group(required=True)
    g.add_argument('--budget', type=int, metavar='BYTES')
    g.add_argument('--ratio', type=float, metavar='R',
                   help='budget = int(baseline_peak * R)')
    r.add_argument('--baseline-runtime', default=DEFAULT_BASELINE_RUNTIME, metavar='NAME')
    g = r.add_mutually_exclusive_group()
    g.add_argument('--overhead-limit', type=float, metavar='X',
                   help='remat_limit = baseline_compute * (X - 1)')
    g.add_argument('--remat-limit', type=int, metavar='N')
    r.add_argument('--seed', type=int, metavar='S',
                   help='random.seed(S) before the main run (default 0 for '
                        'RandomStorage/AbRandom, otherwise unseeded)')
    r.add_argument('--stats', action='store_true',
                   help='run with stats=True and add "storage_stats"')
    r.add_argument('--eviction-log', action='store_true',
                   help='add "eviction_log": [[clock, root_id], ...] for every eviction')
    r.add_argument('--costs-at', type=int, metavar='I',
                   help="add every candidate's cost in the choice of eviction number I")

    b = sub.add_parser('batch', help='run JSON-lines configurations from stdin or --configs')
    parse_opts(b)
    b.add_argument('--configs', metavar='FILE', help='read configurations from FILE')

    sub.add_parser('serve', help='JSON-lines requests from stdin, each with its own trace '
                                 '(path or log text), parse options and configuration')
    return p


def main(argv: Optional[list[str]] = None) -> int:
    global OUT
    # Fix str hashing so simrd's messages that print sets of feature names are
    # reproducible (no effect on simulation: simrd's sets hold ints or objects).
    if os.environ.get('PYTHONHASHSEED') is None and argv is None and sys.executable \
            and os.path.isfile(sys.argv[0]):
        os.environ['PYTHONHASHSEED'] = '0'
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable] + sys.argv)
    args = build_parser().parse_args(argv)
    simrd = load_simrd()
    if args.cmd == 'serve':
        OUT = sys.stdout
        sys.stdout = sys.stderr
        try:
            return cmd_serve(simrd, args)
        finally:
            sys.stdout = OUT
    if not os.path.isfile(args.trace):
        die('trace not found: {}'.format(args.trace), EXIT_FAILED)
    OUT = sys.stdout
    sys.stdout = sys.stderr
    try:
        if args.cmd == 'run':
            return cmd_run(simrd, args)
        return cmd_batch(simrd, args)
    finally:
        sys.stdout = OUT


if __name__ == '__main__':
    # Ctrl-C on a terminal reaches the whole process group: dtrcheck (diff,
    # reduce...) and this child. Die of the signal as a C program does, with
    # no KeyboardInterrupt traceback in the middle of dtrcheck's output.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main())
