#!/usr/bin/env python3
"""One point of bench/optimal_models.sh or optimal_small.sh: the last line
of `dtrcheck optimal --json` (in OUT/NAME-R.json.part) with its wall time
and command, written to OUT/NAME-R.json; the .part and an empty .err go.

    optimal_record.py TRACE NAME RATIO START END OUT DTRCHECK COMMAND

The record keeps `DTRCHECK --version` (its commit) beside the command.
"""
import json
import os
import subprocess
import sys


def main() -> None:
    _, name, ratio, start, end, out, exe, command = sys.argv[1:]
    part = os.path.join(out, f'{name}-{ratio}.json.part')
    err = os.path.join(out, f'{name}-{ratio}.err')
    lines = open(part).read().strip().splitlines()
    if not lines:
        sys.exit(f'{name} at {ratio}: no output (see {err})')
    j = json.loads(lines[-1])
    j['wall_seconds'] = round(float(end) - float(start), 1)
    j['command'] = command
    j['dtrcheck'] = subprocess.run([exe, '--version'], capture_output=True,
                                   text=True).stdout.strip()
    with open(os.path.join(out, f'{name}-{ratio}.json'), 'w') as f:
        json.dump(j, f, indent=1, sort_keys=True)
    os.remove(part)
    if os.path.exists(err) and os.path.getsize(err) == 0:
        os.remove(err)


if __name__ == '__main__':
    main()
