#!/bin/bash -eu
# ClusterFuzzLite entry point: the project's own fuzz/build.sh.
bash "$SRC/dtrcheck/fuzz/build.sh"
