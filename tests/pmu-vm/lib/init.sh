#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# Guest /init of the arm64 PMU rig: mounts the pseudo filesystems, runs every /checks/NN_*.sh
# in order (each prints "PMSCHECK pass|fail|skip <name> <detail>" lines), closes with
# "PMSCHECK done" and powers off. The host (run.sh) turns these lines into test results.
# The cpio holds no device nodes (built without root), so the kernel found no /dev/console for
# us: mount devtmpfs and attach to the console first.
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin:/wl
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
# The workloads' host path (see run.sh) is hidden by that tmpfs when the tree lives under /tmp
# (a CI clone there): copy the workloads back to it so guest perf.data files still name it.
hostwl=$(cat /lib/pmu-vm/hostwl 2>/dev/null)
case $hostwl in
/tmp/*) mkdir -p "$hostwl" && cp -p /wl/* "$hostwl/" ;;
esac
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
# No address-space randomisation: glibc's start-up cost depends a little on where the stack
# and mappings land (alignment-dependent string routines), and the random state depends on what
# earlier programs did, so with ASLR two otherwise identical runs can differ by a few instructions.
echo 0 >/proc/sys/kernel/randomize_va_space
# Keep kernel messages off the console so they cannot split a result line.
echo 1 >/proc/sys/kernel/printk
echo "PMSBOOT uptime=$(cut -d' ' -f1 /proc/uptime)"
echo "PMSINFO $(dmesg | grep -m1 'hw perfevents' | sed 's/^\[[^]]*\] //')"
export PMUSCOPE=/bin/pmuscope WL=/wl CHECK_TIMEOUT=${CHECK_TIMEOUT:-30}
for f in /checks/[0-9]*.sh; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .sh)
	echo "PMSRUN $name"
	out=/tmp/check.out
	# A fresh scratch dir per check, always with the same name: the environment (PWD included)
	# must be the same for every check, since process start-up costs depend on its size.
	cd / && rm -rf /tmp/w && mkdir /tmp/w && cd /tmp/w || exit 1
	# A check that hangs must not eat the whole budget; a check that reports nothing fails.
	timeout "$CHECK_TIMEOUT" sh -c ". /lib/pmu-vm/guest.sh; . $f" >"$out" 2>&1
	rc=$?
	# Results first (intact lines), the check's other output after as context.
	grep '^PMSCHECK ' "$out"
	grep -v '^PMSCHECK ' "$out" | sed "s|^|  $name: |" | tail -n 40
	case $rc in
	124 | 137 | 143) echo "PMSCHECK fail $name timed out after ${CHECK_TIMEOUT}s (exit $rc)" ;;
	*) grep -q '^PMSCHECK ' "$out" || echo "PMSCHECK fail $name check reported nothing (exit $rc)" ;;
	esac
done
echo "PMSCHECK done"
sync
poweroff -f
