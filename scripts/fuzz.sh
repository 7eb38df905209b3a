#!/usr/bin/env bash
# Runs every fuzz target of the repository, one after the other, each for FUZZTIME (default 10s;
# any value `go test -fuzztime` takes, e.g. 60s or 100000x), and prints a summary table: target,
# package, fuzz time, executions, result. The targets are found with `go test -list '^Fuzz'`, so
# a new target is picked up without editing this script; FUZZ_TARGETS (an extended regular
# expression on the names) picks some of them.
#
# FUZZ_PARALLEL sets -parallel (the number of fuzzing workers; default GOMAXPROCS): use 1 on a
# shared machine. FUZZ_MINIMIZE_TIME sets -fuzzminimizetime (default 10s, go test's own is 60s):
# go test also minimizes every new interesting input for up to that long, and does not count
# those executions: with 60s, FuzzTokenResponse spent most of a 30s run minimizing (8,507
# executions against 342,224 with 2s). A failing input is minimized for as long.
#
# The exit status is non-zero when a target failed. A failing input is written by go test to the
# package's testdata/fuzz/<Target>/ directory; the script names the file and the command that
# re-runs it. Committed, the file becomes a regression seed that every `go test` runs.
#
# Bounded in time: each run is killed FUZZ_GRACE seconds (default 300, for compiling and for
# the seed corpus) after its fuzz time, when the fuzz time is a duration.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

fuzztime=${FUZZTIME:-10s}
grace=${FUZZ_GRACE:-300}
flags=(-fuzzminimizetime "${FUZZ_MINIMIZE_TIME:-10s}")
if [ -n "${FUZZ_PARALLEL:-}" ]; then
	flags+=(-parallel "$FUZZ_PARALLEL")
fi

# seconds_of prints the seconds of a Go duration made of h, m and s parts (10s, 1m30s), or
# nothing for anything else (an execution count such as 1000x).
seconds_of() {
	local d=$1 total=0 n unit
	[[ $d =~ ^([0-9]+[hms])+$ ]] || return 0
	while [[ $d =~ ^([0-9]+)([hms])(.*)$ ]]; do
		n=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]} d=${BASH_REMATCH[3]}
		case $unit in
		h) total=$((total + n * 3600)) ;;
		m) total=$((total + n * 60)) ;;
		s) total=$((total + n)) ;;
		esac
	done
	echo "$total"
}

limit=$(seconds_of "$fuzztime")
if [ -n "$limit" ]; then
	limit=$((limit + grace))
else
	# An execution count has no duration of its own: an hour bounds it.
	limit=3600
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "==> Listing the fuzz targets"
# `go test -list` prints the matching names of a package, then its "ok <package> <time>" line.
if ! go test -list '^Fuzz' ./... >"$tmp/list" 2>&1; then
	cat "$tmp/list" >&2
	echo "fuzz: listing the targets failed" >&2
	exit 1
fi
targets=() # "<name> <package>"
pending=()
while IFS= read -r line; do
	case $line in
	Fuzz*) pending+=("$line") ;;
	ok*)
		pkg=$(awk '{print $2}' <<<"$line")
		for name in "${pending[@]}"; do
			if [ -z "${FUZZ_TARGETS:-}" ] || [[ $name =~ $FUZZ_TARGETS ]]; then
				targets+=("$name $pkg")
			fi
		done
		pending=()
		;;
	*) pending=() ;;
	esac
done <"$tmp/list"
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz: no fuzz target found${FUZZ_TARGETS:+ matching $FUZZ_TARGETS}" >&2
	exit 1
fi
echo "    ${#targets[@]} targets, $fuzztime each${FUZZ_PARALLEL:+, $FUZZ_PARALLEL worker(s)}"

module=$(go list -m)
rows=()
failed=0
i=0
for t in "${targets[@]}"; do
	name=${t%% *} pkg=${t#* }
	i=$((i + 1))
	log="$tmp/$i.log"
	echo "==> $name ($pkg) for $fuzztime"
	start=$(date +%s)
	rc=0
	timeout -k 10 "$limit" go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "${flags[@]}" "$pkg" \
		>"$log" 2>&1 || rc=$?
	elapsed=$(($(date +%s) - start))
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | awk '{print $2}' || true)
	if [ "$rc" -eq 0 ]; then
		result=PASS
		tail -n 2 "$log" | sed 's/^/    /'
	else
		failed=$((failed + 1))
		result=FAIL
		[ "$rc" -eq 124 ] && result="TIMEOUT after ${elapsed}s"
		sed 's/^/    /' "$log"
		dir=$(go list -f '{{.Dir}}' "$pkg")
		dir=${dir#"$(pwd)"/}
		written=$(sed -n 's/.*Failing input written to \([^ ]*\).*/\1/p' "$log" | tail -n 1)
		if [ -n "$written" ]; then
			echo "    failing input: $dir/$written"
			echo "    re-run it:     go test -run '^${name}/$(basename "$written")\$' ./$dir"
			result="FAIL ($dir/$written)"
		elif seed=$(grep -o 'seed corpus entry: [^ ]*' "$log" | tail -n 1) && [ -n "$seed" ]; then
			echo "    a seed fails: ${seed#seed corpus entry: } (in $dir/testdata/fuzz/$name/ or an f.Add)"
			result="FAIL (seed ${seed#seed corpus entry: })"
		fi
	fi
	rows+=("$name|${pkg#"$module"/}|$fuzztime|${execs:--}|$result")
done

echo
lib_table "target|package|fuzz time|execs|result" "${rows[@]}"

if [ "$failed" -gt 0 ]; then
	echo
	echo "fuzz: $failed of ${#targets[@]} targets failed; commit each failing input (after the fix) as a regression seed" >&2
	exit 1
fi
