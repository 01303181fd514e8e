#!/usr/bin/env bash
# Installs the Debian packages dtrcheck needs, skipping those already present.
set -euo pipefail
packages=(build-essential cmake ninja-build python3 python3-attr libgtest-dev googletest
          librapidcheck-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev libboost-dev libssl-dev
          zlib1g-dev pkg-config coinor-libcbc-dev)
# The style checks in ctest (label style): ci/format.sh, ci/python_lint.sh.
packages+=(clang-format flake8 python3-flake8-quotes python3-mypy)
# The Python package (python/): pybind11 and the headers of Debian's python3; its tests
# (pytest), the example's plot (matplotlib), `pip install ./python` offline (setuptools, wheel).
packages+=(pybind11-dev python3-pybind11 python3-dev python3-pytest python3-matplotlib
           python3-setuptools python3-wheel)
# ctest cli_run_exit_memory_reachable (cli/CMakeLists.txt).
packages+=(valgrind)
if [ "${DTRCHECK_FUZZ:-0}" = 1 ]; then packages+=(clang libclang-rt-14-dev); fi
# The capture tool (capture/): PyTorch for Debian's /usr/bin/python3 (about a minute), and
# OpenBLAS, without which Debian's torch multiplies matrices with the reference BLAS
# (capturing ViT-B/16 takes 100 s instead of 15 s).
if [ "${DTRCHECK_TORCH:-0}" = 1 ]; then
  packages+=(python3-torch python3-torchvision libopenblas0-pthread)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
# python3 may come from elsewhere (pyenv); what the oracle needs is attrs.
if command -v python3 >/dev/null && python3 -c 'import attr' 2>/dev/null; then
  missing=("${missing[@]/python3-attr}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  echo "dtrcheck: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
