#!/usr/bin/env bash
# Parallel pipelines on one API key (`make bench-parallel`): K terraform processes, each with its
# own working directory and state, apply N webhooks each at the same moment against one emulator
# whose write limit is L requests per W-second window. They share that one server-side window
# and know of each other only through the X-RateLimit-* headers. Printed per run:
#
#   - 429s per process (from each provider's log: one "waiting for the rate limit" line with
#     reason 429 per refused request) and in all (the emulator's count);
#   - early requests: requests sent before the Retry-After of a 429 to the same key had elapsed
#     (the emulator's count, with its grace for requests already on the wire; must be 0);
#   - wall / floor: from the start of the K applies to the end of the last one, over the floor
#     (ceil(K*N/L) - 1) * W, the least time K*N writes take at L per W; and the time from the
#     first to the last write the emulator saw, over the same floor (terraform's start-up and
#     end left out).
#
# BENCH_LOG_LEVEL sets the providers' TF_LOG_PROVIDER (INFO by default; DEBUG logs every
# request), and BENCH_KEEP=1 keeps the temporary directory with the logs.
#
# RUNS=R repeats the measurement R times (each with a fresh emulator) and prints the medians.
# Defaults: K=3 N=15 L=10 W=2 RUNS=3. A missed goal is printed, not an error: the exit status is
# non-zero only when a must fails (early requests, or a webhook missing after the applies) or
# something broke. Everything it starts is stopped on success, failure and Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=bench-parallel
lib_tmp=""

K=${K:-3} N=${N:-15} L=${L:-10} W=${W:-2} RUNS=${RUNS:-3}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	set +e
	lib_stop_all
	if [ "$rc" -ne 0 ] && [ -n "$lib_tmp" ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; then
		lib_say "bench-parallel: FAILED (exit $rc)" >&2
		for f in "$lib_tmp"/*.err; do
			[ -s "$f" ] || continue
			lib_say "---- last lines of $(basename "$f") ----" >&2
			tail -n 15 "$f" >&2
		done
	fi
	[ -n "$lib_tmp" ] && [ -z "${BENCH_KEEP:-}" ] && rm -rf "$lib_tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

lib_need go "install Go (the version in go.mod)"
lib_need_terraform
lib_need curl "install curl; the bench reads the emulator's statistics with it"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-bench-parallel.XXXXXX")
tmp=$lib_tmp

# rate_field prints rateLimits.<class>.<field> of a stats document.
rate_field() {
	local v
	v=$(printf '%s' "$1" | grep -o "\"$2\":{[^}]*}" | sed -n 1p | grep -o "\"$3\":[^,}]*" | cut -d: -f2- | tr -d '"')
	[ -n "$v" ] || lib_fail "the emulator's stats lack rateLimits.$2.$3"
	printf '%s' "$v"
}

# median prints the median of its arguments (the lower middle of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%s", v[int((NR + 1) / 2)] }'; }

lib_say "bench-parallel: building the provider and the emulator"
mkdir -p "$tmp/bin"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator
lib_dev_overrides "$tmp/tfrc" "$tmp/bin"
export TF_CLI_CONFIG_FILE="$tmp/tfrc"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
lib_clean_tf_env
api_key="bench_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export VIDEOHOST_API_KEY="$api_key"

floor=$(lib_calc "(int(($K * $N + $L - 1) / $L) - 1) * $W")
lib_say "bench-parallel: $K processes x $N webhooks on one key, $L writes per ${W} s window (floor $floor s), $RUNS runs"

ratios=() sratios=() totals=() earlies=() worsts=()
for run in $(seq 1 "$RUNS"); do
	lib_start "emu-$run" "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" \
		-rate-limit-writes "$L" -rate-window "${W}s" -max-webhooks $((K * N))
	emu_pid=$lib_last_pid
	emu_url=$(lib_first_line "emu-$run" "$emu_pid")
	lib_wait_http "$emu_url/_emulator/"
	export VIDEOHOST_BASE_URL="$emu_url"

	pids=()
	t0=$(lib_now)
	for p in $(seq 1 "$K"); do
		d="$tmp/run$run/p$p"
		mkdir -p "$d"
		lib_required_providers >"$d/providers.tf"
		cat >"$d/main.tf" <<EOF
resource "videohost_webhook" "w" {
  count  = $N
  url    = "https://hooks.example.test/parallel/$p/\${count.index}"
  events = ["video.encoding.quality.completed"]
}
EOF
		TF_LOG_PROVIDER=${BENCH_LOG_LEVEL:-INFO} TF_LOG_PATH="$d/provider.log" \
			lib_start "tf-$run-$p" "$TERRAFORM" -chdir="$d" apply -auto-approve -input=false -no-color
		pids+=("$lib_last_pid")
	done
	for i in "${!pids[@]}"; do
		lib_wait "${pids[$i]}" || lib_fail "run $run: terraform apply of process $((i + 1)) failed: $(tail -n 5 "$tmp/tf-$run-$((i + 1)).err")"
	done
	wall=$(lib_calc "$(lib_now) - $t0")

	s=$(curl -sS --fail --max-time 10 "$emu_url/_emulator/stats" | tr -d '\n') || lib_fail "GET /_emulator/stats failed"
	got=$(curl -sS --fail --max-time 10 -u "$api_key:" "$emu_url/webhooks" | grep -o '"itemsTotal":[0-9]*' | sed 's/.*://')
	[ "$got" = $((K * N)) ] || lib_fail "run $run: the service holds $got webhooks, not $((K * N))"
	total=$(rate_field "$s" writes tooManyRequests)
	span=$(lib_calc "$(date -d "$(rate_field "$s" writes last)" +%s.%N) - $(date -d "$(rate_field "$s" writes first)" +%s.%N)")
	sratio=$(lib_calc "$span / $floor" | xargs printf '%.3f')
	early=$(rate_field "$s" writes early)
	per=()
	for p in $(seq 1 "$K"); do
		n=$(grep -c 'reason=429' "$tmp/run$run/p$p/provider.log" || true)
		per+=("${n:-0}")
	done
	worst=$(printf '%s\n' "${per[@]}" | sort -n | tail -n 1)
	ratio=$(lib_calc "$wall / $floor" | xargs printf '%.3f')
	lib_say "run $run: 429s per process: ${per[*]} (all: $total); early requests: $early; wall $(printf '%.1f' "$wall") s = $ratio x floor; first to last write $(printf '%.1f' "$span") s = $sratio x floor"
	sratios+=("$sratio")
	ratios+=("$ratio") totals+=("$total") earlies+=("$early") worsts+=("$worst")
	lib_stop "$emu_pid"
done

m_ratio=$(median "${ratios[@]}")
m_sratio=$(median "${sratios[@]}")
m_worst=$(median "${worsts[@]}")
m_total=$(median "${totals[@]}")
max_early=$(printf '%s\n' "${earlies[@]}" | sort -n | tail -n 1)
m_early=$(median "${earlies[@]}")
early_runs=$(printf '%s\n' "${earlies[@]}" | grep -vc '^0$' || true)
yes_no() { if [ "$1" = 1 ]; then printf yes; else printf '**no**'; fi; }
lib_say ""
lib_say "Medians of $RUNS runs: $K processes x $N webhooks, one key, $L writes per ${W} s (floor $floor s)"
lib_say ""
lib_say "| measure | value | goal | met? |"
lib_say "|---|---|---|---|"
lib_say "| 429s of the most refused process | $m_worst | ≤ 2 | $(yes_no "$(lib_calc "$m_worst <= 2")") |"
lib_say "| 429s in all | $m_total | ≤ $((2 * K)) | $(yes_no "$(lib_calc "$m_total <= 2 * $K")") |"
lib_say "| requests before Retry-After elapsed (median; worst run) | $m_early; $max_early ($early_runs of $RUNS runs had any) | 0 (must) | $(yes_no "$(lib_calc "$max_early == 0")") |"
lib_say "| wall / floor (terraform's start and end included) | $m_ratio | ≤ 1.3 | $(yes_no "$(lib_calc "$m_ratio <= 1.3")") |"
lib_say "| first to last write / floor | $m_sratio | — | — |"
if [ "$max_early" != 0 ]; then
	lib_say "bench-parallel: a must failed: requests were sent before a 429's Retry-After had elapsed" >&2
	exit 1
fi
