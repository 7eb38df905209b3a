#!/usr/bin/env bash
# Benchmarks of the provider driven by the real terraform against the local emulator (the second
# half of `make bench`), printed as a markdown table for BENCHMARKS.md:
#
#   (a) apply N webhooks against a limit of 20 writes per 2 s window: wall time over the
#       rate-limit floor, 429s, requests sent before a 429's Retry-After had elapsed (must be 0);
#   (b) plan (refresh) over M webhooks: reads sent;
#   (c) the videos data source over V videos: requests, wall time, peak RSS of the provider;
#   (d) the client's overhead per request against a bare net/http call (a Go benchmark).
#
# Every scenario runs its own emulator on a free loopback port; terraform finds the provider
# built here through a dev_overrides CLI configuration in a temporary directory
# (TF_CLI_CONFIG_FILE; ~/.terraformrc is never read or written). Everything it starts is stopped
# on success, on failure and on Ctrl-C.
#
# BENCH_SHORT=1 runs small settings (for CI). The provider's peak RSS is taken with GNU time
# (/usr/bin/time -f %M), or by polling VmHWM in /proc when it is missing or BENCH_RSS_POLL=1. A missed goal is printed, not an error: the exit
# status is non-zero only when a must fails (early requests) or something broke.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=bench
lib_tmp=""

if [ "${BENCH_SHORT:-}" = 1 ]; then
	settings=short
	a_webhooks=60 b_webhooks=50 c_videos=1000 d_benchtime=200x
else
	settings=full
	a_webhooks=100 b_webhooks=250 c_videos=10000 d_benchtime=1s
fi
a_limit=20 a_window=2 # writes per window, window in seconds

lib_traps

lib_need go "install Go (the version in go.mod)"
lib_need_terraform
lib_need curl "install curl; the bench reads the emulator's statistics with it"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-bench.XXXXXX")
tmp=$lib_tmp

# ---- helpers -----------------------------------------------------------------------------------

# rows of the results table: scenario|measure|value|goal|met
rows=()
must_failed=""
row() { rows+=("$1|$2|$3|$4|$5"); }

# emulator starts an emulator with the given flags and sets emu_url and emu_pid.
emulator() {
	local name=$1
	shift
	lib_start "$name" "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" "$@"
	emu_pid=$lib_last_pid
	emu_url=$(lib_first_line "$name" "$emu_pid")
	case "$emu_url" in
	http://127.0.0.1:*) ;;
	*) lib_fail "the emulator's first line is not its address: $emu_url" ;;
	esac
	lib_wait_http "$emu_url/_emulator/"
	export VIDEOHOST_BASE_URL="$emu_url"
}

stats() {
	curl -sS --fail --max-time 10 "$emu_url/_emulator/stats" | tr -d '\n' || lib_fail "GET /_emulator/stats failed"
}

# rate_field prints rateLimits.<class>.<field> of a stats document (first and last unquoted;
# null when the class saw no request).
rate_field() {
	local json=$1 class=$2 field=$3 v
	v=$(printf '%s' "$json" | grep -o "\"$class\":{[^}]*}" | sed -n 1p | grep -o "\"$field\":[^,}]*" | cut -d: -f2- | tr -d '"')
	[ -n "$v" ] || lib_fail "the emulator's stats lack rateLimits.$class.$field (an older emulator?)"
	printf '%s' "$v"
}

# request_count prints the count of one method and path in a stats document (0 when absent).
request_count() {
	local v
	v=$(printf '%s' "$1" | grep -o "\"method\":\"$2\",\"path\":\"$3\",\"count\":[0-9]*" | sed 's/.*://' || true)
	printf '%s' "${v:-0}"
}

# total_requests prints the total of a stats document: every service API request, the token
# exchanges included.
total_requests() {
	local v
	v=$(printf '%s' "$1" | grep -o '"total":[0-9]*' | tail -n 1 | sed 's/.*://' || true)
	[ -n "$v" ] || lib_fail "the emulator's stats lack total"
	printf '%s' "$v"
}

# items_total prints itemsTotal of GET <path> with the key.
items_total() {
	curl -sS --fail --max-time 10 -u "$api_key:" "$emu_url$1" | tr -d '\n' |
		grep -o '"itemsTotal":[0-9]*' | sed 's/.*://' || lib_fail "GET $1 failed"
}

# provider_block is the configuration every scenario shares: the provider from dev_overrides.
provider_block() {
	lib_required_providers
	echo
}

webhook_resource() {
	provider_block
	cat <<EOF
resource "videohost_webhook" "w" {
  count  = $1
  url    = "https://hooks.example.test/bench/\${count.index}"
  events = ["video.encoding.quality.completed"]
}
EOF
}

# ---- build and configure -------------------------------------------------------------------------

lib_say "bench: building the provider and the emulator"
mkdir -p "$tmp/bin" "$tmp/rssbin" "$tmp/rss"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator
[ -x "$tmp/bin/terraform-provider-videohost" ] || lib_fail "the provider binary was not built as terraform-provider-videohost"

# The provider runs as a child of terraform; for (c) a wrapper of the same name runs it under
# GNU time, which writes its peak RSS when it exits (each provider process of the run writes its
# own file). Without /usr/bin/time the wrapper polls VmHWM, the peak RSS the kernel keeps.
if [ -z "${BENCH_RSS_POLL:-}" ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
	rss_method="GNU time %M of the provider process"
	cat >"$tmp/rssbin/terraform-provider-videohost" <<EOF
#!/bin/sh
exec /usr/bin/time -f %M -o "$tmp/rss/rss.\$\$" "$tmp/bin/terraform-provider-videohost" "\$@"
EOF
else
	rss_method="VmHWM of the provider process, polled every 50 ms"
	cat >"$tmp/rssbin/terraform-provider-videohost" <<EOF
#!/usr/bin/env bash
"$tmp/bin/terraform-provider-videohost" "\$@" <&0 &
pid=\$!
trap 'kill -TERM \$pid 2>/dev/null' TERM INT
while kill -0 \$pid 2>/dev/null; do
	v=\$(awk '/^VmHWM:/ { print \$2 }' /proc/\$pid/status 2>/dev/null) && [ -n "\$v" ] && echo "\$v" >"$tmp/rss/rss.\$pid"
	sleep 0.05
done
wait \$pid
EOF
fi
chmod +x "$tmp/rssbin/terraform-provider-videohost"

for d in bin rssbin; do
	lib_dev_overrides "$tmp/$d.tfrc" "$tmp/$d"
done
export TF_CLI_CONFIG_FILE="$tmp/bin.tfrc"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
lib_clean_tf_env
# A fresh random key per run, so no key is ever written into the repository.
api_key="bench_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export VIDEOHOST_API_KEY="$api_key"

cpu=$(grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
os=$(. /etc/os-release 2>/dev/null && printf '%s' "${PRETTY_NAME:-}")
machine="${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores; ${os:-$(uname -s)} (kernel $(uname -r)); $(go version | sed 's/^go version //'); $("$TERRAFORM" version 2>/dev/null | sed -n 1p)"

lib_say "bench: settings: $settings: (a) $a_webhooks webhooks at $a_limit writes per ${a_window} s; (b) plan over $b_webhooks webhooks; (c) $c_videos videos; (d) -benchtime $d_benchtime -count 3"

# ---- (a) apply under a write limit ----------------------------------------------------------------

lib_say "bench: (a) applying $a_webhooks webhooks at $a_limit writes per ${a_window} s"
emulator emu-a -rate-limit-writes "$a_limit" -rate-window "${a_window}s" -max-webhooks "$a_webhooks"
mkdir -p "$tmp/a"
webhook_resource "$a_webhooks" >"$tmp/a/main.tf"
lib_tf_ok apply-a "$tmp/a" apply -auto-approve
a_wall=$lib_tf_seconds
s=$(stats)
got=$(items_total /webhooks)
[ "$got" = "$a_webhooks" ] || lib_fail "(a) the service holds $got webhooks after the apply, not $a_webhooks"
a_429=$(rate_field "$s" writes tooManyRequests)
a_early=$(rate_field "$s" writes early)
a_writes=$(rate_field "$s" writes requests)
a_reads=$(rate_field "$s" reads requests)
a_span=$(lib_calc "$(date -d "$(rate_field "$s" writes last)" +%s.%N) - $(date -d "$(rate_field "$s" writes first)" +%s.%N)")
a_floor=$(lib_calc "(int(($a_webhooks + $a_limit - 1) / $a_limit) - 1) * $a_window")
lib_stop "$emu_pid"
if [ "$(lib_calc "$a_floor > 0")" = 1 ]; then
	row "(a) apply $a_webhooks webhooks, $a_limit writes / ${a_window} s" "apply wall time / floor (${a_floor} s)" "$(lib_calc "$a_wall / $a_floor" | xargs printf '%.3f') ($(printf '%.1f' "$a_wall") s)" "≤ 1.15" "$(lib_met_le "$(lib_calc "$a_wall / $a_floor")" 1.15)"
	row "" "first to last write / floor" "$(lib_calc "$a_span / $a_floor" | xargs printf '%.3f') ($(printf '%.1f' "$a_span") s)" "≤ 1.15" "$(lib_met_le "$(lib_calc "$a_span / $a_floor")" 1.15)"
else
	row "(a) apply $a_webhooks webhooks, $a_limit writes / ${a_window} s" "apply wall time (floor 0 s)" "$(printf '%.1f' "$a_wall") s" "—" "—"
fi
row "" "429 responses ($a_writes writes and $a_reads reads sent)" "$a_429" "≤ 10" "$(lib_met_le "$a_429" 10)"
if [ "$a_early" -eq 0 ]; then
	row "" "requests before Retry-After elapsed" "$a_early" "0 (must)" "yes"
else
	row "" "requests before Retry-After elapsed" "$a_early" "0 (must)" "**NO**"
	must_failed=yes
fi

# ---- (b) plan over many webhooks -------------------------------------------------------------------

lib_say "bench: (b) creating $b_webhooks webhooks through the control API, importing them, planning"
emulator emu-b -max-webhooks "$b_webhooks" -rate-limit-reads 1000000 -rate-limit-writes 1000000
mkdir -p "$tmp/b"
webhook_resource "$b_webhooks" >"$tmp/b/main.tf"
for i in $(seq 0 $((b_webhooks - 1))); do
	id=$(curl -sS --fail --max-time 10 -H 'Content-Type: application/json' \
		--data "{\"url\":\"https://hooks.example.test/bench/$i\",\"events\":[\"video.encoding.quality.completed\"]}" \
		"$emu_url/_emulator/webhooks" | grep -o '"webhookId":"[^"]*"' | cut -d'"' -f4) ||
		lib_fail "(b) creating webhook $i through the control API failed"
	printf 'import {\n  to = videohost_webhook.w[%d]\n  id = "%s"\n}\n' "$i" "$id" >>"$tmp/b/imports.tf"
done
lib_tf_ok import-b "$tmp/b" apply -auto-approve
grep -q "Apply complete! Resources: $b_webhooks imported, 0 added, 0 changed, 0 destroyed" "$tmp/import-b.log" ||
	lib_fail "(b) the import apply did not import exactly $b_webhooks webhooks: $(grep 'Apply complete' "$tmp/import-b.log")"
s0=$(stats)
plan_rc=0
lib_tf plan-b "$tmp/b" plan -detailed-exitcode || plan_rc=$?
[ "$plan_rc" -eq 0 ] || lib_fail "(b) the plan after the import is not empty or failed (exit $plan_rc)"
b_wall=$lib_tf_seconds
s1=$(stats)
b_reads=$(($(rate_field "$s1" reads requests) - $(rate_field "$s0" reads requests)))
b_lists=$(($(request_count "$s1" GET /webhooks) - $(request_count "$s0" GET /webhooks)))
b_writes=$(($(rate_field "$s1" writes requests) - $(rate_field "$s0" writes requests)))
lib_stop "$emu_pid"
row "(b) plan over $b_webhooks webhooks" "reads sent (of which GET /webhooks: $b_lists)" "$b_reads" "≤ 4" "$(lib_met_le "$b_reads" 4)"
row "" "writes sent" "$b_writes" "0" "$(lib_met_le "$b_writes" 0)"
row "" "plan wall time" "$(printf '%.1f' "$b_wall") s" "—" "—"

# ---- (c) videos data source ------------------------------------------------------------------------

lib_say "bench: (c) reading $c_videos videos through the videos data source"
emulator emu-c -seed-videos "$c_videos" -rate-limit-reads 1000000
mkdir -p "$tmp/c"
provider_block >"$tmp/c/main.tf"
cat >>"$tmp/c/main.tf" <<'EOF'
data "videohost_videos" "all" {}

output "videos" {
  value = length(data.videohost_videos.all.videos)
}
EOF
s0=$(stats)
TF_CLI_CONFIG_FILE="$tmp/rssbin.tfrc" lib_tf_ok apply-c "$tmp/c" apply -auto-approve
c_wall=$lib_tf_seconds
s1=$(stats)
got=$("$TERRAFORM" -chdir="$tmp/c" output -raw videos)
[ "$got" = "$c_videos" ] || lib_fail "(c) the data source read $got videos, not $c_videos"
c_reqs=$(($(rate_field "$s1" reads requests) - $(rate_field "$s0" reads requests)))
c_total=$(($(total_requests "$s1") - $(total_requests "$s0")))
c_pages=$(((c_videos + 99) / 100))
c_rss_kb=$(cat "$tmp"/rss/rss.* 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -n 1 || true)
[ -n "$c_rss_kb" ] || lib_fail "(c) no peak RSS of the provider was recorded ($rss_method)"
lib_stop "$emu_pid"
row "(c) videos data source, $c_videos videos" "API reads ($c_total requests with the token exchange)" "$c_reqs" "$c_pages (pages of 100)" "$(lib_met_le "$c_reqs" "$c_pages")"
row "" "apply wall time" "$(printf '%.1f' "$c_wall") s" "—" "—"
row "" "peak RSS of the provider" "$(lib_calc "$c_rss_kb / 1024" | xargs printf '%.0f') MiB" "—" "—"

# ---- (d) client overhead ---------------------------------------------------------------------------

lib_say "bench: (d) client overhead per request (go test -bench ClientOverhead -benchtime $d_benchtime -count 3)"
go test -run '^$' -bench '^BenchmarkClientOverhead$' -benchtime "$d_benchtime" -count 3 ./internal/videohost/ >"$tmp/bench-d.log" 2>&1 ||
	lib_fail "(d) the Go benchmark failed: $(tail -n 5 "$tmp/bench-d.log")"
# nsop prints the least ns/op of the three runs of a sub-benchmark: the machine's noise (other
# processes) only ever adds time.
nsop() {
	awk -v name="BenchmarkClientOverhead/$1" 'index($1, name) == 1 {
		for (i = 2; i < NF; i++) if ($(i + 1) == "ns/op" && (best == "" || $i + 0 < best + 0)) best = $i
	} END { printf "%s", best }' "$tmp/bench-d.log"
}
d_client=$(nsop client)
d_bare=$(nsop bare)
if [ -z "$d_client" ] || [ -z "$d_bare" ]; then
	lib_fail "(d) no ns/op in the benchmark's output: $(cat "$tmp/bench-d.log")"
fi
row "(d) one GET of a webhook, loopback" "client / bare net/http + decode (best of 3 each)" "$(lib_calc "$d_client / $d_bare" | xargs printf '%.2f') ($(lib_calc "($d_client - $d_bare) / 1000" | xargs printf '%+.1f') µs per request)" "—" "—"

# ---- results ---------------------------------------------------------------------------------------

lib_say ""
lib_say "Machine: $machine"
lib_say "Settings: $settings$([ "$settings" = short ] && printf ' (BENCH_SHORT=1)'); peak RSS by $rss_method"
lib_say ""
lib_table "scenario|measure|value|goal|met?" "${rows[@]}"
if [ -n "$must_failed" ]; then
	lib_say ""
	lib_say "bench: a must failed: requests were sent before a 429's Retry-After had elapsed" >&2
	exit 1
fi
