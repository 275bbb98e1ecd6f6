#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's main job: count the bundled demo workload with `pmuscope stat`.
set -eu
build=${1:-build}
echo "+ $build/pmuscope stat -- $build/demo/pms-demo"
exec "$build/pmuscope" stat -- "$build/demo/pms-demo"
