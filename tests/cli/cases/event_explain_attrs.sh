# The attrs the parser builds on each fixture PMU tree, as `explain` prints them (perf's -vv layout);
# only the event line and the perf_event_attr block are kept, the rest is explain's own text.
export PMS_TRACEFS_ROOT=$FIXTURES/tracefs/default
show() { # show FIXTURE EVENTS
	echo "== $1: $2"
	out=$(PMS_SYSFS_ROOT=$FIXTURES/sysfs/$1 "$PMUSCOPE" explain --no-probe --vendor intel "$2" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed -n 's/^\(event: [^ ]*\).*/\1/p; /^perf_event_attr:/,/^decoded:/{/^decoded:/d;p}'
	echo "exit=$rc"
}
show vm 'cpu-clock:uk,{task-clock,cs}:S,msr/tsc,period=1000/u'
show vm 'sched:sched_process_*'
show vm 'L1-dcache-load-misses:k,r1a8:pp,mem:0x1000/8:w'
show intel 'cpu/event=0x3c,umask=0x1,edge,inv,cmask=2,any,pc/'
show intel 'cpu/mem-loads,ldlat=30/pp,cycles-ct'
show intel 'uncore_imc_0/cas_count_read/,clockticks'
show amd 'cpu/event=0x1c0,umask=0x2/,amd_df/event=0x3fff/,ibs_op/cnt_ctl/'
show arm64 'inst_retired:u,armv8_pmuv3_0/event=0x11,long/,arm_spe_0/ts_enable=1,min_latency=20/'
show hybrid 'cycles:u,cpu_atom/L1-dcache-loads/'
