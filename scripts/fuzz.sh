#!/usr/bin/env bash
# Runs every Go fuzz target of the repository for a given time and
# summarises the executions and the crashes.
#
#   scripts/fuzz.sh            # 60 seconds per target
#   scripts/fuzz.sh 5          # 5 seconds per target
#   scripts/fuzz.sh 2000x      # 2000 executions per target (what make fuzz-short runs: with a
#                              # count, a very short run cannot end in go test's "context deadline
#                              # exceeded", which a limit of a second or two sometimes does)
#   scripts/fuzz.sh 30 capi    # only the targets whose package path or name contains "capi"
#   scripts/fuzz.sh 300 FuzzEpisode
#
# FuzzRun (sandbox/), which starts a process per input, runs a tenth of a
# given count.
#
# A crash leaves its input under the package's testdata/fuzz/<Target>/,
# where `go test` replays it from then on: fix the code, keep the file as
# the regression seed. The exit status is 1 when any target failed.
# FUZZ_WORKERS sets the fuzzing processes per target (go test's -parallel,
# default: GOMAXPROCS).
set -u -o pipefail

limit="${1:-60}"
if [[ "$limit" != *x ]]; then
	limit="${limit}s"
fi
filter="${2:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

workers=()
if [[ -n "${FUZZ_WORKERS:-}" ]]; then
	workers=(-parallel "$FUZZ_WORKERS")
fi

# package directory and target name of every "func FuzzX(f *testing.F)".
mapfile -t targets < <(grep -rl --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*(f \*testing.F)' . |
	sort | while read -r file; do
		dir="$(dirname "$file")"
		grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed "s|^func |$dir |"
	done)

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT
failed=0
total=0
start=$SECONDS
printf '%-28s %-28s %12s  %s\n' package target executions result
for entry in "${targets[@]}"; do
	dir="${entry% *}"
	name="${entry#* }"
	[[ -n "$filter" && "$dir $name" != *"$filter"* ]] && continue
	out="$log/${dir//\//_}-$name.txt"
	this="$limit"
	# A target that starts a process per input (the sandbox's FuzzRun) gets a tenth of a count.
	if [[ "$name" == FuzzRun && "$limit" == *x ]]; then
		this="$(( ${limit%x} / 10 + 1 ))x"
	fi
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$this" "${workers[@]}" "$dir" >"$out" 2>&1
	rc=$?
	execs="$(grep -o 'execs: [0-9]*' "$out" | tail -n 1 | grep -o '[0-9]*')"
	execs="${execs:-0}"
	total=$((total + execs))
	if [[ $rc -eq 0 ]]; then
		result=ok
	else
		failed=$((failed + 1))
		input="$(grep -o 'testdata/fuzz/[^ ]*' "$out" | head -n 1)"
		result="FAILED${input:+: input in $dir/$input}"
	fi
	printf '%-28s %-28s %12s  %s\n' "${dir#./}" "$name" "$execs" "$result"
	if [[ $rc -ne 0 ]]; then
		sed -n '1,40p' "$out" | grep -v '^fuzz: elapsed' | sed 's/^/    /'
	fi
done
echo "fuzz: ${#targets[@]} targets known, ${total} executions in $((SECONDS - start))s, ${failed} failed"
[[ $failed -eq 0 ]]
