#!/usr/bin/env python3
"""One point of bench/optimal_models.sh or optimal_small.sh: runs

    DTRCHECK optimal TRACE --ratio RATIO --time-limit LIMIT --warm-start all --json

and writes its JSON object to OUT/NAME-RATIO.json with the wall time, the
command and `DTRCHECK --version` (its commit); stderr, if any, goes to
OUT/NAME-RATIO.err. A point that printed nothing is an error, and no
record is written, so the next run retries it.

    optimal_point.py DTRCHECK LIMIT OUT TRACE NAME RATIO
"""
import json
import os
import subprocess
import sys
import time


def main() -> None:
    exe, limit, out, trace, name, ratio = sys.argv[1:]
    command = [exe, 'optimal', trace, '--ratio', ratio, '--time-limit', limit, '--warm-start',
               'all', '--json']
    start = time.monotonic()
    p = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    err = os.path.join(out, f'{name}-{ratio}.err')
    if p.stderr:
        with open(err, 'w') as f:
            f.write(p.stderr)
    elif os.path.exists(err):
        os.remove(err)
    lines = p.stdout.strip().splitlines()
    if not lines:
        sys.exit(f'{name} at {ratio}: no output (exit {p.returncode}; see {err})')
    j = json.loads(lines[-1])
    j['wall_seconds'] = round(wall, 1)
    j['command'] = ' '.join(command)
    j['dtrcheck'] = subprocess.run([exe, '--version'], capture_output=True,
                                   text=True).stdout.strip()
    with open(os.path.join(out, f'{name}-{ratio}.json'), 'w') as f:
        json.dump(j, f, indent=1, sort_keys=True)
    print(f'{name} {ratio} done', file=sys.stderr)


if __name__ == '__main__':
    main()
