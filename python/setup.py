"""Packages the CMake-built extension with the Python files (pyproject.toml).

The extension is not compiled here: it is the one `cmake --build` made in
$DTRCHECK_BUILD_DIR (default: ../build beside this folder), whose Python
must be the one running pip (the same version: the extension's ABI tag).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get('DTRCHECK_BUILD_DIR', os.path.join(HERE, '..', 'build'))


def extension() -> str:
    import sysconfig
    suffix = sysconfig.get_config_var('EXT_SUFFIX')
    path = os.path.join(BUILD, 'python', 'dtrcheck', '_dtrcheck' + suffix)
    if not os.path.exists(path):
        found = glob.glob(os.path.join(BUILD, 'python', 'dtrcheck', '_dtrcheck*'))
        sys.exit(f'dtrcheck: no {path}; build it first (cmake --build {BUILD} --target '
                 f'_dtrcheck) for this Python ({sys.version.split()[0]}), or set '
                 f'DTRCHECK_BUILD_DIR' + (f'; found {found}' if found else ''))
    return path


def version() -> str:
    with open(os.path.join(HERE, '..', 'CMakeLists.txt'), encoding='utf-8') as f:
        m = re.search(r'project\(dtrcheck VERSION ([0-9.]+)', f.read())
    assert m, 'no project version in CMakeLists.txt'
    return m.group(1)


class BuildPy(build_py):
    """build_py, plus the CMake-built extension."""

    def run(self) -> None:
        super().run()
        target = os.path.join(self.build_lib, 'dtrcheck')
        os.makedirs(target, exist_ok=True)
        shutil.copy2(extension(), target)


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # a platform wheel: it holds the extension
        return True


setup(
    version=version(),
    packages=['dtrcheck', 'dtrcheck.examples'],
    package_data={'dtrcheck': ['py.typed', '*.pyi']},
    cmdclass={'build_py': BuildPy},
    distclass=BinaryDistribution,
)
