#!/usr/bin/env bash
# The provider at scale (`make bench-scale`), driven by the real terraform against the local
# emulator and printed as a markdown table for BENCHMARKS.md:
#
#   (a) a refreshing plan over N webhooks, N live streams, N player themes and N videos (from a
#       URL, encoded before the import: a video's refresh reads its status only while it is not
#       playable) in one configuration, under the sandbox's read limit (100 reads a minute): the
#       reads of each kind, the wall time against the floor the read limit sets, and the peak
#       RSS of terraform and of the provider; "before" is computed from the reads the code before
#       the shared lists sent (one GET per live stream, theme and video) at the read limit, not
#       waited out;
#   (b) the apply of the three kinds of (a) without the videos (3N creates) under 40 writes per
#       2 s, with the state in an http backend (run by scripts/statebackend), which Terraform
#       persists every 20 s as it does any remote backend's: wall time over the floor, first to
#       last write over the floor, requests sent before a 429's Retry-After had elapsed (must be
#       0), 429s; (b') the same apply with the local state file, which Terraform rewrites whole
#       and syncs to disk after every resource (its own cost, growing with the state: shown, not
#       held to the goal).
#
# BENCH_SCALE_N (default 1000) sets N; BENCH_SCALE_APPLY=0 skips (b) and (b'), which take minutes
# (each one's floor is (3N/40 - 1) x 2 s, 148 s at N=1000). Each scenario runs its own emulator on a free
# loopback port; terraform finds the provider built here through a dev_overrides CLI
# configuration in a temporary directory. Everything it starts is stopped on success, on failure
# and on Ctrl-C. Peak RSS is GNU time's %M (/usr/bin/time is required).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=bench-scale
lib_tmp=""

n=${BENCH_SCALE_N:-1000}
case "$n" in '' | *[!0-9]* | 0) lib_fail "BENCH_SCALE_N=$n: give a positive count of objects per kind" ;; esac
read_limit=100 read_window=60 # the sandbox's
write_limit=40 write_window=2

lib_traps

lib_need go "install Go (the version in go.mod)"
lib_need_terraform
lib_need curl "install curl; the bench reads the emulator's statistics with it"
/usr/bin/time -f %M -o /dev/null true 2>/dev/null || lib_fail "GNU time (/usr/bin/time) is needed for the peak RSS: install the time package"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-bench-scale.XXXXXX")
tmp=$lib_tmp
# Every terraform run records its peak RSS and the provider's (lib_tf).
lib_tf_peak_rss=yes

rows=()
must_failed=""
row() { rows+=("$1|$2|$3|$4|$5|$6"); }

emulator() {
	local name=$1
	shift
	lib_start "$name" "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" -max-webhooks "$((n + 10))" "$@"
	emu_pid=$lib_last_pid
	emu_url=$(lib_first_line "$name" "$emu_pid")
	case "$emu_url" in
	http://127.0.0.1:*) ;;
	*) lib_fail "the emulator's first line is not its address: $emu_url" ;;
	esac
	lib_wait_http "$emu_url/_emulator/"
	export VIDEOHOST_BASE_URL="$emu_url"
}

stats() { curl -sS --fail --max-time 10 "$emu_url/_emulator/stats" | tr -d '\n' || lib_fail "GET /_emulator/stats failed"; }

# rate_field prints rateLimits.<class>.<field> of a stats document.
rate_field() {
	local v
	v=$(printf '%s' "$1" | grep -o "\"$2\":{[^}]*}" | sed -n 1p | grep -o "\"$3\":[^,}]*" | cut -d: -f2- | tr -d '"')
	[ -n "$v" ] || lib_fail "the emulator's stats lack rateLimits.$2.$3"
	printf '%s' "$v"
}

# kind_reads prints the GET requests of a stats document under one path: its list and its objects.
kind_reads() {
	printf '%s' "$1" | grep -o "\"method\":\"GET\",\"path\":\"$2[^\"]*\",\"count\":[0-9]*" | sed 's/.*://' |
		awk '{ s += $1 } END { printf "%d", s }'
}

tf_rss() { lib_mib "$(grep -E '^[0-9]+$' "$tmp/$1.rss" | tail -n 1)"; }

# configuration writes the configuration of N objects of each kind; with "videos", N videos
# from a URL too (the plan of (a); the apply of (b) keeps the three kinds its floor counts).
configuration() {
	lib_required_providers
	[ "${1:-}" != videos ] || cat <<EOF

resource "videohost_video" "v" {
  count      = $n
  title      = "scale-\${count.index}"
  source_url = "https://media.example.test/scale/\${count.index}.mp4"
}
EOF
	cat <<EOF

# The webhooks subscribe to an event the benchmark never causes: subscribed to the encoding of
# videos, 1,000 of them would each get a delivery per quality of 1,000 videos.
resource "videohost_webhook" "w" {
  count  = $n
  url    = "https://hooks.example.test/scale/\${count.index}"
  events = ["live-stream.broadcast.started"]
}

resource "videohost_live_stream" "l" {
  count = $n
  name  = "scale-\${count.index}"
}

resource "videohost_player_theme" "p" {
  count = $n
  name  = "scale-\${count.index}"
}
EOF
}

lib_say "bench-scale: building the provider and the emulator"
mkdir -p "$tmp/bin" "$tmp/rssbin" "$tmp/rss"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator ./scripts/statebackend
# terraform starts the provider; this wrapper of the same name runs it under GNU time.
cat >"$tmp/rssbin/terraform-provider-videohost" <<EOF
#!/bin/sh
exec /usr/bin/time -f %M -o "$tmp/rss/rss.\$\$" "$tmp/bin/terraform-provider-videohost" "\$@"
EOF
chmod +x "$tmp/rssbin/terraform-provider-videohost"
lib_dev_overrides "$tmp/rssbin.tfrc" "$tmp/rssbin"
export TF_CLI_CONFIG_FILE="$tmp/rssbin.tfrc"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
lib_clean_tf_env
api_key="bench_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export VIDEOHOST_API_KEY="$api_key"
cpu=$(grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
machine="${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores; $(go version | sed 's/^go version //'); $("$TERRAFORM" version 2>/dev/null | sed -n 1p)"
pages=$(((n + 99) / 100))
bound=$((pages + 1))

# ---- (a) refreshing plan under the read limit --------------------------------------------------

lib_say "bench-scale: (a) creating $n webhooks, live streams, player themes and videos through the API, importing them"
emulator emu-a -rate-limit-reads "$read_limit" -rate-limit-writes 100000000
mkdir -p "$tmp/a"
configuration videos >"$tmp/a/main.tf"
post() {
	curl -sS --fail --max-time 10 -u "$api_key:" -H 'Content-Type: application/json' --data "$2" "$emu_url$1" |
		grep -o "\"$3\":\"[^\"]*\"" | cut -d'"' -f4
}
for i in $(seq 0 $((n - 1))); do
	w=$(post /webhooks "{\"url\":\"https://hooks.example.test/scale/$i\",\"events\":[\"live-stream.broadcast.started\"]}" webhookId) &&
		l=$(post /live-streams "{\"name\":\"scale-$i\"}" liveStreamId) &&
		p=$(post /players "{\"name\":\"scale-$i\"}" playerId) &&
		v=$(post /videos "{\"title\":\"scale-$i\",\"source\":\"https://media.example.test/scale/$i.mp4\"}" videoId) ||
		lib_fail "(a) creating object $i failed"
	printf 'import {\n  to = videohost_webhook.w[%d]\n  id = "%s"\n}\nimport {\n  to = videohost_live_stream.l[%d]\n  id = "%s"\n}\nimport {\n  to = videohost_player_theme.p[%d]\n  id = "%s"\n}\nimport {\n  to = videohost_video.v[%d]\n  id = "%s"\n}\n' \
		"$i" "$w" "$i" "$l" "$i" "$p" "$i" "$v" >>"$tmp/a/imports.tf"
done
# A video's refresh reads its status only until it is playable: the plan measures videos that
# have been encoded, the steady state of a library, so the import waits for the last one.
for _ in $(seq 1 240); do
	curl -sS --fail --max-time 10 -u "$api_key:" "$emu_url/videos/$v/status" | grep -q '"playable":true' && break
	sleep 0.5
done
curl -sS --fail --max-time 10 -u "$api_key:" "$emu_url/videos/$v/status" | grep -q '"playable":true' ||
	lib_fail "(a) video $v did not become playable within 2 minutes"
lib_tf_ok import-a "$tmp/a" apply -auto-approve
grep -q "Apply complete! Resources: $((4 * n)) imported, 0 added, 0 changed, 0 destroyed" "$tmp/import-a.log" ||
	lib_fail "(a) the import did not import exactly $((4 * n)) objects: $(grep 'Apply complete' "$tmp/import-a.log")"
# The plan starts in a fresh read window, so that its wall time is its own.
lib_say "bench-scale: (a) waiting ${read_window} s for a fresh read window, then planning"
sleep "$read_window"
s0=$(stats)
plan_rc=0
lib_tf plan-a "$tmp/a" plan -detailed-exitcode || plan_rc=$?
[ "$plan_rc" -eq 0 ] || lib_fail "(a) the plan after the import is not empty or failed (exit $plan_rc)"
a_wall=$lib_tf_seconds
s1=$(stats)
a_tf_rss=$(tf_rss plan-a)
a_prov_rss=$(lib_provider_rss)
a_429=$(($(rate_field "$s1" reads tooManyRequests) - $(rate_field "$s0" reads tooManyRequests)))
lib_stop "$emu_pid"
total_after=0
label="(a) plan over ${n} of each kind"
for kind in /webhooks /live-streams /players /videos; do
	after=$(($(kind_reads "$s1" "$kind") - $(kind_reads "$s0" "$kind")))
	total_after=$((total_after + after))
	# The code before the shared lists: webhooks already read through their list, the other
	# kinds one GET each. The reads of /videos count those of a video's status too.
	before=$pages
	[ "$kind" = /webhooks ] || before=$n
	row "$label" "reads of $kind" "$before" "$after" "≤ $bound" "$(lib_met_le "$after" "$bound")"
	label=""
done
total_before=$((pages + 3 * n))
floor() { lib_calc "(int(($1 + $read_limit - 1) / $read_limit) - 1) * $read_window"; }
row "" "plan wall time (floor set by the read limit)" "≥ $(floor "$total_before") s (floor)" "$(printf '%.1f' "$a_wall") s (floor $(floor "$total_after") s)" "≤ ${read_window} s + terraform's own" "$(lib_met_le "$a_wall" "$read_window")"
row "" "429s" "—" "$a_429" "—" "—"
row "" "peak RSS of the largest process under terraform (GNU time counts its children)" "—" "$a_tf_rss MiB" "—" "—"
row "" "peak RSS of the provider" "—" "$a_prov_rss MiB" "≤ 150 MiB" "$(lib_met_le "$a_prov_rss" 150)"

# ---- (b) apply under a write limit --------------------------------------------------------------

# apply_b NAME LABEL BACKEND [unjudged] applies the three kinds of (a) (3N creates) in $tmp/NAME
# against a fresh emulator under the write limit, with the state where BACKEND (a backend block,
# or nothing: the local state file) puts it, and adds its rows under LABEL; its wall time is
# held to the goal unless "unjudged" follows.
apply_b() {
	local name=$1 label=$2 backend=$3 judged=${4:-} dir=$tmp/$1 goal met
	emulator "emu-$name" -rate-limit-writes "$write_limit" -rate-window "${write_window}s" -rate-limit-reads 100000000
	mkdir -p "$dir"
	configuration >"$dir/main.tf"
	if [ -n "$backend" ]; then
		printf 'terraform {\n  %s\n}\n' "$backend" >>"$dir/main.tf"
		# Terraform must init a backend; with the provider's development override its provider
		# step then fails (there is nothing to install, and no registry), after the backend's.
		lib_tf "init-$name" "$dir" init || true
		grep -q 'Successfully configured the backend "http"' "$tmp/init-$name.log" ||
			lib_fail "$label: terraform init did not configure the http backend: see init-$name.log above"
	fi
	lib_tf_ok "apply-$name" "$dir" apply -auto-approve
	local wall=$lib_tf_seconds s b_tf_rss b_prov_rss b_429 b_early b_writes b_floor span
	s=$(stats)
	b_tf_rss=$(tf_rss "apply-$name")
	b_prov_rss=$(lib_provider_rss)
	b_429=$(rate_field "$s" writes tooManyRequests)
	b_early=$(($(rate_field "$s" writes early) + $(rate_field "$s" reads early)))
	b_writes=$(rate_field "$s" writes requests)
	b_floor=$(lib_calc "(int(($b_writes + $write_limit - 1) / $write_limit) - 1) * $write_window")
	span=$(lib_calc "$(date -d "$(rate_field "$s" writes last)" +%s.%N) - $(date -d "$(rate_field "$s" writes first)" +%s.%N)")
	lib_stop "$emu_pid"
	goal="≤ 1.10" met=$(lib_met_le "$(lib_calc "$wall / $b_floor")" 1.10)
	[ "$judged" != unjudged ] || goal="— (terraform's own state writes)" met="—"
	row "$label" "wall / floor ($b_floor s for $b_writes writes), terraform's start and end included" "—" "$(lib_calc "$wall / $b_floor" | xargs printf '%.3f') ($(printf '%.1f' "$wall") s)" "$goal" "$met"
	row "" "first to last write / floor" "—" "$(lib_calc "$span / $b_floor" | xargs printf '%.3f') ($(printf '%.1f' "$span") s)" "—" "—"
	if [ "$b_early" -eq 0 ]; then
		row "" "requests before Retry-After elapsed" "—" "$b_early" "0 (must)" "yes"
	else
		row "" "requests before Retry-After elapsed" "—" "$b_early" "0 (must)" "**NO**"
		must_failed=yes
	fi
	row "" "429s" "—" "$b_429" "≤ 1" "$(lib_met_le "$b_429" 1)"
	row "" "peak RSS: largest under terraform / provider" "—" "$b_tf_rss / $b_prov_rss MiB" "provider ≤ 150 MiB" "$(lib_met_le "$b_prov_rss" 150)"
}

if [ "${BENCH_SCALE_APPLY:-1}" != 0 ]; then
	# A remote backend, as a workspace of thousands of objects has: Terraform persists its state
	# every 20 s. In the local state file, Terraform rewrites the whole file and syncs it to disk
	# after every resource, which at thousands of resources costs it more than the writes' pace.
	lib_start statebackend "$tmp/bin/statebackend"
	state_url=$(lib_first_line statebackend "$lib_last_pid")
	lib_say "bench-scale: (b) applying $((3 * n)) creates at $write_limit writes per ${write_window} s, state in an http backend"
	apply_b b-http "(b) apply $((3 * n)) creates, $write_limit writes / ${write_window} s, state in a remote (http) backend" \
		"backend \"http\" { address = \"$state_url/scale\" }"
	lib_say "bench-scale: (b') the same apply with the local state file"
	apply_b b-local "(b') the same apply, local state file" "" unjudged
fi

lib_say ""
lib_say "Machine: $machine"
lib_say "N=$n per kind; read limit $read_limit per ${read_window} s; write limit $write_limit per ${write_window} s; peak RSS by GNU time %M"
lib_say ""
lib_table "scenario|measure|before|after|goal|met?" "${rows[@]}"
if [ -n "$must_failed" ]; then
	lib_say ""
	lib_say "bench-scale: a must failed: requests were sent before a 429's Retry-After had elapsed" >&2
	exit 1
fi
