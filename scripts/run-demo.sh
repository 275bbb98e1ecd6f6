#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's main job: profile the bundled demo workload with call graphs
# (`pmuscope record -g`), print its report, and write its flame graph and
# HTML report next to the recording.
set -eu
build=${1:-build}
data=$build/demo.data
flame=$build/demo-flame.html
page=$build/demo-report.html
echo "+ $build/pmuscope record -g -o $data -- $build/demo/pms-demo"
"$build/pmuscope" record -g -o "$data" -- "$build/demo/pms-demo"
echo "+ $build/pmuscope report -i $data --percent-limit 2"
"$build/pmuscope" report -i "$data" --percent-limit 2
echo
echo "+ $build/pmuscope flamegraph -i $data -o $flame"
"$build/pmuscope" flamegraph -i "$data" -o "$flame"
echo "+ $build/pmuscope report -i $data --html $page"
"$build/pmuscope" report -i "$data" --html "$page"
echo
echo "The recording is $data; perf reads it too (perf report -i $data)."
echo "Flame graph:  $(cd "$(dirname "$flame")" && pwd)/$(basename "$flame")"
echo "HTML report:  $(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
echo "              (open them in a browser; each is one self-contained file)"
echo "More views: $build/pmuscope report -i $data --no-children --sort dso,sym"
echo "            $build/pmuscope script -i $data"
echo "            $build/pmuscope diff OLD.data $data   (what changed between two recordings)"
