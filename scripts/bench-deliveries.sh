#!/usr/bin/env bash
# Event deliveries at scale (`make bench-deliveries`): the emulator, run as a process with its
# default delivery bounds (-delivery-workers, -delivery-queue), gets W webhooks (default 1,000)
# subscribed to video.encoding.quality.completed and V videos (default 100) uploaded and
# encoded, each in 8 qualities: W x V x 8 deliveries (800,000) offered to a loopback receiver
# that answers at once. scripts/benchdeliveries drives it and prints the deliveries offered,
# delivered, failed and dropped (the queue is bounded: what does not fit is dropped and
# counted), what the receiver got, the latency of a GET made every 20 ms meanwhile (p50, p99,
# max) and the emulator's peak RSS.
#
# BENCH_DELIVERIES_WEBHOOKS, BENCH_DELIVERIES_VIDEOS and BENCH_DELIVERIES_TIMEOUT (default 5m)
# change the sizes and the time allowed; BENCH_DELIVERIES_FLAGS adds emulator flags (e.g.
# "-delivery-queue 100000"). Latency and memory are printed, not asserted: the exit status is
# non-zero only when a must fails (a GET not answered, deliveries not accounted for, or the
# receiver's count not the emulator's) or something broke. Everything it starts is stopped on
# success, failure and Ctrl-C. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=bench-deliveries
lib_tmp=""
lib_traps

webhooks=${BENCH_DELIVERIES_WEBHOOKS:-1000}
videos=${BENCH_DELIVERIES_VIDEOS:-100}
timeout=${BENCH_DELIVERIES_TIMEOUT:-5m}

lib_need go "install Go (the version in go.mod)"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-bench-deliveries.XXXXXX")

lib_say "bench-deliveries: building the emulator and the driver"
go build -o "$lib_tmp/" ./cmd/videohost-emulator ./scripts/benchdeliveries
key="bench_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
# The API's rate limits are lifted so that only the deliveries are measured; ingest and encoding
# are quick, so that the events come in a burst.
# shellcheck disable=SC2086 # BENCH_DELIVERIES_FLAGS is a list of flags
lib_start emulator "$lib_tmp/videohost-emulator" -listen 127.0.0.1:0 -api-key "$key" \
	-environment production -max-webhooks "$webhooks" -rate-limit-uploads 1000000 \
	-rate-limit-writes 1000000 -rate-limit-reads 1000000 -ingest-delay 10ms -encoding-delay 20ms \
	${BENCH_DELIVERIES_FLAGS:-}
emu_pid=$lib_last_pid
url=$(lib_first_line emulator "$emu_pid")
lib_say "bench-deliveries: $webhooks webhooks, $videos videos, $((webhooks * videos * 8)) deliveries to offer; emulator at $url"
"$lib_tmp/benchdeliveries" -emulator "$url" -api-key "$key" -pid "$emu_pid" \
	-webhooks "$webhooks" -videos "$videos" -timeout "$timeout"
dropped_lines=$(grep -c 'deliveries dropped' "$lib_tmp/emulator.err" || true)
lib_say "bench-deliveries: the emulator logged $dropped_lines report(s) of dropped deliveries; the last:"
grep 'deliveries dropped' "$lib_tmp/emulator.err" | tail -n 1 || true
