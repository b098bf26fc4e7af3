#!/usr/bin/env bash
# Runs the library of a cross-compiled llenvs-go wheel (aarch64) under
# qemu-user: scripts/abi_probe.c, compiled for the wheel's architecture with
# zig cc, loads it and checks the ABI version, an environment, an episode and
# a scored batch.
#
#     scripts/foreign_arch_check.sh TOOLS_VENV dist/llenvs_go-*-manylinux*_aarch64*.whl
#
# Needs qemu-aarch64 and an aarch64 glibc to run against (Debian:
# apt-get install qemu-user libc6-arm64-cross); skipped with a message where
# they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(cd "$1" && pwd)
wheel=$2
sysroot=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
if ! command -v qemu-aarch64 >/dev/null 2>&1 || [ ! -e "$sysroot/lib/ld-linux-aarch64.so.1" ]; then
    echo "== aarch64: skipped (needs qemu-aarch64 and an aarch64 glibc in $sysroot)"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
abi=$(sed -n 's/^#define LLENVS_ABI_VERSION \([0-9]*\).*/\1/p' capi/llenvs.h)
"$tools/bin/python" -m ziglang cc -target aarch64-linux-gnu.2.17 -o "$work/abi_probe" scripts/abi_probe.c -ldl
"$tools/bin/python" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("llenvs_go/libllenvs.so", sys.argv[2])' \
    "$wheel" "$work"
echo "== aarch64: $(basename "$wheel") under qemu-aarch64"
qemu-aarch64 -L "$sysroot" "$work/abi_probe" "$work/llenvs_go/libllenvs.so" "$abi"
