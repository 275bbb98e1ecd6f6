#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs every Debian package that building and testing pmuscope needs.
# Idempotent: packages already present are not touched, apt is not even
# updated when nothing is missing. Called by `make deps` (and so by `make run`
# and `make check`); nothing else in the tree may assume a hand-installed tool.
set -eu

# Why each package is here is documented in README.md ("Dependencies").
PACKAGES="
gcc make pkg-config libc6-dev linux-libc-dev
libcriterion-dev
clang llvm libclang-rt-14-dev
linux-perf
util-linux time
jq
python3
libpfm4-dev
libelf-dev libdw-dev libzstd-dev zlib1g-dev libiberty-dev
libbpf-dev bpftool
libtraceevent-dev libdebuginfod-dev debuginfod
xz-utils
rustc
qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio
golang-go chromium nodejs
abigail-tools go-md2man man-db
libpapi-dev likwid
libncurses-dev tmux
libcapstone-dev
libmicrohttpd-dev libyaml-dev libcrypt-dev
prometheus prometheus-node-exporter apache2-utils openssl curl
"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

# npm comes with nodesource's nodejs; Debian's nodejs needs Debian's npm beside it.
if ! command -v npm >/dev/null 2>&1; then
	missing="$missing npm"
fi

# The browser/format checkers from the npm registry (tests/browser/package-lock.json pins them).
npm_deps() {
	if [ ! -d tests/browser/node_modules ] ||
		[ tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]; then
		echo "install-deps: npm ci in tests/browser"
		(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	fi
}

if [ -z "$missing" ]; then
	npm_deps
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages:$missing" >&2
	echo "install-deps: run as root (or: sudo apt-get install$missing)" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
npm_deps
