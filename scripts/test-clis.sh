#!/usr/bin/env bash
# `make test TEST_CLIS="path ..."`: every test, as plain `make test` runs them, with
# internal/provider/... (the provider and its kinds' folders) run once with the terraform on
# PATH and its acceptance tests (TestAcc*) once per CLI of TEST_CLIS, TEST_JOBS CLIs at a time
# (scripts/test-matrix.sh prints the table), and every other package run once beside them. Much
# of an acceptance test's time is waiting (terraform starting, rate windows, the emulator's
# delays, the other packages' process tests), which the others can use: the same tests as
# `make test` followed by `make test-matrix`, in less time. CI passes the CLIs of ../shared/cli.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
lib_name=test

lib_need go "install Go (the version in go.mod)"
lib_need terraform "install Terraform >= 1.11 and put it on PATH; the acceptance tests drive the real CLI"
others_log=$(mktemp "${TMPDIR:-/tmp}/videohost-test.XXXXXX")
others_pid=""
# The other packages' run, in the background, ignores SIGINT: an exit stops it (lib_kill_tree).
trap '[ -z "$others_pid" ] || lib_kill_tree "$others_pid"; rm -f "$others_log"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck disable=SC2046 # one package per word
TF_ACC=1 go test -count=1 -timeout 20m $(go list ./... | grep -v '/internal/provider\(/\|$\)') >"$others_log" 2>&1 &
others_pid=$!
matrix_rc=0
# Every test with the terraform on PATH; with the other CLIs, the acceptance tests alone (the
# others start no CLI: once is enough).
CLIS="$(command -v terraform) ${TEST_CLIS:?TEST_CLIS names the CLIs}" MATRIX_PACKAGES=./internal/provider/... \
	MATRIX_RUN_OTHERS='^TestAcc' MATRIX_JOBS=${TEST_JOBS:-2} ./scripts/test-matrix.sh || matrix_rc=$?
others_rc=0
wait "$others_pid" || others_rc=$?
others_pid=""
echo
echo "==> test: the packages outside internal/provider (exit $others_rc):"
cat "$others_log"
if [ "$matrix_rc" -ne 0 ] || [ "$others_rc" -ne 0 ]; then
	lib_fail "tests failed (internal/provider/... per CLI: exit $matrix_rc; the other packages: exit $others_rc)"
fi
