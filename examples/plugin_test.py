#!/usr/bin/env python3
"""The example plugin, as a user builds it: install this dtrcheck to a
temporary prefix, build examples/plugin against it with find_package, then

* PublicDTR (DTR's score through the public API only) gives records identical
  to the built-in DTR's, apart from the heuristic's name, on ResNet-32 and
  U-Net at 20 ratios, with and without an overhead limit;
* a plugin heuristic is accepted by sweep, scan, diagnose and reduce (whose
  manifest says it was confirmed by replay, not by simrd), and through
  DTRCHECK_PLUGINS as through --plugin;
* fuzz/campaign --plugin triages a pathology_fuzzer claim decoded among the
  plugin's pairs: reduced, archived outside corpus/, confirmed by replay, and
  replayed by check-finding; a findings directory keeps its plugins;
* broken plugins get one clear error and exit 2: a missing file, a library
  without the entry points, another ABI version, a built-in's name, a score
  that throws (named in the message)."""
import argparse
import base64
import glob
import json
import os
import subprocess
import sys
import tempfile
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
RATIOS = ['--from', '0.05', '--to', '1.0', '--step', '0.05']  # 20 budgets
FAILED: List[str] = []


def run(cmd: List[str], expect: int = 0) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode != expect:
        FAILED.append(f'{" ".join(cmd)}: exit {p.returncode} (expected {expect}): '
                      f'{p.stderr[-2000:]}')
    return p


def check(ok: bool, what: str) -> None:
    if not ok:
        FAILED.append(what)


def build_plugin(args: argparse.Namespace, tmp: str) -> str:
    prefix = os.path.join(tmp, 'prefix')
    run(['cmake', '--install', args.build_dir, '--prefix', prefix])
    build = os.path.join(tmp, 'plugin-build')
    run(['cmake', '-S', os.path.join(HERE, 'plugin'), '-B', build, '-G', args.generator,
         f'-DCMAKE_PREFIX_PATH={prefix}', '-DEXAMPLE_BAD_PLUGINS=ON',
         '-DCMAKE_BUILD_TYPE=Release'])
    run(['cmake', '--build', build])
    if FAILED:
        print('\n'.join(FAILED))
        sys.exit(1)
    return build


def trace_path(name: str) -> str:
    """The public trace NAME (e.g. resnet32) in DTRCHECK_TRACES."""
    found = glob.glob(os.path.join(os.environ['DTRCHECK_TRACES'], name + '-*.log'))
    return found[0] if found else name


def records(dtrcheck: str, plugin: str, trace: str, heuristic: str,
            limit: List[str]) -> List[Dict]:
    p = run([dtrcheck, 'sweep', trace, '--plugin', plugin, '--heuristic', heuristic,
             '--format', 'jsonl', '-j', '2'] + RATIOS + limit)
    out = []
    for line in p.stdout.splitlines():
        r = json.loads(line)
        r.pop('heuristic', None)
        r.pop('sweep_check', None)  # a digest of the record, heuristic included
        out.append(r)
    return out


# A pathology_fuzzer input that, with the example plugin loaded and
# DTRCHECK_FUZZ_HEURISTICS=DTRStableTie,DTRLockAware, decodes to a 34-operator
# tree trace on RuntimeV2Optimized/DTRLockAware with an inversion (ok at
# ratio 0.895, thrashed at 0.945). Found by decoding random inputs with
# `dtrcheck fuzz-decode --json` under that environment; its claim id is the
# finding's SignatureId, which the decoder prints.
PLUGIN_CLAIM = ('241ae0db0fb775f0', '9FmCakAVzAWYAcOuMYNS')


def campaign(dtr: str, plugin: str, tmp: str) -> None:
    campaign_py = os.path.join(HERE, '..', 'fuzz', 'campaign')
    findings = os.path.join(tmp, 'findings')
    cid, data = PLUGIN_CLAIM
    os.makedirs(os.path.join(findings, 'claims'))
    with open(os.path.join(findings, 'claims', cid), 'wb') as f:
        f.write(base64.b64decode(data))
    heuristics = ['--heuristics', 'DTRStableTie,DTRLockAware']
    env = dict(os.environ, DTRCHECK_PLUGINS=plugin, DTRCHECK_FUZZ_HEURISTICS=heuristics[1])
    p = subprocess.run([dtr, 'fuzz-decode', os.path.join(findings, 'claims', cid), '--json'],
                       capture_output=True, text=True, env=env)
    decoded = json.loads(p.stdout) if p.returncode == 0 else {}
    check(decoded.get('case', {}).get('config', {}).get('heuristic') == 'DTRLockAware',
          f'fuzz-decode under DTRCHECK_PLUGINS: {p.stderr or decoded.get("case")}')
    run([sys.executable, campaign_py, 'triage', '--plugin', plugin, '--findings', findings,
         '--dtrcheck', dtr, '--reduce-timeout', '120'] + heuristics)
    entry = os.path.join(findings, 'archive', 'inversion', cid)
    manifest_path = os.path.join(entry, 'manifest.json')
    m = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
    check(m.get('config', {}).get('heuristic') == 'DTRLockAware', f'campaign archive: {m}')
    check(m.get('simrd_status', '').startswith('confirmed by replay in dtrcheck'),
          f'campaign manifest: {m.get("simrd_status")!r}')
    check(m.get('operators', {}).get('after', 99) < 34, f'not reduced: {m.get("operators")}')
    p = run([dtr, 'check-finding', entry, '--plugin', plugin])
    check('holds' in p.stdout, f'check-finding on the plugin finding: {p.stdout!r}')
    # Other heuristics would decode the same claims to other pairs.
    p = run([sys.executable, campaign_py, 'triage', '--plugin', plugin, '--findings', findings,
             '--dtrcheck', dtr], expect=1)
    check('use another --findings' in p.stderr, f'mixed findings directory: {p.stderr!r}')


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--build-dir', required=True)
    ap.add_argument('--dtrcheck', required=True)
    ap.add_argument('--generator', default='Ninja')
    args = ap.parse_args()
    if not os.environ.get('DTRCHECK_TRACES'):
        print('no public traces (DTRCHECK_TRACES): skipped')
        return 77
    dtr = args.dtrcheck
    with tempfile.TemporaryDirectory() as tmp:
        build = build_plugin(args, tmp)
        resnet = trace_path('resnet32')
        plugin = os.path.join(build, 'libexample_policies.so')

        for trace in [trace_path('resnet32'), trace_path('unet')]:
            limits: List[List[str]] = [[], ['--overhead-limit', '2']]
            for limit in limits:
                ours = records(dtr, plugin, trace, 'PublicDTR', limit)
                builtin = records(dtr, plugin, trace, 'DTR', limit)
                check(len(ours) == 20 and ours == builtin,
                      f'PublicDTR != DTR on {trace} {limit}: {len(ours)} records')

        # Every command that takes a heuristic takes a plugin's.
        run([dtr, 'run', resnet, '--plugin', plugin, '--heuristic', 'DTRLockAware',
             '--ratio', '0.5', '--json'])
        p = run([dtr, 'scan', resnet, '--plugin', plugin, '--heuristic', 'DTRStableTie',
                 '--from', '0.1', '--to', '0.3', '--step', '0.05', '--json'])
        check('DTRStableTie' in p.stdout, 'scan does not name the plugin heuristic')
        run([dtr, 'diagnose', resnet, '--plugin', plugin, '--heuristic', 'PublicDTR',
             '--ratio', '0.1'])
        run([dtr, 'compare', resnet, '--plugin', plugin, '--heuristic', 'DTRStableTie',
             '--at', '0.3', '0.35'])
        # PublicDTR is DTR: an archived DTR cliff is one of PublicDTR's too.
        finding = os.path.join(HERE, '..', 'tests', 'data', 'archive', 'cliff', '6b5134e813fbac0a',
                               'trace.log')
        reduced = os.path.join(tmp, 'reduced.log')
        run([dtr, 'reduce', finding, '--plugin', plugin, '--heuristic', 'PublicDTR',
             '--property', 'cliff', '--lo', '0.894', '--hi', '0.899', '--cliff-factor', '2',
             '-o', reduced])
        manifest_path = os.path.join(tmp, 'reduced.manifest.json')
        manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
        check(manifest.get('simrd_status', '').startswith('confirmed by replay in dtrcheck'),
              f'reduce manifest: {manifest.get("simrd_status")!r}')
        check('--plugin' in manifest.get('commands', {}).get('reduce', ''),
              'the reduce command in the manifest lacks --plugin')

        campaign(dtr, plugin, tmp)

        # Broken plugins.
        def refused(extra: List[str], needle: str) -> None:
            p = run([dtr, 'run', resnet, '--ratio', '0.5'] + extra, expect=2)
            check(needle in p.stderr and 'internal error' not in p.stderr,
                  f'{extra}: stderr {p.stderr!r} lacks {needle!r}')
        refused(['--plugin', os.path.join(tmp, 'missing.so')], 'no such file')
        refused(['--plugin', os.path.join(build, 'libbad_no_entry.so')], 'not a dtrcheck plugin')
        refused(['--plugin', os.path.join(build, 'libbad_abi_mismatch.so')], 'ABI version')
        refused(['--plugin', os.path.join(build, 'libbad_name_clash.so')],
                'clashes with a built-in')
        refused(['--plugin', plugin, '--heuristic', 'ThrowingScore'],
                'heuristic ThrowingScore: Score threw: this score always fails')
        p = run([dtr, 'sweep', resnet, '--plugin', plugin, '--heuristic', 'ThrowingScore',
                 '--from', '0.1', '--to', '0.5', '--step', '0.1', '-j', '2'], expect=2)
        check('ThrowingScore' in p.stderr, f'sweep: {p.stderr!r}')
        refused(['--plugin', plugin, '--heuristic', 'NoSuchPolicy'], 'PublicDTR')
    for f in FAILED:
        print('FAIL', f)
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
