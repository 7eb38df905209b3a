#!/usr/bin/env bash
# The network soak (`make soak-network`): TestAccSoakNetwork, the soak's apply / apply / destroy
# cycles run by the terraform on PATH through Toxiproxy in front of the in-process emulator, one
# network fault kind per cycle (a request cut or reset part way, an answer cut or reset part way,
# an answer that never comes, a slow link) on during each command. It prints a table of the
# faults the provider met and what each command led to, and fails on an orphan, a divergence
# between state and service, or a failure whose error is not clear.
#
# SOAK_NETWORK_CYCLES (default 12: each fault kind twice, once with the provider's default
# retries and once with max_retries = 1). Toxiproxy is built once from the Go module proxy into
# the cache (as `make bench-upload` does); the test starts it on loopback and stops it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=soak-network

cycles=${SOAK_NETWORK_CYCLES:-12}
case "$cycles" in '' | *[!0-9]* | 0) lib_fail "SOAK_NETWORK_CYCLES: '$cycles' is not a positive whole number" ;; esac
lib_need_terraform
lib_toxiproxy_build
# About 70 s a cycle on 2 loaded cores; the timeout leaves room for three times that.
timeout_min=$((cycles * 4 + 10))
VIDEOHOST_SOAK_TOXIPROXY=$toxiproxy VIDEOHOST_SOAK_NETWORK_CYCLES=$cycles TF_ACC=1 \
	go test -count=1 -run '^TestAccSoakNetwork$' -v -timeout "${timeout_min}m" ./internal/provider
