#!/usr/bin/env bash
# Runs the acceptance tests once per CLI (`make test-matrix`) and prints a table: CLI, version,
# tests passed, failed and skipped (subtests included), and wall time.
#
#   CLIS="path ..."   the terraform or tofu binaries to run, by path or by name on PATH. Default:
#                     the Terraform and OpenTofu kept in ../shared/cli when that folder exists
#                     (unpacked once into MATRIX_CACHE), then the terraform on PATH.
#   MATRIX_PACKAGES   the packages to test (default ./...). Only internal/provider runs a CLI;
#                     CI passes ./internal/provider, since `make test` already ran the rest.
#   MATRIX_RUN        a -run pattern, to run some tests only (default: all).
#   MATRIX_RUN_OTHERS a -run pattern for every CLI but the first (default: MATRIX_RUN). make test
#                     passes ^TestAcc, so that the tests that never start a CLI (unit tests,
#                     protocol-server tests, the repository's checks; their names do not start
#                     with TestAcc, TestCLITestsAreNamedTestAcc sees to it) run once, with the
#                     first CLI, rather than once per CLI.
#   MATRIX_TIMEOUT    go test's -timeout per CLI (default 20m, as make test).
#   MATRIX_JOBS       how many CLIs run at once (default 1). Much of an acceptance test's time
#                     is spent waiting (terraform starting, rate windows, the emulator's
#                     encoding), so two CLIs at once keep two cores busier than one; each CLI's
#                     tests still run go test -parallel GOMAXPROCS at a time. Each CLI's report
#                     is printed whole when it ends.
#   MATRIX_CACHE      where the CLIs of ../shared/cli are unpacked
#                     (default ${XDG_CACHE_HOME:-~/.cache}/terraform-provider-videohost/cli).
#
# Each CLI runs through terraform-plugin-testing's own setting, TF_ACC_TERRAFORM_PATH. OpenTofu
# also gets TF_ACC_PROVIDER_HOST=registry.opentofu.org, its registry's host, without which the
# framework names the provider under registry.terraform.io and OpenTofu does not find it.
# It exits non-zero when any run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=test-matrix

lib_need go "install Go (the version in go.mod)"
packages=${MATRIX_PACKAGES:-./...}
run=${MATRIX_RUN:-.}
run_others=${MATRIX_RUN_OTHERS:-$run}
timeout=${MATRIX_TIMEOUT:-20m}
jobs=${MATRIX_JOBS:-1}
case "$jobs" in
'' | *[!0-9]* | 0) lib_fail "MATRIX_JOBS must be a whole number of at least 1, not '$jobs'" ;;
esac
# The JSON logs are kept when a run fails, for a closer look.
logs=$(mktemp -d "${TMPDIR:-/tmp}/videohost-matrix.XXXXXX")
failed_any=0
# The runs still going at an exit (Ctrl-C, a failure) are stopped, with all they started.
pids=()
stop_runs() {
	local pid
	for pid in "${pids[@]}"; do
		[ -z "$pid" ] || lib_kill_tree "$pid"
	done
}
trap 'stop_runs; [ "$failed_any" -ne 0 ] || rm -rf "$logs"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The caller's CLI configuration is not read: OpenTofu 1.12 prints a warning into the output of
# `version` when TF_CLI_CONFIG_FILE names a missing file. The test binary sets its own as well.
: >"$logs/empty.tfrc"
export TF_CLI_CONFIG_FILE="$logs/empty.tfrc"
unset TF_PLUGIN_CACHE_DIR

if [ -z "${CLIS:-}" ]; then
	shared="$root/../shared/cli"
	if [ -x "$shared/unpack.sh" ]; then
		cache=${MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/cli}
		CLIS=$("$shared/unpack.sh" "$cache" | tr '\n' ' ') || lib_fail "unpacking the CLIs of $shared failed"
	fi
	if command -v terraform >/dev/null 2>&1; then
		CLIS="${CLIS:-} $(command -v terraform)"
	fi
fi
# shellcheck disable=SC2206 # CLIS is a space-separated list of paths by design.
clis=(${CLIS:-})
[ "${#clis[@]}" -gt 0 ] || lib_fail "no CLI to test: set CLIS=\"path ...\" or put terraform on PATH"

# count prints how many test events of the JSON log $1 have the action $2.
count() {
	grep -c "\"Action\":\"$2\",\"Package\":\"[^\"]*\",\"Test\":" "$1" || true
}

# text prints the Output members of the JSON events on stdin as the text go test would print.
text() {
	{ grep '"Output":' || true; } | sed -e 's/.*"Output":"\(.*\)"}$/\1/' -e 's/\\"/"/g' |
		while IFS= read -r line; do printf '%b' "$line"; done
}

# slowest prints the ten slowest top-level tests of the JSON log $1 with their time, slowest
# first: where the time of a CLI's run goes, for keeping the suite fast as it grows.
slowest() {
	{ grep -E '"Action":"(pass|fail)","Package":"[^"]*","Test":"[^"/]*","Elapsed":' "$1" || true; } |
		sed 's/.*"Test":"\([^"]*\)","Elapsed":\([0-9.]*\).*/\2 \1/' | sort -rn |
		# awk, not head: it reads to the end, so sort never writes into a closed pipe (SIGPIPE,
		# which pipefail turned into a failed CI once).
		awk 'NR <= 10 { printf "    %7.1f s  %s\n", $1, $2 }'
}

# failures prints the names of the failed tests of the JSON log $1 and the last lines of each
# one's output.
failures() {
	local name
	{ grep "\"Action\":\"fail\",\"Package\":\"[^\"]*\",\"Test\":" "$1" || true; } | sed 's/.*"Test":"\([^"]*\)".*/\1/' |
		while IFS= read -r name; do
			lib_say "--- FAIL: $name"
			{ grep -F "\"Test\":\"$name\",\"Output\":" "$1" || true; } | tail -n 15 | text
		done
}

# run_cli I CLI runs the tests with one CLI; its report goes to $logs/I.txt, its table row to
# $logs/I.row, and it returns non-zero when the run failed.
run_cli() {
	local i=$1 cli=$2 bin line name version host log start rc secs passed failed skipped result pattern=$run
	[ "$1" -eq 0 ] || pattern=$run_others
	exec >"$logs/$i.txt" 2>&1
	bin=$(command -v "$cli" 2>/dev/null) || lib_fail "$cli is neither on PATH nor an executable"
	bin=$(readlink -f "$bin")
	line=$("$bin" version 2>/dev/null) || lib_fail "'$cli version' failed: is it a terraform or tofu binary?"
	line=${line%%$'\n'*}
	name=${line% v*}
	version=${line##* v}
	host=${TF_ACC_PROVIDER_HOST:-}
	if [ "$name" = OpenTofu ]; then
		host=registry.opentofu.org
	fi
	log="$logs/$i.json"
	lib_say "==> test-matrix: $line ($bin): go test -run '$pattern' $packages"
	start=$SECONDS
	rc=0
	# shellcheck disable=SC2086 # MATRIX_PACKAGES may name several packages.
	TF_ACC=1 TF_ACC_TERRAFORM_PATH="$bin" TF_ACC_PROVIDER_HOST="$host" CHECKPOINT_DISABLE=1 \
		go test -json -count=1 -timeout "$timeout" -run "$pattern" $packages >"$log" 2>&1 || rc=$?
	secs=$((SECONDS - start))
	passed=$(count "$log" pass)
	failed=$(count "$log" fail)
	skipped=$(count "$log" skip)
	result=ok
	if [ "$rc" -ne 0 ]; then
		result=FAIL
		failures "$log"
		# A build error, a panic or a timeout is no failed test; show the end of the log for those.
		[ "$failed" -gt 0 ] || tail -n 30 "$log" | text
		lib_say "    the whole JSON log: $log"
	fi
	lib_say "    $passed passed, $failed failed, $skipped skipped in $secs s; the ten slowest tests:"
	slowest "$log"
	printf '| %-9s | %-8s | %6s | %6s | %7s | %3d min %02d s | %-6s |\n' \
		"$name" "$version" "$passed" "$failed" "$skipped" $((secs / 60)) $((secs % 60)) "$result" >"$logs/$i.row"
	return "$rc"
}

# finish waits for the run of CLI number $1 and prints its report.
finish() {
	wait "${pids[$1]}" || failed_any=1
	pids[$1]="" # ended: its number may be another process's now
	cat "$logs/$1.txt"
}

# The runs start in order, at most $jobs at a time; each report is printed in order once its run
# and those before it have ended.
matrix_start=$SECONDS
next=0
for i in "${!clis[@]}"; do
	if [ "$i" -ge "$jobs" ]; then
		finish "$next"
		next=$((next + 1))
	fi
	lib_say "==> test-matrix: starting ${clis[$i]} ($((i + 1)) of ${#clis[@]}, $jobs at a time)"
	run_cli "$i" "${clis[$i]}" &
	pids[i]=$!
done
while [ "$next" -lt "${#clis[@]}" ]; do
	finish "$next"
	next=$((next + 1))
done
rows=()
for i in "${!clis[@]}"; do
	if [ -s "$logs/$i.row" ]; then
		rows+=("$(cat "$logs/$i.row")")
	else
		rows+=("| ${clis[$i]}: no result (see its report above) |")
	fi
done

lib_say ""
lib_say "Acceptance tests per CLI ($packages; tests and subtests; $((SECONDS - matrix_start)) s in all, $jobs CLI(s) at a time):"
lib_say ""
lib_say "| CLI       | version  | passed | failed | skipped | time         | result |"
lib_say "|-----------|----------|--------|--------|---------|--------------|--------|"
for row in "${rows[@]}"; do
	lib_say "$row"
done
exit "$failed_any"
