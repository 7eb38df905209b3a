#!/usr/bin/env bash
# `make testacc-remote`: the acceptance suite against a real endpoint of the service, as a user
# with a sandbox key runs it: VIDEOHOST_API_KEY and VIDEOHOST_BASE_URL name the endpoint, and
# the tests run with VIDEOHOST_EMULATOR=0 (no in-process emulator, no control API). The tests
# that need the emulator (its faults, its clock, its control API) skip, each saying why. At the
# end it prints how many acceptance tests ran, passed, failed and skipped, the share that ran,
# and, when VIDEOHOST_OPENAPI names the service's published document, the contract check's
# summary: the requests sent, the operations reached, the statuses the document does not list.
#
# TESTACC_REMOTE_EMULATOR=1 starts the emulator's binary (cmd/videohost-emulator) on a free
# loopback port with a key of its own and runs against it instead (CI does, to show the suite
# runs that way), with the sandbox's limits in windows of 10 s rather than a minute, so that
# the run's time goes to testing rather than waiting (TESTACC_REMOTE_EMULATOR_FLAGS replaces
# these flags). TESTACC_REMOTE_RUN narrows the tests (a go test -run pattern, default
# ^TestAcc), TESTACC_REMOTE_PARALLEL sets how many run at once (default 2, kind to a sandbox's
# rate limits), TESTACC_REMOTE_TIMEOUT the time allowed the whole run (default 30m; each test
# has a deadline of its own, VIDEOHOST_TEST_DEADLINE, 15m by default), TESTACC_REMOTE_LOG a
# file that keeps go test's whole output. The whole suite fails when fewer than
# TESTACC_REMOTE_MIN_SHARE percent of the acceptance tests ran (default 75).
#
# Every object the tests create carries the run's prefix (tf-acc-<run id>) and its test's name
# where the service keeps a name; the tests' proxies record each create and delete in the run's
# ledger, and the run ends with one summary: the share of tests that ran, the contract check's
# operations and deviations, and the ledger (what the run created, deleted and left, by kind,
# and the discarded videos Video Restore keeps, until when). A run that leaves an object fails;
# `make sweep` deletes what carries the prefix. TESTACC_REMOTE_INVENTORY=1 (CI sets it) lists
# every object of every kind before and after the run (scripts/sweep) and fails on a
# difference, discarded videos aside: for a workspace that no one else uses meanwhile.
#
# Before anything is sent with the key, the endpoint must be the sandbox (https://sandbox.api.video)
# or an emulator on loopback (one that answers as the emulator): scripts/sweep -check-endpoint,
# the guard that the sweep and the tests' remote mode use too. VIDEOHOST_ALLOW_PRODUCTION=1
# allows any other https endpoint, for a workspace that may be written to.
#
# The ledger is written as the tests make their objects, into a directory of its own
# (videohost-ledger.*, 0700, under TMPDIR), which the run removes only when it passed. A run that
# failed, crashed or was stopped (Ctrl-C, SIGTERM: the tests are stopped, then the summary is
# printed from what the ledger holds) keeps it and prints the command that sweeps what it left:
# make sweep SWEEP_FLAGS="-ledger DIR".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
lib_name=testacc-remote
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-testacc-remote.XXXXXX")
lib_traps

lib_need go "install Go (the version in go.mod)"
lib_need terraform "install Terraform >= 1.11 and put it on PATH; the acceptance tests drive the real CLI"

if [ "${TESTACC_REMOTE_EMULATOR:-0}" = 1 ]; then
	go build -o "$lib_tmp/videohost-emulator" ./cmd/videohost-emulator
	key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	# shellcheck disable=SC2086 # the extra flags are words
	lib_start emulator "$lib_tmp/videohost-emulator" -listen 127.0.0.1:0 -api-key "$key" ${TESTACC_REMOTE_EMULATOR_FLAGS--rate-window 10s}
	VIDEOHOST_BASE_URL=$(lib_first_line emulator "$lib_last_pid")
	VIDEOHOST_API_KEY=$key
	export VIDEOHOST_BASE_URL VIDEOHOST_API_KEY
	lib_say "==> testacc-remote: the emulator's binary at $VIDEOHOST_BASE_URL (its control API is not used)"
fi
[ -n "${VIDEOHOST_API_KEY:-}" ] || lib_fail "VIDEOHOST_API_KEY is not set: give the API key of a sandbox project (or TESTACC_REMOTE_EMULATOR=1)"
[ -n "${VIDEOHOST_BASE_URL:-}" ] || lib_fail "VIDEOHOST_BASE_URL is not set: the sandbox is https://sandbox.api.video"
go build -o "$lib_tmp/sweep" ./scripts/sweep
allow=()
[ "${VIDEOHOST_ALLOW_PRODUCTION:-}" != 1 ] || allow=(-allow-production)
"$lib_tmp/sweep" ${allow[@]+"${allow[@]}"} -check-endpoint >/dev/null ||
	lib_fail "refusing to send the key to $VIDEOHOST_BASE_URL (above: why); VIDEOHOST_ALLOW_PRODUCTION=1 allows an https endpoint whose workspace may be written to"
if [ -n "${VIDEOHOST_OPENAPI:-}" ]; then
	export VIDEOHOST_CONTRACT_REPORT="$lib_tmp/contract"
else
	lib_say "==> testacc-remote: VIDEOHOST_OPENAPI is not set: the requests and answers are not checked against the service's published OpenAPI document"
fi

VIDEOHOST_TEST_RUN=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
export VIDEOHOST_TEST_RUN
lib_say "==> testacc-remote: run tf-acc-$VIDEOHOST_TEST_RUN (the prefix of what it creates)"

if [ "${TESTACC_REMOTE_INVENTORY:-0}" = 1 ]; then
	"$lib_tmp/sweep" ${allow[@]+"${allow[@]}"} -inventory "$lib_tmp/inventory-before.json"
fi

# Outside lib_tmp, which every exit removes: a run that did not pass keeps its ledger.
VIDEOHOST_LEDGER=$(mktemp -d "${TMPDIR:-/tmp}/videohost-ledger.XXXXXX")
export VIDEOHOST_LEDGER
lib_say "==> testacc-remote: the ledger of the run: $VIDEOHOST_LEDGER (kept unless the run passes)"

# go test runs in a process group of its own (lib_start): a Ctrl-C or SIGTERM reaches this script
# alone, which stops the tests (SIGTERM to their whole group, SIGKILL after 5 s) and goes on to
# the summary, read from the ledger's files, rather than exiting with the tests' objects
# unaccounted for. A second one exits at once, the ledger kept.
interrupted=""
trap 'interrupted=130' INT
trap 'interrupted=143' TERM
rc=0
# shellcheck disable=SC2016 # the inner shell expands its own arguments
lib_start go-test sh -c 'exec "$@" 2>&1' go-test env VIDEOHOST_EMULATOR=0 TF_ACC=1 go test -count=1 -v -run "${TESTACC_REMOTE_RUN:-^TestAcc}" \
	-parallel "${TESTACC_REMOTE_PARALLEL:-2}" -timeout "${TESTACC_REMOTE_TIMEOUT:-30m}" ./internal/provider/...
gotest=$lib_last_pid
log="$lib_tmp/go-test.out"
lib_wait "$gotest" || rc=$?
if [ -n "$interrupted" ]; then
	lib_say "==> testacc-remote: interrupted: stopping the tests, then the summary of what they made" >&2
	lib_stop "$gotest"
	rc=$interrupted
fi
trap 'exit 130' INT
trap 'exit 143' TERM
# TESTACC_REMOTE_LOG keeps go test's whole output in that file.
[ -z "${TESTACC_REMOTE_LOG:-}" ] || cp "$log" "$TESTACC_REMOTE_LOG"

# The outcome of every top-level acceptance test, then each skip's reason (the line after it).
count() { grep -c "^--- $1: TestAcc" "$log" || true; }
passed=$(count PASS)
failed=$(count FAIL)
skipped=$(count SKIP)
total=$((passed + failed + skipped))
grep -E '^(--- FAIL|panic:|FAIL|ok )' "$log" || true
lib_say
lib_say "==> testacc-remote: why the skipped tests skipped:"
# go test -v prints a skip's reason on the line before its "--- SKIP" line.
awk '/^--- SKIP: TestAcc/ && prev ~ /_test\.go:[0-9]+: / { sub(/^ +[a-z_]+\.go:[0-9]+: /, "", prev); print prev } { prev = $0 }' "$log" |
	sort | uniq -c | sort -rn || true
lib_say
lib_say "==> testacc-remote: summary"
share=0
[ "$total" -eq 0 ] || share=$((100 * (passed + failed) / total))
lib_say "$total acceptance tests: $((passed + failed)) ran ($share%), $passed passed, $failed failed, $skipped skipped"
# The whole suite (no TESTACC_REMOTE_RUN) must run mostly against the endpoint: a test that
# could create what it needs through the public API and skips instead lowers the share.
min_share=${TESTACC_REMOTE_MIN_SHARE:-75}
if [ -z "${TESTACC_REMOTE_RUN:-}" ] && [ "$share" -lt "$min_share" ]; then
	lib_say "testacc-remote: $share% of the acceptance tests ran against the endpoint, below TESTACC_REMOTE_MIN_SHARE ($min_share%)" >&2
	rc=1
fi
if [ -n "${VIDEOHOST_CONTRACT_REPORT:-}" ] && [ -d "$VIDEOHOST_CONTRACT_REPORT" ]; then
	# Every package of the provider is a test binary with a report of its own: one summary of them all.
	go run ./scripts/contractreport "$VIDEOHOST_CONTRACT_REPORT" || rc=1
fi
# The ledger's files are the summary's only source: what a crashed or stopped test binary made
# is there too.
go build -o "$lib_tmp/ledgerreport" ./scripts/ledgerreport
if ! "$lib_tmp/ledgerreport" "$VIDEOHOST_LEDGER"; then
	[ "$rc" -ne 0 ] || rc=1
fi
if [ "${TESTACC_REMOTE_INVENTORY:-0}" = 1 ]; then
	if ! "$lib_tmp/sweep" ${allow[@]+"${allow[@]}"} -compare "$lib_tmp/inventory-before.json"; then
		[ "$rc" -ne 0 ] || rc=1
	fi
fi
if [ "$rc" -eq 0 ] || [ -z "$(ls -A "$VIDEOHOST_LEDGER")" ]; then
	rm -rf "$VIDEOHOST_LEDGER"
else
	lib_say "==> testacc-remote: the ledger is kept in $VIDEOHOST_LEDGER; to delete what the run left:" >&2
	lib_say "    make sweep SWEEP_FLAGS=\"-ledger $VIDEOHOST_LEDGER\"" >&2
fi
# Stopped: the summary above is what there is to say; the exit says it was interrupted.
[ -z "$interrupted" ] || exit "$rc"
if [ "$rc" -ne 0 ]; then
	# go test -v interleaves the tests that run in parallel, each stretch headed by a "=== RUN",
	# "=== CONT" or "=== NAME" line: each failing test's own lines, which say why it failed.
	for name in $(sed -n 's/^--- FAIL: \(TestAcc[^ ]*\) .*/\1/p' "$log"); do
		lib_say "---- the output of $name ----" >&2
		awk -v name="$name" '/^=== [A-Z]+ / { cur = $3; sub(/\/.*/, "", cur); next } cur == name' "$log" | tail -n 200 >&2
	done
	lib_say "---- the last lines of go test ----" >&2
	tail -n 40 "$log" >&2
	lib_fail "go test failed, or the run deviated from the contract or left objects (exit $rc)"
fi
