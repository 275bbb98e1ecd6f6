# script's memory fields, as perf 6.1 prints them for PERF_TYPE_RAW events (the .out is perf script's
# text, byte for byte): addr, data_src decoded by perf's tables and padded to the longest so far (cut at
# 99 bytes), weight and ins_lat from WEIGHT_STRUCT, phys_addr, data and code page sizes; then the one
# real-world file of the corpus with them (MEM_TRANS_RETIRED.LOAD_LATENCY, perf's output too)
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed (writes the fixture)"; exit 0; }
mkdir proc home
export PMS_PROCFS_ROOT=$PWD/proc HOME=$PWD/home PMS_BUILDID_DIR=$PWD/home/.debug
python3 "$TOP/tests/cli/cases/script_mem_fixture.py" perf.data || exit 1
"$PMUSCOPE" script; echo "exit=$?"
echo "-- -F event,data_src,weight,ins_lat"
"$PMUSCOPE" script -F event,data_src,weight,ins_lat | head -n 3; echo "exit=$?"
echo "-- -F -addr,-data_src,-phys_addr"
"$PMUSCOPE" script -F -addr,-data_src,-phys_addr | head -n 2; echo "exit=$?"
echo "-- perf.data.weight_struct"
"$PMUSCOPE" script -i "$FIXTURES/perfdata/quipper/perf.data.weight_struct"; echo "exit=$?"
