"""Finds a Python interpreter that can import torch (and torchvision), without importing it.

Debian's python3-torch and python3-torchvision belong to Debian's own interpreter,
/usr/bin/python3, which need not be the first python3 on PATH (a pyenv one may be).
"""

import os
import shutil
import subprocess
import sys
from typing import List, Optional

INSTALL_HINT = ('capture needs PyTorch 1.13 and torchvision 0.14: on Debian, '
                '`apt-get install -y python3-torch python3-torchvision` (they belong to '
                '/usr/bin/python3), or set DTRCHECK_TORCH_PYTHON to an interpreter that can '
                '`import torch, torchvision`')


def candidates() -> List[str]:
    """$DTRCHECK_TORCH_PYTHON alone when set; else /usr/bin/python3, then python3 on PATH."""
    chosen = os.environ.get('DTRCHECK_TORCH_PYTHON')
    if chosen:
        return [chosen]
    out: List[str] = []
    for c in ['/usr/bin/python3', shutil.which('python3') or '']:
        if c and os.path.exists(c) and os.path.realpath(c) not in [os.path.realpath(o)
                                                                   for o in out]:
            out.append(c)
    return out


def can_import_torch(python: str) -> bool:
    try:
        proc = subprocess.run([python, '-c', 'import torch, torchvision'],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def find_torch_python() -> Optional[str]:
    for c in candidates():
        if os.path.realpath(c) == os.path.realpath(sys.executable):
            continue  # the running interpreter already failed to import torch
        if can_import_torch(c):
            return c
    return None
