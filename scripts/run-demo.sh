#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's main job: profile the bundled demo workload with call graphs
# (`pmuscope record -g`) and print its report.
set -eu
build=${1:-build}
data=$build/demo.data
echo "+ $build/pmuscope record -g -o $data -- $build/demo/pms-demo"
"$build/pmuscope" record -g -o "$data" -- "$build/demo/pms-demo"
echo "+ $build/pmuscope report -i $data --percent-limit 2"
"$build/pmuscope" report -i "$data" --percent-limit 2
echo
echo "The recording is $data; perf reads it too (perf report -i $data)."
echo "More views: $build/pmuscope report -i $data --no-children --sort dso,sym"
echo "            $build/pmuscope script -i $data"
