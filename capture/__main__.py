"""python3 -m capture: one PyTorch training step as a simrd log (see capture/README.md).

    python3 -m capture model NAME [--batch N] [--optimizer sgd|adam] [--time measured] -o OUT.log
    python3 -m capture module PKG.MOD:FUNC [--batch N] ... -o OUT.log   (FUNC(batch) -> Step)
    python3 -m capture zoo [--only NAME,...] [--out DIR] [--dtrcheck PATH]
    python3 -m capture list

Run from any interpreter: when this one cannot import torch, the command runs again under
one that can ($DTRCHECK_TORCH_PYTHON, /usr/bin/python3, python3 on PATH).
"""

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

from capture import interpreter
from capture import manifest as manifest_lib
from capture.errors import CaptureError, describe

EXIT_USAGE = 2
EXIT_NO_TORCH = 3


def ensure_torch() -> None:
    """Re-executes this command under an interpreter with torch, or exits with a hint."""
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get('DTRCHECK_CAPTURE_REEXEC') != '1':
        python = interpreter.find_torch_python()
        if python:
            env = dict(os.environ, DTRCHECK_CAPTURE_REEXEC='1')
            env['PYTHONPATH'] = manifest_lib.REPO + (
                os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
            sys.stdout.flush()
            os.execve(python, [python, '-m', 'capture'] + sys.argv[1:], env)
    print('dtrcheck-capture: ' + interpreter.INSTALL_HINT, file=sys.stderr)
    sys.exit(EXIT_NO_TORCH)


def summary_of(capture: Any, extra: Dict[str, object]) -> Dict[str, object]:
    s = capture.stats
    out: Dict[str, object] = dict(extra)
    out.update({
        'operators': sum(s.operators.values()),
        'distinct_operators': len(s.operators),
        'instructions': dict(sorted(capture.instructions.items())),
        'lines': sum(capture.instructions.values()),
        'fallback_operators': dict(sorted(s.fallback_operators.items())),
        'skipped_operators': dict(sorted(s.skipped_operators.items())),
        'folded_mutations': dict(sorted(s.folded_mutations.items())),
        'non_argument_aliases': s.non_argument_aliases,
        'sibling_aliases': s.sibling_aliases,
        'rebinds': s.rebinds,
        'flops': s.flops,
        'bytes_moved': s.bytes_moved,
        'torch_peak_bytes': s.torch_peak_bytes,
        'mutated_constant_bytes': s.mutated_constant_bytes,
        'largest_mutated_bytes': s.largest_mutated_bytes,
    })
    return out


def versions() -> Dict[str, Optional[str]]:
    import platform
    import torch
    import torchvision
    return {'torch': torch.__version__, 'torchvision': torchvision.__version__,
            'python3-torch': manifest_lib.debian_version('python3-torch'),
            'python3-torchvision': manifest_lib.debian_version('python3-torchvision'),
            'python': platform.python_version()}


def cost_model_info(time_mode: str, repeats: int) -> Dict[str, object]:
    from capture import cost_model
    if time_mode == 'measured':
        return {'name': 'measured', 'repeats': repeats,
                'note': 'median CPU nanoseconds of repeated runs: not reproducible'}
    return {'name': cost_model.NAME, 'reference': cost_model.REFERENCE,
            'peak_flops': cost_model.PEAK_FLOPS,
            'peak_bytes_per_s': cost_model.PEAK_BYTES_PER_S,
            'launch_ns': cost_model.LAUNCH_NS, 'view_ns': cost_model.VIEW_NS}


def optimizer_factory(name: str) -> Optional[Callable[[Any], Any]]:
    import torch
    if name == 'none':
        return None
    if name == 'sgd':
        return lambda ps: torch.optim.SGD(ps, lr=0.01, momentum=0.9)
    if name == 'adam':
        return lambda ps: torch.optim.Adam(ps, lr=1e-3)
    raise ValueError(name)


def run_capture(build: Callable[[int], Any], batch: int,
                args: argparse.Namespace) -> Tuple[Any, List[int], float]:
    import torch
    from capture.step import capture_step, seed_everything
    # Debian's torch starts with one thread; the log does not depend on the count.
    torch.set_num_threads(max(1, len(os.sched_getaffinity(0))))
    from capture.step import check_step
    seed_everything(args.seed)
    label = getattr(args, 'factory', None) or getattr(args, 'name', 'the model')
    what = '{}({})'.format(label, batch)
    try:
        built = build(batch)
    except Exception as e:  # the user's factory: any error is theirs
        raise CaptureError('{} raised {}'.format(what, describe(e))) from e
    step = check_step(built, what)
    opt = optimizer_factory(args.optimizer)
    if opt is not None:
        step.optimizer = opt
    shape = list(step.inputs[0].shape) if step.inputs else []
    started = time.perf_counter()
    capture = capture_step(step, time_mode=args.time, account=True)
    return capture, shape, time.perf_counter() - started


def check_output(path: str, option: str) -> None:
    """CaptureError unless a file can be written at `path` (checked before the capture, so
    that a long capture does not end in a traceback)."""
    if os.path.isdir(path):
        raise CaptureError('{} {}: is a directory'.format(option, path))
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise CaptureError('{} {}: no such directory {}'.format(option, path, parent))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CaptureError('{} {}: directory {} is not writable'.format(option, path, parent))


def write_file(path: str, text: str, option: str) -> None:
    """Writes `text` to a temporary beside `path`, then renames it: `path` is whole or
    untouched, and nothing else is left behind."""
    parent = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix='.' + os.path.basename(path) + '.',
                                   suffix='.tmp')
        with os.fdopen(fd, 'w') as f:
            f.write(text)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise CaptureError('{} {}: cannot write: {}'.format(
            option, path, e.strerror or describe(e))) from e
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)


def write_log(path: str, text: str) -> None:
    write_file(path, text, '-o')


def report(summary: Dict[str, object], out: TextIO) -> None:
    fallback = summary['fallback_operators']
    print('capture: {} operators, {} lines ({}), PyTorch peak {} bytes, {:.1f} s'.format(
        summary['operators'], summary['lines'],
        ', '.join('{} {}'.format(k, v) for k, v in summary['instructions'].items()),  # type: ignore
        summary['torch_peak_bytes'], summary.get('capture_seconds', 0.0)), file=out)
    if fallback:
        print('capture: costed by bytes alone (unknown to the cost model): ' +
              ', '.join('{} x{}'.format(k, v) for k, v in fallback.items()),  # type: ignore
              file=out)
    if 'baseline_peak' in summary:
        print('capture: baseline peak {} bytes, compute {}'.format(
            summary['baseline_peak'], summary['baseline_compute']), file=out)


def cmd_single(args: argparse.Namespace, build: Callable[[int], Any], default_batch: int,
               label: str) -> int:
    batch = args.batch or default_batch
    check_output(args.output, '-o')
    if args.summary:
        check_output(args.summary, '--summary')
    capture, shape, seconds = run_capture(build, batch, args)
    write_log(args.output, capture.text)
    summary = summary_of(capture, {'model': label, 'batch': batch, 'input_shape': shape,
                                   'time_mode': args.time, 'optimizer': args.optimizer,
                                   'seed': args.seed,
                                   'capture_seconds': round(seconds, 1)})
    summary['cost_model'] = cost_model_info(args.time, 5)
    summary['sha256'] = manifest_lib.sha256(capture.text.encode())
    base = manifest_lib.baseline(args.dtrcheck, args.output)
    if base:
        summary.update(base)
    report(summary, sys.stderr)
    if args.summary:
        write_file(args.summary, json.dumps(summary, indent=2) + '\n', '--summary')
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    from capture import zoo
    if args.name not in zoo.MODELS:
        print('dtrcheck-capture: unknown model "{}"; known: {}'.format(
            args.name, ', '.join(zoo.MODELS)), file=sys.stderr)
        return EXIT_USAGE
    m = zoo.MODELS[args.name]
    return cmd_single(args, m.build, m.batch, m.title)


def cmd_module(args: argparse.Namespace) -> int:
    module_name, _, func_name = args.factory.partition(':')
    if not func_name:
        print('dtrcheck-capture: expected PKG.MODULE:FUNCTION, got "{}"'.format(args.factory),
              file=sys.stderr)
        return EXIT_USAGE
    try:
        build = getattr(importlib.import_module(module_name), func_name)
    except Exception as e:  # importing runs the user's module: any error is theirs
        print('dtrcheck-capture: cannot load {}: {}'.format(args.factory, describe(e)),
              file=sys.stderr)
        return EXIT_USAGE
    if not callable(build):
        print('dtrcheck-capture: {} is not a function'.format(args.factory), file=sys.stderr)
        return EXIT_USAGE
    return cmd_single(args, build, args.batch or 1, args.factory)


def zoo_command(name: str, args: argparse.Namespace) -> str:
    cmd = 'python3 -m capture zoo --only ' + name
    if args.time != 'roofline':
        cmd += ' --time ' + args.time
    if args.optimizer != 'none':
        cmd += ' --optimizer ' + args.optimizer
    if args.seed != 0:
        cmd += ' --seed {}'.format(args.seed)
    return cmd


def cmd_zoo(args: argparse.Namespace) -> int:
    from capture import zoo
    names = [n for n in args.only.split(',') if n] if args.only else list(zoo.MODELS)
    unknown = [n for n in names if n not in zoo.MODELS]
    if unknown:
        print('dtrcheck-capture: unknown model(s) {}; known: {}'.format(
            ', '.join(unknown), ', '.join(zoo.MODELS)), file=sys.stderr)
        return EXIT_USAGE
    if not os.path.exists(args.dtrcheck):
        print('dtrcheck-capture: {} not found (build dtrcheck first, or --dtrcheck PATH): the '
              'manifest records the baseline peak and compute'.format(args.dtrcheck),
              file=sys.stderr)
        return EXIT_USAGE
    os.makedirs(args.out, exist_ok=True)
    manifest_path = os.path.join(args.out, 'manifest.json')
    manifest = manifest_lib.read_manifest(manifest_path)
    manifest['about'] = ("Training steps of today's models captured with capture/ (python3 -m "
                         'capture zoo); each log is gzip-compressed, sha256 is that of the '
                         'decompressed log. See capture/README.md.')
    for name in names:
        m = zoo.MODELS[name]
        print('capture: {} (batch {})'.format(name, m.batch), file=sys.stderr, flush=True)
        capture, shape, seconds = run_capture(m.build, m.batch, args)
        data = capture.text.encode()
        plain = os.path.join(args.out, name + '.log.tmp-plain')
        with open(plain, 'wb') as f:
            f.write(data)
        try:
            base = manifest_lib.baseline(args.dtrcheck, plain)
        finally:
            os.remove(plain)
        file_name = name + '.log.gz'
        with open(os.path.join(args.out, file_name), 'wb') as f:
            f.write(manifest_lib.gzip_bytes(data))
        entry: Dict[str, object] = {
            'name': name, 'file': file_name, 'sha256': manifest_lib.sha256(data),
            'bytes': len(data), 'has_start': True, 'model': m.title,
            'desc': m.description, 'batch': m.batch, 'input_shape': shape,
            'optimizer': args.optimizer, 'seed': args.seed, 'time_mode': args.time,
            'cost_model': cost_model_info(args.time, 5), 'versions': versions(),
        }
        entry.update(summary_of(capture, {}))
        assert base is not None
        entry.update(base)
        entry['command'] = zoo_command(name, args)
        manifest_lib.upsert(manifest, entry, list(zoo.MODELS))
        manifest_lib.write_manifest(manifest, manifest_path)
        summary = dict(entry, capture_seconds=round(seconds, 1))
        report(summary, sys.stderr)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from capture import zoo
    for m in zoo.MODELS.values():
        print('{}\tbatch {}\t{}: {}'.format(m.name, m.batch, m.title, m.description))
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog='dtrcheck-capture', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='command', required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument('--time', choices=['roofline', 'measured'], default='roofline',
                       help='TIME of each operator: the cost model (default, reproducible) '
                            'or the median of repeated CPU timings')
        p.add_argument('--optimizer', choices=['none', 'sgd', 'adam'], default='none',
                       help='an optimizer step after backward (default none)')
        p.add_argument('--seed', type=int, default=0)
        p.add_argument('--dtrcheck', default=manifest_lib.default_dtrcheck(),
                       help='dtrcheck binary for the baseline peak (default build/bin/dtrcheck)')

    p = sub.add_parser('model', help='capture one zoo model to a log')
    p.add_argument('name')
    p.add_argument('--batch', type=int)
    p.add_argument('-o', '--output', required=True)
    p.add_argument('--summary', help='write the capture summary (JSON) here')
    common(p)
    p.set_defaults(run=cmd_model)

    p = sub.add_parser('module', help='capture FUNC(batch) -> capture.step.Step of a module')
    p.add_argument('factory', metavar='PKG.MODULE:FUNCTION')
    p.add_argument('--batch', type=int)
    p.add_argument('-o', '--output', required=True)
    p.add_argument('--summary')
    common(p)
    p.set_defaults(run=cmd_module)

    p = sub.add_parser('zoo', help='capture the zoo into traces/captured/ with its manifest')
    p.add_argument('--only', default='', help='comma-separated model names')
    p.add_argument('--out', default=manifest_lib.CAPTURED_DIR)
    common(p)
    p.set_defaults(run=cmd_zoo)

    p = sub.add_parser('list', help='the zoo models')
    p.set_defaults(run=cmd_list)
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    ensure_torch()
    try:
        return args.run(args)
    except CaptureError as e:
        print('dtrcheck-capture: {}'.format(e), file=sys.stderr)
        return EXIT_USAGE


if __name__ == '__main__':
    sys.exit(main())
