#!/usr/bin/env bash
# Video source uploads (`make bench-upload`), driven by the real terraform against the local
# emulator over loopback and printed as a markdown table for BENCHMARKS.md:
#
#   throughput  a random source of the first size of BENCH_UPLOAD_SIZES (default 1 GiB) uploaded
#               by `terraform apply` of one videohost_video, unthrottled, against curl posting
#               the same bytes to the same emulator as Content-Range chunks of the same size,
#               sequentially, on one connection (the service takes at most 200 MiB in one
#               regular request, so chunks are the only reference for 1 GiB). Both are timed
#               the same way: from the first chunk's arrival at the emulator (its statistics'
#               rateLimits.uploads.first) to the moment the last chunk made the source complete,
#               i.e. hashed (its control API's completedAt), both read once the upload is over;
#               terraform's start, its plan-time hash of the file and the apply's second hash
#               fall outside. Median of
#               BENCH_UPLOAD_RUNS pairs (default 3).
#   reads       in the same runs, the bytes the provider read (rchar of /proc/PID/io, summed over
#               every provider process terraform starts, by the same wrapper) in the apply that
#               creates the video (its plan, the apply's plan and the upload) and in a refreshing
#               `terraform plan` right after it, per byte of the file; and end to end, curl's
#               create and chunks up to the source complete against terraform apply's whole wall,
#               its start included. The files are left 2 s older than their first hashing, as a
#               user's are: a file written within 2 s of being hashed is hashed again (racy).
#   many        BENCH_UPLOAD_MANY sources (default 20) of BENCH_UPLOAD_MANY_MIB (default 1024)
#               created by one apply, then a refreshing `terraform plan` over them: its wall and
#               the bytes the provider read.
#   memory      the provider's peak RSS (GNU time %M, through a wrapper named
#               terraform-provider-videohost) while applying the first and the last size of
#               BENCH_UPLOAD_SIZES (default 1 GiB and 4 GiB).
#   pacing      20 chunks of 5 MiB under an uploads limit of 5 per 3 s: requests sent before a
#               429's Retry-After had elapsed (must be 0), 429s, and the upload's wall time
#               against its floor.
#   resume      SIGINT to terraform once half of a BENCH_UPLOAD_RESUME_MIB source (default 512)
#               reached the emulator, then a second apply: the bytes it sent, the videos that
#               exist, and the SHA-256 the emulator took.
#   faults      20% of the chunks stored and answered 500, and the first chunk's connection cut
#               after 1 MiB: the apply completes, one video exists, the SHA-256 is the file's.
#   wan         a long path, modelled by Toxiproxy 2.5 between the client and the emulator: 25 ms
#               of latency each way and 12,500 KB/s (100 Mbit/s) each way, toxics that Toxiproxy
#               applies to each connection on its own. A source of BENCH_UPLOAD_WAN_MIB (default
#               1024) created by `terraform apply` with the provider's choice of chunks and with
#               BENCH_UPLOAD_WAN_FLIGHTS chunks in flight (default "4 8 16") of 50 MiB, and with
#               BENCH_UPLOAD_WAN_CHOSEN chunks in flight set alone (default "8"; the provider
#               chooses the chunk size for them, as for a user who only raises
#               upload_chunks_in_flight; "" for none), under each
#               limit set of BENCH_UPLOAD_WAN_LIMITS (default "none production sandbox": 1,000,000
#               a minute, or the service's published limits), each transfer in a fresh emulator
#               and proxy, against curl creating a video and sending 50 MiB chunks one after
#               another on one connection through the same proxy, as the service's own clients
#               do: apply's whole wall (its start and its plan's hash of the file included)
#               against curl's, beside the floor (the file over the connections' rate, plus what
#               the apply spent outside the upload) and the model's ceiling for the row's shape:
#               curl sending the same chunks as many at a time (once a run, no limit, a fresh
#               pair), plus the same time outside the upload; on a machine whose cores the proxy,
#               the emulator and the client share, N connections carry less than N times one.
#               Then (BENCH_UPLOAD_WAN_TWICE=yes) two uploads
#               in a row through one emulator and proxy, 4 in flight and the provider's choice.
#               Median of BENCH_UPLOAD_WAN_RUNS (default 1). Toxiproxy is built once from the Go
#               module proxy into the cache, listens on loopback and is stopped at the end.
#
# BENCH_UPLOAD_SIZES="64 256" (MiB), BENCH_UPLOAD_RESUME_MIB=128 and BENCH_UPLOAD_MANY_MIB=64 make
# a quick check (and BENCH_UPLOAD_WAN_MIB=256 BENCH_UPLOAD_WAN_LIMITS=sandbox a quick model);
# BENCH_UPLOAD_SCENARIOS picks scenarios (default "throughput memory pacing resume faults many wan").
# Files live in a temporary directory (TMPDIR) that is removed on every exit; the emulator keeps
# its chunks there too: the last size needs about twice its size on disk. Each scenario runs its
# own emulator on a free loopback port; terraform finds the provider built here through a
# dev_overrides CLI configuration in that directory. Everything it starts is stopped on success,
# on failure and on Ctrl-C. Never part of `make test` or CI: it moves gigabytes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=bench-upload
lib_tmp=""

sizes=${BENCH_UPLOAD_SIZES:-1024 4096}
resume_mib=${BENCH_UPLOAD_RESUME_MIB:-512}
runs=${BENCH_UPLOAD_RUNS:-3}
scenarios=" ${BENCH_UPLOAD_SCENARIOS:-throughput memory pacing resume faults many wan} "
many=${BENCH_UPLOAD_MANY:-20}
many_mib=${BENCH_UPLOAD_MANY_MIB:-1024}
chunk_mib=${BENCH_UPLOAD_CHUNK_MIB:-50} # curl's chunks, and the provider's where a row sets them
wan_mib=${BENCH_UPLOAD_WAN_MIB:-1024}
wan_runs=${BENCH_UPLOAD_WAN_RUNS:-1}
# "default" leaves upload_chunk_size_mib and upload_chunks_in_flight unset: the provider chooses.
in_flight=${BENCH_UPLOAD_IN_FLIGHT:-default}
# The pacing, resume and faults scenarios check the limiter, the resume and the retries on a
# fixed shape: 4 chunks in flight, so that a SIGINT lands between two waves of chunks.
fixed_in_flight=4
# Each number once, in order; the provider's choice is a row of its own.
# shellcheck disable=SC2086 # a list of numbers, one word each
read -r -a flight_list <<<"$(printf '%s\n' ${BENCH_UPLOAD_WAN_FLIGHTS:-4 8 16} | sort -nu | tr '\n' ' ')"
# Chunks in flight set alone, the provider choosing the chunk size for them: the row of a user who
# only raises upload_chunks_in_flight.
# shellcheck disable=SC2086 # a list of numbers, one word each
read -r -a chosen_list <<<"$(printf '%s\n' ${BENCH_UPLOAD_WAN_CHOSEN-8} | sort -nu | tr '\n' ' ')"
read -r -a limit_list <<<"${BENCH_UPLOAD_WAN_LIMITS:-none production sandbox}"
wan_twice=${BENCH_UPLOAD_WAN_TWICE:-yes}
read -r -a size_list <<<"$sizes"
[ "${#size_list[@]}" -ge 1 ] || lib_fail "BENCH_UPLOAD_SIZES is empty: give one or two sizes in MiB"
for nv in "${size_list[@]/#/SIZES=}" "RESUME_MIB=$resume_mib" "RUNS=$runs" "CHUNK_MIB=$chunk_mib" \
	"MANY=$many" "MANY_MIB=$many_mib" "WAN_MIB=$wan_mib" "WAN_RUNS=$wan_runs" \
	"${flight_list[@]/#/WAN_FLIGHTS=}" "${chosen_list[@]/#/WAN_CHOSEN=}"; do
	case "${nv#*=}" in '' | *[!0-9]* | 0) lib_fail "BENCH_UPLOAD_${nv%%=*}: '${nv#*=}' is not a positive whole number" ;; esac
done
if [ "$chunk_mib" -lt 5 ] || [ "$chunk_mib" -gt 200 ]; then
	lib_fail "BENCH_UPLOAD_CHUNK_MIB=$chunk_mib: the provider takes 5 to 200"
fi
case "$in_flight" in
default) ;;
'' | *[!0-9]* | 0) lib_fail "BENCH_UPLOAD_IN_FLIGHT: '$in_flight' is neither default nor a positive whole number" ;;
esac
for n in "${in_flight/default/1}" "${flight_list[@]}" "${chosen_list[@]}"; do
	[ "$n" -le 16 ] || lib_fail "BENCH_UPLOAD_IN_FLIGHT, BENCH_UPLOAD_WAN_FLIGHTS or BENCH_UPLOAD_WAN_CHOSEN: $n chunks in flight: the provider takes 1 to 16"
done
for l in "${limit_list[@]}"; do
	case "$l" in none | production | sandbox) ;; *) lib_fail "BENCH_UPLOAD_WAN_LIMITS: '$l' is not one of none, production, sandbox" ;; esac
done
if [ "$resume_mib" -le $((2 * chunk_mib)) ]; then
	lib_fail "BENCH_UPLOAD_RESUME_MIB=$resume_mib: the resume needs more than two chunks of $chunk_mib MiB, so that a SIGINT can land between them"
fi
small_mib=${size_list[0]}
large_mib=${size_list[${#size_list[@]} - 1]}
unlimited=100000000
pace_chunks=20 pace_limit=5 pace_window=3 pace_chunk_mib=5
fault_chunks=20 fault_chunk_mib=5 fault_rate=0.2

lib_traps

lib_need go "install Go (the version in go.mod)"
lib_need_terraform
lib_need curl "install curl; the bench posts the reference upload and reads the emulator's statistics with it"
lib_need sha256sum "install coreutils"
lib_need pgrep "install procps; the bench finds the provider's process with it"
/usr/bin/time -f %M -o /dev/null true 2>/dev/null || lib_fail "GNU time (/usr/bin/time) is needed for the peak RSS: install the time package"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-bench-upload.XXXXXX")
tmp=$lib_tmp
# Every terraform run records its peak RSS and the provider's (lib_tf).
lib_tf_peak_rss=yes

met_ge() { lib_calc "($1 >= $2) ? \"yes\" : \"no\""; }
fmt1() { printf '%.1f' "$1"; }
rows=()
must_failed=""
row() { rows+=("$1|$2|$3|$4|$5"); }
must() { # must LABEL MEASURE VALUE GOAL OK
	if [ "$5" = yes ]; then
		row "$1" "$2" "$3" "$4" "yes"
	else
		row "$1" "$2" "$3" "$4" "**NO**"
		must_failed="$must_failed; $2"
	fi
}
yes_if() { if [ "$@" ]; then echo yes; else echo no; fi; }
want() { [ "${scenarios#* "$1" }" != "$scenarios" ]; }
mib_bytes() { echo $(($1 * 1024 * 1024)); }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%s", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# emulator starts an emulator on a free loopback port with its upload chunks under $tmp; its
# address is left in emu_url and VIDEOHOST_BASE_URL.
emulator() {
	local name=$1
	shift
	mkdir -p "$tmp/emu-chunks"
	lib_start "$name" env TMPDIR="$tmp/emu-chunks" "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" \
		-ingest-delay 10ms -encoding-delay 10ms "$@"
	emu_pid=$lib_last_pid
	emu_url=$(lib_first_line "$name" "$emu_pid")
	case "$emu_url" in
	http://127.0.0.1:*) ;;
	*) lib_fail "the emulator's first line is not its address: $emu_url" ;;
	esac
	lib_wait_http "$emu_url/_emulator/"
	export VIDEOHOST_BASE_URL="$emu_url"
}
unthrottled() { emulator "$1" -rate-limit-uploads "$unlimited" -rate-limit-writes "$unlimited" -rate-limit-reads "$unlimited"; }

ctl() { curl -sS --fail --max-time 10 "$emu_url/_emulator/$1" | tr -d '\n' || lib_fail "GET /_emulator/$1 failed"; }
stats() { ctl stats; }
# rate_field prints rateLimits.<class>.<field> of a stats document.
rate_field() {
	local v
	v=$(printf '%s' "$1" | grep -o "\"$2\":{[^}]*}" | sed -n 1p | grep -o "\"$3\":[^,}]*" | cut -d: -f2- | tr -d '"')
	[ -n "$v" ] || lib_fail "the emulator's stats lack rateLimits.$2.$3"
	printf '%s' "$v"
}
# uploaded_bytes prints uploads.bytes of a stats document: every byte of source files received.
uploaded_bytes() { printf '%s' "$1" | grep -o '"uploads":{"bytes":[0-9]*' | grep -o '[0-9]*$'; }
# video_ids prints the ids of the videos that received source bytes, one a line.
video_ids() { printf '%s' "$1" | grep -o '"videos":{[^}]*}' | grep -o '"vi[^"]*":[0-9]' | cut -d'"' -f2; }
# videos_total prints how many videos the service lists.
videos_total() {
	curl -sS --fail --max-time 10 -u "$api_key:" "$emu_url/videos?pageSize=1" | grep -o '"itemsTotal":[0-9]*' | cut -d: -f2 ||
		lib_fail "GET /videos failed"
}
source_field() { ctl "videos/$1/source" | grep -o "\"$2\":[^,}]*" | cut -d: -f2- | tr -d '"'; }
epoch() { date -d "$1" +%s.%N; }

# random_file writes MIB mebibytes of random bytes to PATH and leaves its SHA-256 in file_sum;
# it returns once the file is older than the provider's 2 s racy window, as a user's file is.
random_file() {
	head -c "$(mib_bytes "$2")" /dev/urandom >"$1"
	file_sum=$(sha256sum "$1" | cut -d' ' -f1)
	sleep 2
}

# source_span sets span, the seconds from the first upload request's arrival at the emulator to
# the moment an upload's last chunk made the video's source complete (hashed), and complete_at,
# that moment in seconds since the epoch: both from the emulator's own clock (the uploads' first
# in GET /_emulator/stats, the source's completedAt), read once the upload is over, so that
# nothing polls the emulator while it works (a poller every 50 ms took CPU from the upload).
source_span() {
	local id at
	id=$(video_ids "$(stats)" | sed -n 1p)
	[ -n "$id" ] || lib_fail "no video received source bytes"
	at=$(source_field "$id" completedAt)
	case "$at" in null | '') lib_fail "the source of $id is not complete on the emulator" ;; esac
	complete_at=$(epoch "$at")
	span=$(lib_calc "$complete_at - $(epoch "$(rate_field "$(stats)" uploads first)")")
}

# upload_settings prints the provider block's settings for chunks of CHUNK MiB, IN_FLIGHT at a
# time; none when IN_FLIGHT is "default" (the provider chooses both), and only the chunks in
# flight when it is "Nc" (the provider chooses the chunk size for N).
upload_settings() {
	case "$2" in
	default) ;;
	*c) printf '  upload_chunks_in_flight = %s\n' "${2%c}" ;;
	*) printf '  upload_chunk_size_mib   = %s\n  upload_chunks_in_flight = %s\n' "$1" "$2" ;;
	esac
}

# shape_words says how a row's chunks are set: "the provider's choice", "N in flight × C MiB" or
# "N in flight, the provider's chunk size".
shape_words() {
	case "$2" in
	default) echo "the provider's choice" ;;
	*c) echo "${2%c} in flight, the provider's chunk size" ;;
	*) echo "$2 in flight × $1 MiB" ;;
	esac
}

# configuration writes a configuration of one video of FILE into DIR, with chunks of CHUNK MiB,
# IN_FLIGHT at a time (or the provider's choice when IN_FLIGHT is "default"), titled TITLE.
configuration() {
	local dir=$1 file=$2 chunk=$3 flight=$4 title=${5:-bench-upload}
	mkdir -p "$dir"
	{
		lib_required_providers
		cat <<EOF

provider "videohost" {
$(upload_settings "$chunk" "$flight")
}

resource "videohost_video" "bench" {
  title       = "$title"
  source_file = "$file"
}
EOF
	} >"$dir/main.tf"
}

# curl_upload posts FILE (SIZE bytes) to a new video as sequential Content-Range chunks of
# CHUNK bytes, on one connection (one curl, --next per chunk); sets curl_seconds (the chunks)
# and curl_whole (the create and the chunks).
curl_upload() {
	local file=$1 size=$2 chunk=$3 t0 part from to
	local -a args=()
	curl_parts "$file" "$chunk" "bench-upload curl"
	while read -r part from to; do
		[ ${#args[@]} -eq 0 ] || args+=(--next)
		args+=(-sS -u "$api_key:" -o /dev/null -w '%{http_code}\n' -H "Content-Range: bytes $from-$to/$size"
			-F "file=@$part;filename=source.bin" "$emu_url/videos/$curl_id/source")
	done <"$tmp/parts.list"
	t0=$(lib_now)
	curl "${args[@]}" >"$tmp/curl.codes" || lib_fail "curl's upload failed"
	curl_seconds=$(lib_calc "$(lib_now) - $t0")
	curl_whole=$(lib_calc "$(lib_now) - $curl_created")
	curl_checked "curl's upload"
}

# curl_parallel FILE SIZE CHUNK N creates a video and sends FILE as Content-Range chunks of CHUNK
# bytes, N requests at a time (xargs starts the next as soon as one is answered), one curl each:
# what the model carries for a shape when the client does nothing else. Sets span (source_span).
curl_parallel() {
	local file=$1 size=$2 chunk=$3 n=$4
	curl_parts "$file" "$chunk" "bench-upload curl at a time"
	xargs -P "$n" -n 3 "$tmp/chunk.sh" "$emu_url/videos/$curl_id/source" "$api_key" "$size" <"$tmp/parts.list" >"$tmp/curl.codes" ||
		lib_fail "curl's chunks $n at a time failed"
	curl_checked "curl's chunks $n at a time"
	source_span
}

# curl_parts FILE CHUNK TITLE cuts FILE into chunks of CHUNK bytes under $tmp/parts, listed one a
# line as "PATH FROM TO" in $tmp/parts.list, and creates a video titled TITLE for them (curl_id),
# noting in curl_created when it started creating it.
curl_parts() {
	local file=$1 chunk=$2 title=$3 from=0 to part
	rm -rf "$tmp/parts"
	mkdir -p "$tmp/parts"
	split -b "$chunk" -d -a 5 "$file" "$tmp/parts/p."
	curl_created=$(lib_now)
	curl_id=$(curl -sS --fail --max-time 10 -u "$api_key:" -H 'Content-Type: application/json' -d "{\"title\":\"$title\"}" \
		"$emu_url/videos" | grep -o '"videoId":"[^"]*"' | cut -d'"' -f4) || lib_fail "creating the video of $title failed"
	for part in "$tmp"/parts/p.*; do
		to=$((from + $(stat -c %s "$part") - 1))
		printf '%s %s %s\n' "$part" "$from" "$to"
		from=$((to + 1))
	done >"$tmp/parts.list"
}

# curl_checked WHAT removes curl_parts' chunks and fails unless every answer in $tmp/curl.codes
# was 201 and the emulator holds the file's SHA-256 for curl_id.
curl_checked() {
	rm -rf "$tmp/parts" "$tmp/parts.list"
	if grep -qv '^201$' "$tmp/curl.codes"; then
		lib_fail "$1 had answers other than 201: $(sort "$tmp/curl.codes" | uniq -c | tr '\n' ' ')"
	fi
	[ "$(source_field "$curl_id" sha256)" = "$file_sum" ] || lib_fail "$1: the emulator's SHA-256 is not the file's"
}
cat >"$tmp/chunk.sh" <<'EOF'
#!/usr/bin/env bash
# chunk.sh URL KEY SIZE PART FROM TO: one Content-Range chunk of curl_parallel.
exec curl -sS -u "$2:" -o /dev/null -w '%{http_code}\n' -H "Content-Range: bytes $5-$6/$3" -F "file=@$4;filename=source.bin" "$1"
EOF
chmod +x "$tmp/chunk.sh"

# check_one_video checks that exactly one video exists and holds the file; sets sha_ok.
check_video() {
	local ids
	ids=$(video_ids "$(stats)")
	video_count=$(videos_total)
	sha_ok=no
	if [ "$(printf '%s\n' "$ids" | grep -c .)" -eq 1 ] && [ "$(source_field "$ids" complete)" = true ] &&
		[ "$(source_field "$ids" sha256)" = "$file_sum" ]; then
		sha_ok=yes
	fi
}

lib_say "bench-upload: building the provider and the emulator"
mkdir -p "$tmp/bin" "$tmp/rssbin" "$tmp/rss" "$tmp/media"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator
# terraform starts the provider; this wrapper of the same name runs it under GNU time (its peak
# RSS) and writes the bytes it read (rchar of /proc/PID/io: files and sockets alike): once the
# provider has ended, from the wrapper's own count, which takes in those of the children it has
# reaped (the provider, through time), to io.<pid>.end; and meanwhile, every 50 ms, from the
# provider's, to io.<pid>.0 and io.<pid>.1 in turn (one is whole while the other is rewritten),
# by a sampler that outlives the wrapper when terraform kills it at its end. Once it has found
# the provider, the sampler starts no command: it reads /proc with read and sleeps in read -t on
# a FIFO no one writes. Started every 50 ms, sed, mv and sleep, with a poller of the source's
# completion, took a third of a 2-core machine's CPU from the uploads measured.
cat >"$tmp/rssbin/terraform-provider-videohost" <<EOF
#!/usr/bin/env bash
me=\$\$
(
	pid=""
	# The provider is time's child, not the wrapper's.
	for _ in \$(seq 1 500); do
		tpid=\$(pgrep -P "\$me" -f "^/usr/bin/time " | head -n 1)
		[ -z "\$tpid" ] || pid=\$(pgrep -P "\$tpid" -f "^$tmp/bin/terraform-provider-videohost" | head -n 1)
		[ -z "\$pid" ] || break
		sleep 0.01
	done
	[ -n "\$pid" ] || exit 0
	mkfifo "$tmp/rss/tick.\$me" && exec 9<>"$tmp/rss/tick.\$me" && rm -f "$tmp/rss/tick.\$me" || exit 0
	i=0
	while [ -d "/proc/\$pid" ]; do
		v=""
		while read -r k n; do [ "\$k" != rchar: ] || v=\$n; done <"/proc/\$pid/io"
		[ -z "\$v" ] || printf '%s\n' "\$v" >"$tmp/rss/io.\$me.\$((i++ % 2))"
		read -r -t 0.05 -u 9 _ || :
	done
) </dev/null >/dev/null 2>&1 &
/usr/bin/time -f %M -o "$tmp/rss/rss.\$me" "$tmp/bin/terraform-provider-videohost" "\$@"
rc=\$?
sed -n 's/^rchar: //p' "/proc/\$me/io" >"$tmp/rss/io.\$me.end"
exit \$rc
EOF
chmod +x "$tmp/rssbin/terraform-provider-videohost"
lib_dev_overrides "$tmp/rssbin.tfrc" "$tmp/rssbin"
export TF_CLI_CONFIG_FILE="$tmp/rssbin.tfrc"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
lib_clean_tf_env
unset VIDEOHOST_UPLOAD_CHUNK_SIZE_MIB VIDEOHOST_UPLOAD_CHUNKS_IN_FLIGHT
# The provider's records of the files' SHA-256 stay in the temporary directory, not the user's
# cache, and start empty, as on a machine that never planned these files.
export VIDEOHOST_FILE_HASH_CACHE_DIR="$tmp/file-sha256"
api_key="bench_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export VIDEOHOST_API_KEY="$api_key"
cpu=$(grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
machine="${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores; $(go version | sed 's/^go version //'); $("$TERRAFORM" version 2>/dev/null | sed -n 1p)"
unthrottled_rate="" # bytes a second, from the throughput scenario

# ---- throughput (and memory at the first size) --------------------------------------------------

small_rss=""
if want throughput || want memory; then
	lib_say "bench-upload: throughput: $small_mib MiB, $runs run(s) of the provider and of curl ($chunk_mib MiB chunks)"
	random_file "$tmp/media/small.bin" "$small_mib"
	size=$(mib_bytes "$small_mib")
	p_spans=() c_spans=() c_walls=() p_applies=() p_reads=() plan_reads=() plan_walls=() c_e2e=() s_applies=() s_reads=()
	for r in $(seq 1 "$runs"); do
		unthrottled "emu-p$r"
		configuration "$tmp/p$r" "$tmp/media/small.bin" "$chunk_mib" "$in_flight"
		rm -rf "$VIDEOHOST_FILE_HASH_CACHE_DIR" # every run plans the file as new
		lib_tf_ok "apply-p$r" "$tmp/p$r" apply -auto-approve
		source_span
		p_spans+=("$span")
		p_applies+=("$lib_tf_seconds")
		p_reads+=("$(lib_calc "$(lib_provider_reads) / $size")")
		rss=$(lib_provider_rss)
		if [ -z "$small_rss" ] || [ "$rss" -gt "$small_rss" ]; then
			small_rss=$rss
		fi
		lib_tf_ok "plan-p$r" "$tmp/p$r" plan
		plan_reads+=("$(lib_calc "$(lib_provider_reads) / $size")")
		plan_walls+=("$lib_tf_seconds")
		check_video
		[ "$sha_ok/$video_count" = yes/1 ] || lib_fail "throughput run $r: the emulator does not hold one video with the file's SHA-256"
		lib_stop "$emu_pid"
		rm -rf "$tmp/p$r" "$tmp/emu-chunks"

		# A pipeline's way: terraform plan -out, then terraform apply of that plan, timed alone.
		unthrottled "emu-s$r"
		configuration "$tmp/s$r" "$tmp/media/small.bin" "$chunk_mib" "$in_flight"
		rm -rf "$VIDEOHOST_FILE_HASH_CACHE_DIR"
		lib_tf_ok "plan-s$r" "$tmp/s$r" plan -out=tfplan
		lib_tf_ok "apply-s$r" "$tmp/s$r" apply tfplan
		source_span
		s_applies+=("$lib_tf_seconds")
		s_reads+=("$(lib_calc "$(lib_provider_reads) / $size")")
		check_video
		[ "$sha_ok/$video_count" = yes/1 ] || lib_fail "throughput run $r (saved plan): the emulator does not hold one video with the file's SHA-256"
		lib_stop "$emu_pid"
		rm -rf "$tmp/s$r" "$tmp/emu-chunks"

		unthrottled "emu-c$r"
		curl_upload "$tmp/media/small.bin" "$size" "$(mib_bytes "$chunk_mib")"
		source_span
		c_spans+=("$span")
		c_walls+=("$curl_seconds")
		c_e2e+=("$(lib_calc "$complete_at - $curl_created")")
		lib_stop "$emu_pid"
		rm -rf "$tmp/emu-chunks"
		lib_say "  run $r: provider $(fmt1 "${p_spans[-1]}") s (apply $(fmt1 "${p_applies[-1]}") s; of a saved plan $(fmt1 "${s_applies[-1]}") s), curl $(fmt1 "${c_spans[-1]}") s (curl's own $(fmt1 "$curl_seconds") s)"
	done
	rm -f "$tmp/media/small.bin"
	p_span=$(median "${p_spans[@]}")
	c_span=$(median "${c_spans[@]}")
	p_rate=$(lib_calc "$small_mib / $p_span")
	c_rate=$(lib_calc "$small_mib / $c_span")
	unthrottled_rate=$(lib_calc "$size / $p_span")
	ratio=$(lib_calc "$c_span / $p_span")
	if want throughput; then
		label="throughput, $small_mib MiB, unthrottled"
		row "$label" "provider: first chunk in → source complete (median of $runs; terraform apply in all)" "$(fmt1 "$p_span") s = $(printf '%.0f' "$p_rate") MiB/s ($(fmt1 "$(median "${p_applies[@]}")") s)" "—" "—"
		row "" "curl, $chunk_mib MiB Content-Range chunks, sequential, one connection (curl's own wall)" "$(fmt1 "$c_span") s = $(printf '%.0f' "$c_rate") MiB/s ($(fmt1 "$(median "${c_walls[@]}")") s)" "—" "—"
		row "" "provider / curl throughput ($(shape_words "$chunk_mib" "$in_flight"))" "$(printf '%.2f' "$ratio")" "≥ 0.8" "$(met_ge "$ratio" 0.8)"
		e2e=$(lib_calc "$(median "${c_e2e[@]}") / $(median "${p_applies[@]}")")
		row "" "end to end: curl (create, chunks, source complete: $(fmt1 "$(median "${c_e2e[@]}")") s) / terraform apply's whole wall, its start and its plan's hash of the file included" "$(printf '%.2f' "$e2e")" "≥ 0.95" "$(met_ge "$e2e" 0.95)"
		s_e2e=$(lib_calc "$(median "${c_e2e[@]}") / $(median "${s_applies[@]}")")
		row "" "the same for terraform apply of a plan saved by terraform plan -out ($(fmt1 "$(median "${s_applies[@]}")") s; that plan hashed the file)" "$(printf '%.2f' "$s_e2e")" "≥ 0.95" "$(met_ge "$s_e2e" 0.95)"
		apply_reads=$(median "${p_reads[@]}")
		row "reads, $small_mib MiB" "bytes the provider read per byte of the file: terraform apply creating the video (its plan, the apply's plan, the upload; median of $runs)" "$(printf '%.2f' "$apply_reads")" "≤ 3.0" "$(lib_met_le "$(printf '%.2f' "$apply_reads")" 3.0)"
		row "" "the same by terraform apply of a saved plan (its plan again, the upload)" "$(printf '%.2f' "$(median "${s_reads[@]}")")" "—" "—"
		unchanged=$(median "${plan_reads[@]}")
		row "" "the same by a refreshing terraform plan right after, nothing changed ($(fmt1 "$(median "${plan_walls[@]}")") s)" "$(printf '%.4f' "$unchanged")" "≤ 0.01" "$(lib_met_le "$unchanged" 0.01)"
	fi
fi

# ---- memory at the last size ----------------------------------------------------------------------

if want memory; then
	large_rss=$small_rss
	if [ "$large_mib" != "$small_mib" ]; then
		lib_say "bench-upload: memory: $large_mib MiB"
		random_file "$tmp/media/large.bin" "$large_mib"
		unthrottled emu-m
		configuration "$tmp/m" "$tmp/media/large.bin" "$chunk_mib" "$in_flight"
		lib_tf_ok apply-m "$tmp/m" apply -auto-approve
		large_rss=$(lib_provider_rss)
		check_video
		[ "$sha_ok/$video_count" = yes/1 ] || lib_fail "memory: the emulator does not hold one video with the file's SHA-256"
		lib_stop "$emu_pid"
		rm -rf "$tmp/m" "$tmp/emu-chunks" "$tmp/media/large.bin"
	fi
	worst=$((small_rss > large_rss ? small_rss : large_rss))
	growth=$((large_rss - small_rss))
	row "memory, $(shape_words "$chunk_mib" "$in_flight")" "provider peak RSS: $small_mib MiB (largest of the throughput runs) / $large_mib MiB source" "$small_rss / $large_rss MiB" "≤ 100 MiB" "$(lib_met_le "$worst" 100)"
	row "" "growth from $small_mib MiB to $large_mib MiB" "$growth MiB" "flat (≤ 5 MiB)" "$(lib_met_le "${growth#-}" 5)"
fi

# ---- pacing -----------------------------------------------------------------------------------------

if want pacing; then
	lib_say "bench-upload: pacing: $pace_chunks chunks of $pace_chunk_mib MiB at $pace_limit uploads per ${pace_window} s"
	random_file "$tmp/media/pace.bin" $((pace_chunks * pace_chunk_mib))
	emulator emu-pace -rate-limit-uploads "$pace_limit" -rate-window "${pace_window}s" \
		-rate-limit-writes "$unlimited" -rate-limit-reads "$unlimited"
	configuration "$tmp/pace" "$tmp/media/pace.bin" "$pace_chunk_mib" "$fixed_in_flight"
	lib_tf_ok apply-pace "$tmp/pace" apply -auto-approve
	source_span
	pace_wall=$span
	s=$(stats)
	pace_429=$(rate_field "$s" uploads tooManyRequests)
	pace_early=$(rate_field "$s" uploads early)
	pace_requests=$(rate_field "$s" uploads requests)
	pace_arrivals=$(lib_calc "$(epoch "$(rate_field "$s" uploads last)") - $(epoch "$(rate_field "$s" uploads first)")")
	check_video
	[ "$sha_ok" = yes ] || lib_fail "pacing: the emulator does not hold the file"
	lib_stop "$emu_pid"
	rm -rf "$tmp/pace" "$tmp/emu-chunks" "$tmp/media/pace.bin"
	# The fourth window cannot open before (20/5 - 1) x 3 s after the first chunk; its 5 chunks
	# then take what they take unthrottled (from the throughput scenario when it ran).
	last_window=0
	[ -z "$unthrottled_rate" ] || last_window=$(lib_calc "$(mib_bytes $((pace_limit * pace_chunk_mib))) / $unthrottled_rate")
	wait_floor=$(((pace_chunks / pace_limit - 1) * pace_window))
	pace_floor=$(lib_calc "$wait_floor + $last_window")
	pace_ratio=$(lib_calc "$pace_wall / $pace_floor")
	label="pacing, $pace_chunks × $pace_chunk_mib MiB, $pace_limit uploads / ${pace_window} s"
	must "$label" "requests before a 429's Retry-After had elapsed" "$pace_early" "0 (must)" "$(lib_met_le "$pace_early" 0)"
	row "" "429s (upload requests: $pace_requests)" "$pace_429" "≤ 1" "$(lib_met_le "$pace_429" 1)"
	row "" "first chunk in → last chunk in" "$(fmt1 "$pace_arrivals") s" "≥ ${wait_floor} s (the limit)" "—"
	row "" "first chunk in → source complete, over the floor ($wait_floor s + $(printf '%.2f' "$last_window") s for the last window's chunks)" "$(printf '%.3f' "$pace_ratio") ($(fmt1 "$pace_wall") s)" "≤ 1.15" "$(lib_met_le "$pace_ratio" 1.15)"
fi

# ---- resume -----------------------------------------------------------------------------------------

if want resume; then
	lib_say "bench-upload: resume: $resume_mib MiB, SIGINT to terraform at half, then apply again"
	random_file "$tmp/media/resume.bin" "$resume_mib"
	size=$(mib_bytes "$resume_mib")
	# Two uploads a second, so that the SIGINT lands while the upload is under way.
	emulator emu-resume -rate-limit-uploads 2 -rate-window 1s -rate-limit-writes "$unlimited" -rate-limit-reads "$unlimited"
	configuration "$tmp/resume" "$tmp/media/resume.bin" "$chunk_mib" "$fixed_in_flight"
	lib_start apply-r1 "$TERRAFORM" -chdir="$tmp/resume" apply -auto-approve -input=false -no-color
	r1_pid=$lib_last_pid
	half=$((size / 2))
	while kill -0 "$r1_pid" 2>/dev/null; do
		b=$(uploaded_bytes "$(stats)")
		[ "${b:-0}" -lt "$half" ] || break
		sleep 0.05
	done
	kill -0 "$r1_pid" 2>/dev/null || lib_fail "resume: the first apply ended before half of the file was sent"
	at_sigint=$(uploaded_bytes "$(stats)")
	kill -INT "$r1_pid"
	r1_rc=0
	lib_wait "$r1_pid" || r1_rc=$?
	cat "$tmp/apply-r1.out" "$tmp/apply-r1.err" >"$tmp/apply-r1.log"
	rm -f "$tmp/apply-r1.out" "$tmp/apply-r1.err"
	s=$(stats)
	first_bytes=$(uploaded_bytes "$s")
	ids=$(video_ids "$s")
	[ "$(source_field "$ids" complete)" != true ] || lib_fail "resume: the source was complete before the SIGINT took effect"
	lib_tf_ok apply-r2 "$tmp/resume" apply -auto-approve
	s=$(stats)
	second_bytes=$(($(uploaded_bytes "$s") - first_bytes))
	check_video
	lib_stop "$emu_pid"
	rm -rf "$tmp/resume" "$tmp/emu-chunks" "$tmp/media/resume.bin"
	share=$(lib_calc "100 * $second_bytes / $size")
	label="resume, $resume_mib MiB, SIGINT at half"
	row "$label" "bytes received at the SIGINT / when the first apply ended (exit $r1_rc)" "$((at_sigint >> 20)) / $((first_bytes >> 20)) MiB" "—" "—"
	row "" "bytes the second apply sent" "$((second_bytes >> 20)) MiB = $(printf '%.0f' "$share")% of the file" "≤ 55%" "$(lib_met_le "$share" 55)"
	must "" "videos / emulator's SHA-256 = the file's" "$video_count / $sha_ok" "1 / yes" "$(yes_if "$video_count/$sha_ok" = 1/yes)"
fi

# ---- faults -----------------------------------------------------------------------------------------

if want faults; then
	lib_say "bench-upload: faults: $fault_chunks chunks of $fault_chunk_mib MiB, ${fault_rate} stored then 500, one cut"
	random_file "$tmp/media/faults.bin" $((fault_chunks * fault_chunk_mib))
	size=$(mib_bytes $((fault_chunks * fault_chunk_mib)))
	emulator emu-faults -rate-limit-uploads "$unlimited" -rate-limit-writes "$unlimited" -rate-limit-reads "$unlimited" \
		-fault-upload-commit-then-500 "$fault_rate" -fault-upload-cuts 1
	configuration "$tmp/faults" "$tmp/media/faults.bin" "$fault_chunk_mib" "$fixed_in_flight"
	f_rc=0
	lib_tf f-apply "$tmp/faults" apply -auto-approve || f_rc=$?
	injected=$(ctl faults | grep -o '"injected":{[^}]*}' | grep -o '"upload[A-Za-z0-9]*":[0-9]*' | tr -d '"' | tr '\n' ' ' | sed 's/ $//; s/ /, /g')
	s=$(stats)
	f_requests=$(rate_field "$s" uploads requests)
	f_bytes=$(uploaded_bytes "$s")
	check_video
	lib_stop "$emu_pid"
	rm -rf "$tmp/faults" "$tmp/emu-chunks" "$tmp/media/faults.bin"
	label="faults, $fault_chunks × $fault_chunk_mib MiB, $(lib_calc "100 * $fault_rate")% stored then 500, 1 cut"
	row "$label" "injected ($f_requests chunk requests, $((f_bytes >> 20)) MiB received for a $((size >> 20)) MiB file)" "${injected:-?}" "—" "—"
	must "" "apply exit status" "$f_rc" "0" "$(yes_if "$f_rc" = 0)"
	must "" "videos / emulator's SHA-256 = the file's" "$video_count / $sha_ok" "1 / yes" "$(yes_if "$video_count/$sha_ok" = 1/yes)"
fi

# ---- many sources ----------------------------------------------------------------------------------

if want many; then
	lib_say "bench-upload: many: $many sources of $many_mib MiB, one apply, then a refreshing plan"
	mkdir -p "$tmp/many"
	{
		lib_required_providers
		cat <<EOF

provider "videohost" {
$(upload_settings "$chunk_mib" "$in_flight")
}

resource "videohost_video" "bench" {
  count       = $many
  title       = "bench-upload \${count.index}"
  source_file = "$tmp/media/many.\${count.index}.bin"
}
EOF
	} >"$tmp/many/main.tf"
	# Sparse files, each with its own first bytes: the same reads and hashing as random ones,
	# without writing gigabytes to the disk.
	for i in $(seq 0 $((many - 1))); do
		truncate -s "$(mib_bytes "$many_mib")" "$tmp/media/many.$i.bin"
		printf 'bench-upload source %d' "$i" | dd of="$tmp/media/many.$i.bin" conv=notrunc status=none
	done
	sleep 2
	unthrottled emu-many
	lib_tf_ok apply-many "$tmp/many" apply -auto-approve
	many_apply=$lib_tf_seconds
	lib_tf_ok plan-many "$tmp/many" plan
	many_plan=$lib_tf_seconds
	many_reads=$(lib_provider_reads)
	lib_stop "$emu_pid"
	rm -rf "$tmp/many" "$tmp/emu-chunks" "$tmp"/media/many.*.bin
	row "many, $many × $many_mib MiB" "refreshing terraform plan over $many unchanged sources: wall (bytes the provider read; the apply that made them took $(fmt1 "$many_apply") s)" "$(fmt1 "$many_plan") s ($((many_reads >> 10)) KiB)" "≤ 3 s" "$(lib_met_le "$many_plan" 3)"
fi

# ---- a long path (Toxiproxy) -----------------------------------------------------------------------

# toxiproxy_build builds Toxiproxy's server once into the cache; sets toxiproxy.
toxiproxy_build() { lib_toxiproxy_build; }

# free_port prints a loopback port nothing listens on (Toxiproxy's API takes no port 0), below
# the kernel's range of ephemeral ports: a port the transfers' own connections hold as their
# local end cannot be listened on, and a run opens hundreds.
free_port() {
	local p low
	low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % (low - 20000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	lib_fail "no free loopback port found for Toxiproxy's API"
}

# toxi METHOD PATH [JSON] calls Toxiproxy's HTTP API.
toxi() {
	curl -sS --fail --max-time 10 -X "$1" ${3:+-H 'Content-Type: application/json' -d "$3"} "$toxi_api$2" ||
		lib_fail "Toxiproxy: $1 $2 failed"
}

# wan_proxy starts Toxiproxy on loopback with one proxy to the emulator at emu_url, and the
# toxics of the model on it; points VIDEOHOST_BASE_URL at the proxy and sets wan_url.
wan_proxy() {
	local port listen stream kind try
	# Another process may take the port between free_port and Toxiproxy's bind: then a new port.
	for try in 1 2 3 4 5; do
		port=$(free_port)
		lib_start toxiproxy "$toxiproxy" -host 127.0.0.1 -port "$port"
		toxi_pid=$lib_last_pid
		toxi_api=http://127.0.0.1:$port
		for _ in $(seq 1 50); do
			curl -sS -f --max-time 2 -o /dev/null "$toxi_api/version" 2>/dev/null && break 2
			kill -0 "$toxi_pid" 2>/dev/null || break
			sleep 0.1
		done
		lib_say "bench-upload: Toxiproxy did not answer on port $port (try $try): $(tail -n 2 "$lib_tmp/toxiproxy.err" 2>/dev/null)"
		lib_stop "$toxi_pid"
		[ "$try" -lt 5 ] || lib_fail "Toxiproxy did not start on 5 ports"
	done
	listen=$(toxi POST /proxies "{\"name\":\"emulator\",\"listen\":\"127.0.0.1:0\",\"upstream\":\"${emu_url#http://}\"}" |
		grep -o '"listen":"[^"]*"' | cut -d'"' -f4)
	case "$listen" in 127.0.0.1:[0-9]*) ;; *) lib_fail "Toxiproxy's proxy listens on '$listen'" ;; esac
	# Toxiproxy gives every connection its own copy of each toxic: 25 ms and 100 Mbit/s each way,
	# per connection, as a path where each TCP connection is held to its window over the round
	# trip.
	for stream in upstream downstream; do
		for kind in "latency\",\"attributes\":{\"latency\":25" "bandwidth\",\"attributes\":{\"rate\":12500"; do
			toxi POST /proxies/emulator/toxics "{\"name\":\"${kind%%\"*}_$stream\",\"stream\":\"$stream\",\"type\":\"$kind}}" >/dev/null
		done
	done
	wan_url=http://$listen
	export VIDEOHOST_BASE_URL="$wan_url"
}


# limit_flags prints the emulator's rate-limit flags of a limit set: none (1,000,000 a minute in
# every class), or the service's published limits of production or of the sandbox.
limit_flags() {
	case "$1" in
	none) echo "-rate-limit-uploads 1000000 -rate-limit-writes 1000000 -rate-limit-reads 1000000" ;;
	production) echo "-rate-limit-uploads 100 -rate-limit-writes 200 -rate-limit-reads 500" ;;
	sandbox) echo "-rate-limit-uploads 40 -rate-limit-writes 40 -rate-limit-reads 100" ;;
	esac
}
limit_words() {
	case "$1" in
	none) echo "none (1,000,000 a minute)" ;;
	production) echo "production (100 uploads a minute)" ;;
	sandbox) echo "sandbox (40 uploads a minute)" ;;
	esac
}
# Toxiproxy's 12,500 KB/s per connection, in bytes a second.
wan_rate=12500000

# wan_pair starts a fresh emulator under the limit set LIMITS and a fresh proxy in front of it.
wan_pair() {
	# shellcheck disable=SC2046 # the flags, one word each
	emulator "$1" $(limit_flags "$2")
	wan_proxy
}
wan_unpair() {
	lib_stop "$toxi_pid"
	lib_stop "$emu_pid"
	rm -rf "$tmp/emu-chunks"
}

# wan_apply NAME DIR runs terraform apply in DIR with the provider's debug log (for the shape
# the upload took), the file planned as new; sets apply_s, shape_n and shape_mib (the chunks in
# flight and the chunk size of the upload), and held: how many times the rate limiter held a
# call, and why.
wan_apply() {
	local name=$1 dir=$2
	rm -rf "$VIDEOHOST_FILE_HASH_CACHE_DIR"
	TF_LOG_PROVIDER=DEBUG TF_LOG_PATH="$tmp/$name.tflog" lib_tf_ok "$name" "$dir" apply -auto-approve
	apply_s=$lib_tf_seconds
	shape_n=$(grep -o 'chunks_in_flight=[0-9]*' "$tmp/$name.tflog" | tail -n 1 | cut -d= -f2)
	shape_mib=$(grep -o 'chunk_size_mib=[0-9.]*' "$tmp/$name.tflog" | tail -n 1 | cut -d= -f2)
	if [ -z "$shape_n" ] || [ -z "$shape_mib" ]; then
		lib_fail "$name: the provider's log has no upload shape line"
	fi
	held=$(grep -o 'videohost waiting for the rate limit: .*reason="[^"]*"' "$tmp/$name.tflog" | grep -o 'reason="[^"]*"' |
		sort | uniq -c | awk '{ $1 = $1; printf "%s%s", (NR > 1 ? ", " : ""), $0 }' || true)
	held=${held:-none}
	rm -f "$tmp/$name.tflog"
}

if want wan; then
	settings=(default "${flight_list[@]}" "${chosen_list[@]/%/c}")
	lib_say "bench-upload: wan: $wan_mib MiB through Toxiproxy (25 ms and 100 Mbit/s each way per connection), limits: ${limit_list[*]}; settings: ${settings[*]}; $wan_runs run(s)"
	toxiproxy_build
	random_file "$tmp/media/wan.bin" "$wan_mib"
	size=$(mib_bytes "$wan_mib")
	declare -A wan_applies=() wan_spans=() wan_floors=() wan_shapes=() wan_twice_first=() wan_twice_second=()
	declare -A wan_curl_shape=() wan_curl_shape_seen=() wan_row_shape=()
	wan_curls=()
	wan_rss=0
	for r in $(seq 1 "$wan_runs"); do
		wan_pair "emu-wan-c$r" none
		emu_url=$wan_url curl_upload "$tmp/media/wan.bin" "$size" "$(mib_bytes "$chunk_mib")"
		wan_curls+=("$curl_whole")
		wan_unpair
		lib_say "  run $r: curl $(fmt1 "$curl_whole") s"
		for l in "${limit_list[@]}"; do
			line="    $l:"
			for n in "${settings[@]}"; do
				wan_pair "emu-wan-$l-$n-$r" "$l"
				configuration "$tmp/wan" "$tmp/media/wan.bin" "$chunk_mib" "$n"
				wan_apply "apply-wan-$l-$n-$r" "$tmp/wan"
				source_span
				rss=$(lib_provider_rss)
				wan_rss=$((rss > wan_rss ? rss : wan_rss))
				check_video
				[ "$sha_ok/$video_count" = yes/1 ] || lib_fail "wan, $l, $n: the emulator does not hold one video with the file's SHA-256"
				wan_unpair
				rm -rf "$tmp/wan"
				# The floor: the file over shape_n connections' rate, plus what the apply spent
				# outside the upload (terraform's start, the plan's hash, the create, the end).
				floor=$(lib_calc "$size / ($shape_n * $wan_rate) + $apply_s - $span")
				wan_applies[$l/$n]="${wan_applies[$l/$n]:-} $apply_s"
				wan_spans[$l/$n]="${wan_spans[$l/$n]:-} $span"
				wan_floors[$l/$n]="${wan_floors[$l/$n]:-} $floor"
				wan_shapes[$l/$n]="$shape_n × $shape_mib MiB"
				# The same shape sent by curl, once a run and with no limit: where the model, and
				# not the provider, sets the row's ceiling.
				shape="$shape_n/$shape_mib"
				if [ -z "${wan_curl_shape_seen[$shape/$r]:-}" ]; then
					apply_span=$span
					wan_pair "emu-wan-curl-$shape_n-$r" none
					emu_url=$wan_url curl_parallel "$tmp/media/wan.bin" "$size" "$(lib_calc "$shape_mib * 1048576" | xargs printf '%.0f')" "$shape_n"
					wan_unpair
					wan_curl_shape[$shape]="${wan_curl_shape[$shape]:-} $span"
					wan_curl_shape_seen[$shape/$r]=1
					lib_say "      curl $shape_n at a time × $shape_mib MiB: first chunk in → source complete $(fmt1 "$span") s"
					span=$apply_span
				fi
				wan_row_shape[$l/$n]=$shape
				line="$line $n: $(fmt1 "$apply_s") s (upload $(fmt1 "$span") s, $shape_n × $shape_mib MiB, floor $(fmt1 "$floor") s; limiter held: $held);"
			done
			lib_say "$line"
		done
		if [ "$wan_twice" = yes ]; then
			# Two uploads in a row through the same emulator and proxy, as the second of a
			# pair of applies meets them: the window of the first still counts its chunks.
			for n in 4 default; do
				wan_pair "emu-wan-twice-$n-$r" none
				configuration "$tmp/wan1" "$tmp/media/wan.bin" "$chunk_mib" "$n" "bench-upload first"
				configuration "$tmp/wan2" "$tmp/media/wan.bin" "$chunk_mib" "$n" "bench-upload second"
				wan_apply "apply-wan-twice1-$n-$r" "$tmp/wan1"
				wan_twice_first[$n]="${wan_twice_first[$n]:-} $apply_s"
				held1=$held
				wan_apply "apply-wan-twice2-$n-$r" "$tmp/wan2"
				wan_twice_second[$n]="${wan_twice_second[$n]:-} $apply_s"
				[ "$(videos_total)" = 2 ] || lib_fail "wan, two in a row, $n: the emulator does not hold two videos"
				wan_unpair
				rm -rf "$tmp/wan1" "$tmp/wan2"
				lib_say "    two in a row, $n: $(fmt1 "${wan_twice_first[$n]##* }") s (limiter held: $held1) then $(fmt1 "$apply_s") s (limiter held: $held)"
			done
		fi
	done
	rm -f "$tmp/media/wan.bin"
	wan_curl=$(median "${wan_curls[@]}")
	label="long path, $wan_mib MiB, Toxiproxy: 25 ms and 100 Mbit/s each way per connection"
	row "$label" "curl: create, then $chunk_mib MiB Content-Range chunks one after another, one connection, no limit (median of $wan_runs)" "$(fmt1 "$wan_curl") s" "—" "—"
	for l in "${limit_list[@]}"; do
		for n in "${settings[@]}"; do
			# shellcheck disable=SC2086 # the lists of figures, one word each
			apply=$(median ${wan_applies[$l/$n]})
			# shellcheck disable=SC2086
			upload=$(median ${wan_spans[$l/$n]})
			# shellcheck disable=SC2086
			floor=$(median ${wan_floors[$l/$n]})
			ratio=$(lib_calc "$wan_curl / $apply")
			goal="—"
			# The goals are those of 1 GiB, where the last round of chunks and the plan's hash weigh
			# as they do for the sources people upload; a smaller run only prints its figures.
			if [ "$wan_mib" -ge 1024 ]; then
				case "$l/$n" in
				*/4) goal="≥ 3.2" ;;
				*/8 | */8c) goal="≥ 5.5" ;;
				sandbox/default) goal="≥ 5.0" ;;
				production/default) goal="≥ 6.0" ;;
				esac
			fi
			met="—"
			[ "$goal" = "—" ] || met=$(met_ge "$ratio" "${goal#≥ }")
			what="$(shape_words "$chunk_mib" "$n")"
			case "$n" in default | *c) what="$what (${wan_shapes[$l/$n]})" ;; esac
			# The provider's choice comes first: it opens each limit set's rows.
			first=""
			[ "$n" != default ] || first="limits: $(limit_words "$l")"
			# The model's own ceiling for the row: curl sending the same shape, plus what the apply
			# spent outside its upload.
			# shellcheck disable=SC2086
			cspan=$(median ${wan_curl_shape[${wan_row_shape[$l/$n]}]})
			ceiling=$(lib_calc "$wan_curl / ($cspan + $apply - $upload)")
			row "$first" "$what: curl / apply's whole wall ($(fmt1 "$apply") s, of which first chunk in → source complete $(fmt1 "$upload") s); floor $(printf '%.2f' "$(lib_calc "$wan_curl / $floor")"); the model's ceiling for the shape $(printf '%.2f' "$ceiling") (curl sending it: $(fmt1 "$cspan") s)" "$(printf '%.2f' "$ratio")" "$goal" "$met"
		done
	done
	row "" "provider peak RSS, the largest of every long-path run" "$wan_rss MiB" "< 64 MiB" "$(lib_met_le "$wan_rss" 63)"
	if [ "$wan_twice" = yes ]; then
		for n in 4 default; do
			# shellcheck disable=SC2086
			one=$(median ${wan_twice_first[$n]})
			# shellcheck disable=SC2086
			two=$(median ${wan_twice_second[$n]})
			ok=$(met_ge "$(lib_calc "$one / $two")" 0.9)
			row "$( [ "$n" = 4 ] && echo "two uploads in a row, one emulator and proxy, no limit")" "$(shape_words "$chunk_mib" "$n"): curl / apply, the first then the second ($(fmt1 "$one") s, $(fmt1 "$two") s)" "$(printf '%.2f / %.2f' "$(lib_calc "$wan_curl / $one")" "$(lib_calc "$wan_curl / $two")")" "second ≥ 0.9 × first" "$ok"
		done
	fi
fi

lib_say ""
lib_say "Machine: $machine"
lib_say "Loopback (the long path's rows: through Toxiproxy); peak RSS by GNU time %M; upload time from the first chunk's arrival at the emulator to its source complete (hashed)"
lib_say ""
lib_table "scenario|measure|figure|goal|met?" "${rows[@]}"
if [ -n "$must_failed" ]; then
	lib_say ""
	lib_say "bench-upload: a must failed:${must_failed#;}" >&2
	exit 1
fi
