#!/bin/sh
# SPDX-License-Identifier: MIT
# Real hardware-PMU tests: boots Debian's arm64 kernel under qemu-system-aarch64 (TCG, icount
# shift=0, one vCPU: the real armv8_pmuv3 driver with 6+1 counters and exact instruction counts),
# runs every tests/pmu-vm/checks/NN_*.sh inside the guest and reports each guest result line
# as a test result here, closing with "pmu-vm: N passed, N failed, N skipped".
# Usage: tests/pmu-vm/run.sh [aarch64-build-dir]   (default build-aarch64, built by `make aarch64`)
# Environment: PMU_VM_CACHE (default tests/pmu-vm/cache: .debs, apt state, kernel image),
#   PMU_VM_REFRESH=1 (ask the archive again even with cached .debs), PMU_VM_TIMEOUT (guest
#   wall-clock limit, s, default 150), PMU_VM_CHECKS (glob of check files, default [0-9]*.sh),
#   PMU_VM_EXTRA_CHECKS (a directory of more NN_*.sh guest checks and *.c workloads, for exploring);
#   PMU_VM_SOURCES (apt sources file, default the host's), PMU_VM_APPEND (more kernel command
#   line; NAME=value words reach /init's environment, e.g. CHECK_TIMEOUT=20 seconds per check);
#   PMU_VM_HOST_BUILD (host build dir whose pmuscope the host-side checks tests/pmu-vm/host/NN_*.sh
#   run on files the guest ships back, default build); the console log is kept in <build>/pmu-vm/.
# A missing tool or an unreachable archive with an empty cache is a printed SKIP with the reason.
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. tests/lib/suite.sh
suite_begin pmu-vm

build=${1:-build-aarch64}
here=$top/tests/pmu-vm
cache=${PMU_VM_CACHE:-$here/cache}
case $build in
/*) work=$build/pmu-vm ;;
*) work=$top/$build/pmu-vm ;;
esac
guest_timeout=${PMU_VM_TIMEOUT:-150}
checks_glob=${PMU_VM_CHECKS:-[0-9]*.sh}
CROSS=aarch64-linux-gnu-
WFLAGS="-Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wvla"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }
t_start=$(now_ms)

finish() {
	[ -n "${check_times:-}" ] && echo "pmu-vm: check times: $check_times"
	echo "pmu-vm: timing: total $(secs $(($(now_ms) - t_start)))s${timing:+, $timing}"
	suite_end
	exit $?
}

# --- prerequisites -----------------------------------------------------------------------------
for tool in qemu-system-aarch64 ${CROSS}gcc ${CROSS}strip cpio dpkg-deb apt-get gzip; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip "pmu-vm" "$tool not installed (scripts/install-deps.sh installs qemu-system-arm, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, cpio)"
		finish
	fi
done

# --- build pmuscope (static aarch64) and the workloads -----------------------------------------
mkdir -p "$work" "$cache"
build_ok=1
if [ "$build" = build-aarch64 ]; then
	make --no-print-directory aarch64 >"$work/build.log" 2>&1 || build_ok=0
else
	make --no-print-directory BUILD="$build" CC=${CROSS}gcc AR=${CROSS}ar LDFLAGS=-static \
		HOST_LIBS=0 "$build/pmuscope" "$build/libpmuscope.a" >"$work/build.log" 2>&1 || build_ok=0
fi
if [ $build_ok = 0 ] || [ ! -x "$build/pmuscope" ]; then
	tail -n 20 "$work/build.log"
	fail "build" "cross-compiling pmuscope for aarch64 failed (log: $work/build.log)"
	finish
fi
root=$work/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/wl" "$root/checks" "$root/lib/pmu-vm" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp"
for src in "$here"/workloads/*.c ${PMU_VM_EXTRA_CHECKS:+"$PMU_VM_EXTRA_CHECKS"/*.c}; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	# A workload may ask for more flags with a "pmu-vm-cflags: FLAGS" comment line.
	xflags=$(sed -n 's|^[/* ]*pmu-vm-cflags: *\([^*]*\).*|\1|p' "$src" | head -n 1)
	# "pmu-vm-libpmuscope": built as a program outside the tree would be, against the public
	# headers and the static aarch64 library only (no lib/ headers).
	libflags=""
	if grep -q 'pmu-vm-libpmuscope' "$src"; then
		libflags="-I$top/include $build/libpmuscope.a -lpthread -lm"
	fi
	# shellcheck disable=SC2086 # WFLAGS and xflags are word lists
	if ! ${CROSS}gcc -std=gnu11 -O2 -static $WFLAGS $xflags -I"$here/workloads" -o "$root/wl/$name" "$src" $libflags \
		>"$work/wl-$name.log" 2>&1; then
		cat "$work/wl-$name.log"
		fail "build" "workload $name did not compile"
		finish
	fi
done
${CROSS}strip -o "$root/bin/pmuscope" "$build/pmuscope"
# The workloads also under their host path (hard links: no extra space), named in
# /lib/pmu-vm/hostwl: a guest perf.data whose MMAP2 records name that path is symbolized by the
# host's report from the host's own (unstripped) copy, without --symfs.
mkdir -p "$root$root/wl"
for f in "$root"/wl/*; do
	[ -f "$f" ] && ln "$f" "$root$root/wl/"
done
echo "$root/wl" >"$root/lib/pmu-vm/hostwl"

# --- Debian arm64 kernel and busybox (cached .debs) --------------------------------------------
# A private arm64-only apt state: the host's architecture list and package state are untouched.
# Sources: the host's own Debian sources when it is Debian bookworm (its mirror/proxy), else
# bookworm on deb.debian.org verified with debian-archive-keyring (e.g. on an Ubuntu CI host).
apt_setup() {
	mkdir -p "$cache/apt/state/lists/partial" "$cache/apt/cache/archives/partial"
	src=${PMU_VM_SOURCES:-}
	if [ -z "$src" ]; then
		for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
			if [ -r "$f" ] && grep -qE '^[^#]*/debian(-security)?/?( |$)' "$f" &&
				grep -qE '^[^#]*bookworm' "$f"; then
				src=$f
				break
			fi
		done
	fi
	if [ -z "$src" ]; then
		kr=/usr/share/keyrings/debian-archive-keyring.gpg
		[ -r "$kr" ] || return 1
		src=$cache/apt/debian.sources
		cat >"$src" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: $kr

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: $kr
EOF
	fi
	: >"$cache/apt/state/status"
	cat >"$cache/apt/apt.conf" <<EOF
APT::Architecture "arm64";
APT::Architectures { "arm64"; };
APT::Sandbox::User "root";
Dir::State "$cache/apt/state";
Dir::State::status "$cache/apt/state/status";
Dir::Cache "$cache/apt/cache";
Dir::Etc::SourceList "$src";
Dir::Etc::SourceParts "/nonexistent";
EOF
}
newest() { ls "$cache"/$1 2>/dev/null | sort -V | tail -n 1; }
kdeb=$(newest 'linux-image-*-arm64_*_arm64.deb')
bdeb=$(newest 'busybox-static_*_arm64.deb')
if [ -z "$kdeb" ] || [ -z "$bdeb" ] || [ "${PMU_VM_REFRESH:-0}" = 1 ]; then
	t=$(now_ms)
	why=
	if ! apt_setup; then
		why="the host is not Debian bookworm and there is no /usr/share/keyrings/debian-archive-keyring.gpg (package debian-archive-keyring)"
	elif ! APT_CONFIG=$cache/apt/apt.conf apt-get -q update >"$work/apt.log" 2>&1; then
		why="apt-get update failed: $(grep -E '^(E|W):' "$work/apt.log" | head -n 1)"
	else
		kpkg=$(APT_CONFIG=$cache/apt/apt.conf apt-cache depends linux-image-arm64 2>>"$work/apt.log" |
			awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
		if [ -z "$kpkg" ]; then
			why="no linux-image-arm64 in the arm64 index ($(grep -E '^(E|W|Err):' "$work/apt.log" | head -n 1))"
		elif ! (cd "$cache" && APT_CONFIG=$cache/apt/apt.conf apt-get -q download "$kpkg" \
			busybox-static) >>"$work/apt.log" 2>&1; then
			why="apt-get download $kpkg busybox-static failed: $(grep -E '^(E|W):' "$work/apt.log" | head -n 1)"
		fi
	fi
	kdeb=$(newest 'linux-image-*-arm64_*_arm64.deb')
	bdeb=$(newest 'busybox-static_*_arm64.deb')
	if [ -z "$kdeb" ] || [ -z "$bdeb" ]; then
		skip "pmu-vm" "cannot download the Debian arm64 kernel/busybox packages: ${why:-unknown}"
		finish
	fi
	[ -n "$why" ] && echo "note: $why; using the cached packages"
	# Keep only the newest kernel and busybox in the cache.
	for old in "$cache"/linux-image-*-arm64_*_arm64.deb "$cache"/busybox-static_*_arm64.deb \
		"$cache"/vmlinuz-*; do
		case $old in
		"$kdeb" | "$bdeb" | */vmlinuz-"$(basename "$kdeb" | sed -E 's/^linux-image-(.*)_[^_]*_arm64\.deb$/\1/')") ;;
		*) rm -f "$old" ;;
		esac
	done
	timing="download $(secs $(($(now_ms) - t)))s"
fi
kver=$(basename "$kdeb" | sed -E 's/^linux-image-(.*)_[^_]*_arm64\.deb$/\1/')
vmlinuz=$cache/vmlinuz-$kver
if [ ! -s "$vmlinuz" ]; then
	if ! dpkg-deb --fsys-tarfile "$kdeb" | tar -xO "./boot/vmlinuz-$kver" >"$vmlinuz.tmp" ||
		[ ! -s "$vmlinuz.tmp" ]; then
		rm -f "$vmlinuz.tmp"
		fail "kernel" "no ./boot/vmlinuz-$kver in $kdeb"
		finish
	fi
	mv "$vmlinuz.tmp" "$vmlinuz"
fi
if ! dpkg-deb --fsys-tarfile "$bdeb" | tar -xO ./bin/busybox >"$root/bin/busybox" ||
	[ ! -s "$root/bin/busybox" ]; then
	fail "busybox" "no ./bin/busybox in $bdeb"
	finish
fi
chmod 755 "$root/bin/busybox"

# --- initramfs ---------------------------------------------------------------------------------
cp "$here/lib/init.sh" "$root/init"
cp "$here/lib/guest.sh" "$root/lib/pmu-vm/guest.sh"
nchecks=0
for c in "$here"/checks/$checks_glob ${PMU_VM_EXTRA_CHECKS:+"$PMU_VM_EXTRA_CHECKS"/*.sh}; do
	[ -e "$c" ] || continue
	cp "$c" "$root/checks/"
	nchecks=$((nchecks + 1))
done
chmod 755 "$root/init"
initrd=$work/initrd.cpio.gz
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$initrd"

# --- boot --------------------------------------------------------------------------------------
# Flags from shared/reference/qemu-arm64-pmu.md: icount shift=0 + one vCPU = exact, repeatable
# counts and the inst_retired event; pauth=off boots ~6x faster; -nic none avoids the
# efi-virtio.rom error; -no-reboot + panic=-1 make a guest crash end the run.
log=$work/console.log
# Truncate here, not only in qemu's redirection: the poll below may run before the child does.
: >"$log"
t_boot=$(now_ms)
qemu-system-aarch64 -M virt -cpu max,pauth=off -m 1G -smp 1 -icount shift=0 \
	-nographic -no-reboot -nic none -kernel "$vmlinuz" -initrd "$initrd" \
	-append "console=ttyAMA0 quiet panic=-1${PMU_VM_APPEND:+ $PMU_VM_APPEND}" </dev/null >"$log" 2>&1 &
qpid=$!
boot_ms='' timed_out='' seen=0
: >"$work/check-times"
poll_log() {
	if [ -z "$boot_ms" ] && grep -aq '^PMSBOOT' "$log"; then
		boot_ms=$(($(now_ms) - t_boot))
	fi
	# Host time at which each check (and the end) showed up, for the per-check times below.
	n=$(grep -acE '^PMS(RUN|CHECK done)' "$log")
	if [ "$n" -gt "$seen" ]; then
		grep -aE '^PMS(RUN|CHECK done)' "$log" | tail -n +$((seen + 1)) | head -n $((n - seen)) |
			tr -d '\r' | awk -v t="$(now_ms)" '{ print t, $2 }' >>"$work/check-times"
		seen=$n
	fi
}
while kill -0 "$qpid" 2>/dev/null; do
	poll_log
	if [ $(($(now_ms) - t_boot)) -gt $((guest_timeout * 1000)) ]; then
		timed_out=1
		kill "$qpid" 2>/dev/null
		break
	fi
	sleep 0.2
done
wait "$qpid" 2>/dev/null
qrc=$?
poll_log
run_ms=$(($(now_ms) - t_boot))
boot_s=never
[ -n "$boot_ms" ] && boot_s="$(secs "$boot_ms")s"
timing="${timing:+$timing, }boot to init $boot_s, guest run $(secs $run_ms)s ($nchecks check files)"

# Per-check host time (0.2 s resolution; a check that prints its result at once may share a poll).
check_times=$(awk 'NR > 1 { printf "%s%s %.1fs", sep, name, ($1 - t) / 1000; sep = ", " } { t = $1; name = $2 }' \
	"$work/check-times")

# --- results -----------------------------------------------------------------------------------
tr -d '\r' <"$log" >"$log.txt"
grep -a '^PMSINFO ' "$log.txt" | sed 's/^PMSINFO /guest: /'
grep -a '^PMSBOOT ' "$log.txt" | sed 's/^PMSBOOT /guest: /'
grep -aE '^PMSCHECK (pass|fail|skip) ' "$log.txt" >"$work/results.txt"
while read -r _ st name detail; do
	case $st in
	pass) pass "$name${detail:+: $detail}" ;;
	fail) fail "$name" "$detail" ;;
	skip) skip "$name" "$detail" ;;
	esac
done <"$work/results.txt"
if ! grep -aq '^PMSCHECK done' "$log.txt"; then
	echo "--- last console lines ($log):"
	tail -n 25 "$log.txt"
	if [ -n "$timed_out" ]; then
		fail "guest" "no 'PMSCHECK done': guest killed after ${guest_timeout}s"
	else
		fail "guest" "no 'PMSCHECK done': guest crashed or stopped (qemu exit $qrc)"
	fi
elif [ "$NFAIL" -ne 0 ] && grep -aq '^  [0-9]' "$log.txt"; then
	echo "--- other output of the checks (console log: $log)"
	grep -a '^  [0-9]' "$log.txt" | tail -n 60
fi

# --- files from the guest, checked on the host ----------------------------------------------
# A guest check ships a file as "PMSFILE begin NAME MD5", gzip + base64 lines, "PMSFILE end"
# (MD5 of the file itself); each
# tests/pmu-vm/host/NN_*.sh whose guest check NN_* ran is then sourced here with the files in
# $GUEST_FILES and the host's pmuscope in $HOST_PMUSCOPE (PMU_VM_HOST_BUILD, default build).
files=$work/files
rm -rf "$files"
mkdir -p "$files"
awk -v dir="$files" '
	/^PMSFILE begin / { name = $3; md5[name] = $4; out = dir "/" name ".b64"; printf "" > out; next }
	/^PMSFILE end/ { if (out != "") close(out); out = ""; next }
	out != "" { print > out }
	END { for (n in md5) print n, md5[n] > (dir "/md5.list") }' "$log.txt"
if [ -s "$files/md5.list" ]; then
	while read -r name sum; do
		if base64 -d <"$files/$name.b64" | gzip -dc >"$files/$name" 2>/dev/null &&
			[ "$(md5sum <"$files/$name" | cut -d' ' -f1)" = "$sum" ]; then
			rm -f "$files/$name.b64"
		else
			rm -f "$files/$name"
			echo "note: guest file $name arrived damaged (md5 mismatch)"
		fi
	done <"$files/md5.list"
fi
host_build=${PMU_VM_HOST_BUILD:-build}
# shellcheck disable=SC2034 # HOST_PMUSCOPE and GUEST_FILES are read by the sourced host checks
case $host_build in
/*) HOST_PMUSCOPE=$host_build/pmuscope ;;
*) HOST_PMUSCOPE=$top/$host_build/pmuscope ;;
esac
# shellcheck disable=SC2034 # read by the sourced host checks
GUEST_FILES=$files
for h in "$here"/host/[0-9]*.sh; do
	[ -e "$h" ] || continue
	nn=$(basename "$h" | cut -d_ -f1)
	ls "$root/checks/${nn}_"*.sh >/dev/null 2>&1 || continue
	# shellcheck disable=SC1090
	. "$h"
done
finish
