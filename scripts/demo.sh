#!/usr/bin/env bash
# The one-command demo (`make demo`): the provider against the local emulator of the service.
#
# It builds the provider, the emulator and a small webhook receiver; starts the emulator (its
# encoding sped up) and the receiver on free loopback ports; applies examples/demo/main.tf (three
# webhooks pointing at the receiver, a player theme, a live stream, data sources over the seeded
# videos and the webhooks) from a temporary copy with a dev_overrides CLI configuration; hands the
# webhooks' secrets to the receiver; adds examples/demo/videos.tf and applies again (a generated
# file uploaded in two chunks as a video with a generated watermark, waited for until playable,
# captions from a generated WebVTT file, a short-lived upload token) and shows the encoding
# events the receiver verified, one per quality; shows that a further plan is empty; uploads a
# second video with the upload token alone; triggers events through the emulator's control API
# and shows every delivery with its signature checked; finds a webhook created outside Terraform
# with terraform query (Terraform 1.14 and later) and imports it; destroys; and stops everything
# it started, on success, on failure and on Ctrl-C. No secret (stream keys, the upload token)
# appears in anything it prints or logs, which it checks.
#
# Nothing outside its temporary directory is written: not ~/.terraformrc, not the repository.
# Its media (random bytes, WebVTT, a PNG) are generated there too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=demo

steps=11
step=0
started=$SECONDS
step_started=$SECONDS
tmp=""

step() {
	if [ "$step" -gt 0 ]; then
		lib_say "    (step $step took $((SECONDS - step_started)) s)"
	fi
	step=$((step + 1))
	step_started=$SECONDS
	lib_say ""
	lib_say "==> Step $step/$steps: $*"
}

# cleanup stops every process group the demo started, then removes its temporary directory. It
# runs on every exit; INT and TERM exit through it too.
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	set +e
	if [ "$rc" -ne 0 ] && [ -n "$tmp" ]; then
		lib_say "" >&2
		case "$rc" in
		130 | 143) lib_say "demo: interrupted in step $step/$steps; stopping what it started" >&2 ;;
		*) lib_say "demo: FAILED in step $step/$steps (exit $rc)" >&2 ;;
		esac
		for log in emulator.err receiver.out receiver.err; do
			if [ -s "$tmp/$log" ]; then
				lib_say "---- last lines of $log ----" >&2
				tail -n 20 "$tmp/$log" >&2
			fi
		done
	fi
	# Each process was started as the leader of its own group, so stopping the group also
	# reaches anything it started.
	lib_stop_all
	if [ -n "$tmp" ]; then
		rm -rf "$tmp"
	fi
	if [ "$rc" -eq 0 ]; then
		lib_say ""
		lib_say "==> Demo finished in $((SECONDS - started)) s; everything it started is stopped."
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# control calls the emulator's control API and prints the answer; it fails on an HTTP error.
control() {
	local method=$1 path=$2 body=${3:-}
	local args=(-sS --fail-with-body --max-time 10 -X "$method" -H 'Content-Type: application/json')
	if [ -n "$body" ]; then
		args+=(--data "$body")
	fi
	curl "${args[@]}" "$emulator_url/_emulator$path" || lib_fail "control API: $method $path failed"
}

# json_string prints the value of the first string member named $1 of the JSON on stdin. The
# demo parses with sed so that it needs nothing beyond curl on a fresh machine.
json_string() {
	tr -d '\n' | grep -o '"'"$1"'"[[:space:]]*:[[:space:]]*"[^"]*"' | sed -n 1p | sed 's/.*"\([^"]*\)"$/\1/'
}

# json_number prints the value of the first number member named $1 of the JSON on stdin.
json_number() {
	tr -d '\n' | grep -o '"'"$1"'"[[:space:]]*:[[:space:]]*[0-9]*' | sed -n 1p | sed 's/.*[^0-9]//'
}

# api_get GETs a path of the service with the API key, as any client would, and prints the
# answer; it fails on an HTTP error.
api_get() {
	curl -sS --fail-with-body --max-time 10 -u "$api_key:" "$emulator_url$1" || lib_fail "GET $1 failed"
}

tf() {
	"$TERRAFORM" -chdir="$work" "$@"
}

# add_secret adds a secret to the list that no_secret_shown looks for. The list is a file of
# the temporary directory (mode 600), so that no secret is ever on a command line.
add_secret() {
	[ -n "$1" ] || lib_fail "add_secret: an empty secret would match everything"
	printf '%s\n' "$1" >>"$tmp/keys/shown-nowhere.txt"
	chmod 600 "$tmp/keys/shown-nowhere.txt"
}

# no_secret_shown fails when a secret of the list appears in anything the demo printed or
# logged: terraform's runs and outputs (*.txt), the receiver's and the emulator's output, the
# answers it kept (*.json). The keys directory and the state are left out: they hold secrets
# by design.
no_secret_shown() {
	local f files=()
	tf output -no-color >"$tmp/outputs.txt"
	for f in "$tmp"/*.txt "$tmp"/*.out "$tmp"/*.err "$tmp"/*.json; do
		if [ -f "$f" ]; then
			files+=("$f")
		fi
	done
	# grep -q stops at the first match; reading files (not a pipe) keeps a leak found from
	# turning into a pipeline that failed under pipefail, read as no leak.
	if grep -qF -f "$tmp/keys/shown-nowhere.txt" "${files[@]}"; then
		lib_fail "a secret ($1) appears in $(grep -lF -f "$tmp/keys/shown-nowhere.txt" "${files[@]}" | sed "s|^$tmp/||" | tr '\n' ' ')"
	fi
}

# tf_run runs a terraform command with its whole output in $tmp/<log>.txt, and shows it indented
# without the expected warning about development overrides (or only the lines matching $filter,
# when given), up to its outputs. It returns terraform's exit code.
tf_run() {
	local log="$tmp/$1.txt" filter=$2
	shift 2
	local rc
	set +e
	tf "$@" -input=false -no-color >"$log" 2>&1
	rc=$?
	set -e
	if [ "$rc" -ne 0 ]; then
		cat "$log"
	elif [ -n "$filter" ]; then
		grep -E "$filter" "$log" | sed 's/^/    /' || true
	else
		# The apply's outputs are left out: the next step prints them.
		awk '/^Warning: Provider development overrides are in effect/ { skip = 1; next }
			skip && /^releases\.$/ { skip = 0; blank = 1; next }
			skip { next }
			blank && /^$/ { blank = 0; next }
			{ blank = 0 }
			/^Outputs:$/ { exit }
			!printed && /^$/ { next }
			{ printed = 1; print "    " $0 }' "$log"
	fi
	return "$rc"
}

# ----------------------------------------------------------------------------------------------
step "Build the provider, the emulator and the webhook receiver"
lib_need go "install Go (the version in go.mod)"
lib_need_terraform
lib_need curl "install curl; the demo drives the emulator's control API with it"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-demo.XXXXXX")
lib_tmp=$tmp
mkdir -p "$tmp/bin" "$tmp/keys"
# One go build for the three, so that their packages compile in parallel; each binary is named
# after its directory (the module's for the provider).
lib_say "    go build of the three (the first run downloads the modules and compiles every dependency, about"
lib_say "    a minute on two cores; later runs take seconds)"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator ./cmd/videohost-receiver &
build_pid=$!
# A line every 15 s while it compiles, so that a first run does not look stuck.
build_started=$SECONDS
build_next=15
while kill -0 "$build_pid" 2>/dev/null; do
	sleep 1
	if kill -0 "$build_pid" 2>/dev/null && [ $((SECONDS - build_started)) -ge "$build_next" ]; then
		lib_say "    still compiling ($((SECONDS - build_started)) s)"
		build_next=$((build_next + 15))
	fi
done
wait "$build_pid" || lib_fail "go build failed (its errors are above)"
[ -x "$tmp/bin/terraform-provider-videohost" ] || lib_fail "the provider binary was not built as terraform-provider-videohost"
lib_say "    built into $tmp/bin"

# ----------------------------------------------------------------------------------------------
step "Start the emulator and the webhook receiver on free loopback ports"
# A fresh random key per run, so no key is ever written into the repository.
api_key="demo_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
# Ingest and encoding sped up (100 ms per ingest step, 50 ms per quality instead of 500 and
# 250), so that the uploaded video is playable, then encoded, within a second or two.
lib_start emulator "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" \
	-seed-videos 5 -seed-live-streams 2 -delivery-retry-delay 1s \
	-ingest-delay 100ms -encoding-delay 50ms
emulator_pid=$lib_last_pid
emulator_url=$(lib_first_line emulator "$emulator_pid")
case "$emulator_url" in
http://127.0.0.1:*) ;;
*) lib_fail "the emulator's first line is not its address: $emulator_url" ;;
esac
lib_wait_http "$emulator_url/_emulator/"
lib_say "    emulator: $emulator_url (control API at $emulator_url/_emulator/)"

lib_start receiver "$tmp/bin/videohost-receiver" -listen 127.0.0.1:0 \
	-secrets "$tmp/keys/managed.json" -secrets "$tmp/keys/imported.json"
receiver_pid=$lib_last_pid
receiver_url=$(lib_first_line receiver "$receiver_pid")
lib_say "    receiver: $receiver_url (checks X-Service-Signature of every delivery)"

# ----------------------------------------------------------------------------------------------
step "Apply examples/demo/main.tf from a temporary copy, with a dev_overrides CLI configuration"
work="$tmp/work"
mkdir -p "$work"
# videos.tf joins in step 5, once the receiver can check the encoding events' signatures.
cp "$root/examples/demo/main.tf" "$work"/
lib_dev_overrides "$tmp/dev.tfrc" "$tmp/bin"
export TF_CLI_CONFIG_FILE="$tmp/dev.tfrc"
export TF_IN_AUTOMATION=1
export CHECKPOINT_DISABLE=1
export VIDEOHOST_API_KEY="$api_key"
export VIDEOHOST_BASE_URL="$emulator_url"
export TF_VAR_receiver_url="$receiver_url"
# The restream's key, as a secret store would hand it over; never printed.
TF_VAR_restream_key="rk_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export TF_VAR_restream_key
lib_clean_tf_env
# With dev_overrides Terraform needs no `terraform init` for this provider, the only one used.
tf_run apply "" apply -auto-approve || lib_fail "terraform apply failed"

# ----------------------------------------------------------------------------------------------
step "Show the outputs, and hand the signature secrets to the receiver"
tf output -no-color | sed 's/^/    /'
# The secrets go from Terraform to the receiver through a file of the temporary directory; they
# are never printed.
tf output -json webhook_secrets >"$tmp/keys/managed.json"
chmod 600 "$tmp/keys/managed.json"
lib_say "    wrote the receiver's key ring ($(grep -o '"webhook[^"]*"' "$tmp/keys/managed.json" | wc -l | tr -d ' ') webhook ids; secrets not shown)"
stream_id=$(tf output -json ingest | json_string live_stream_id)
[ -n "$stream_id" ] || lib_fail "the ingest output has no live_stream_id"
lib_say "    the studio's encoder broadcasts to rtmp://broadcast.api.video/s with the key of live stream $stream_id"
lib_say "    (terraform output -raw ingest_key gives it to whoever sets up the encoder; the demo never prints it)"
# The keys must not appear in anything the demo printed or logged.
ingest_key=$(tf output -raw ingest_key)
[ -n "$ingest_key" ] || lib_fail "the live stream has no stream key"
add_secret "$ingest_key"
add_secret "$TF_VAR_restream_key"
unset ingest_key
no_secret_shown "a stream key"
lib_say "    neither stream key appears in terraform's output or in any log of the demo"

# ----------------------------------------------------------------------------------------------
step "Upload a video with Terraform: a generated file in two chunks, a watermark, captions, an upload token"
media="$tmp/media"
mkdir -p "$media"
# The media are made here, never kept in the repository. The emulator takes any bytes as a video
# source: 6 MiB of random bytes go in two chunks of the 5 MiB that main.tf asks for.
head -c $((6 * 1024 * 1024)) /dev/urandom >"$media/video.mp4"
cat >"$media/en.vtt" <<'EOF'
WEBVTT

00:00:00.000 --> 00:00:02.000
Welcome to the videohost demo.

00:00:02.000 --> 00:00:04.000
Terraform uploaded this video, its watermark and these captions.
EOF
# The smallest PNG: one transparent pixel (the signature, then the IHDR, IDAT and IEND chunks,
# each with its CRC).
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89' >"$media/watermark.png"
printf '\x00\x00\x00\rIDATx\xdacd`\xf8_\x0f\x00\x02\x87\x01\x80\xebG\xba\x92' >>"$media/watermark.png"
printf '\x00\x00\x00\x00IEND\xaeB`\x82' >>"$media/watermark.png"
lib_say "    generated in $media: video.mp4 ($(wc -c <"$media/video.mp4" | tr -d ' ') random bytes), en.vtt (two cues), watermark.png (1 x 1)"
cp "$root/examples/demo/videos.tf" "$work"/
export TF_VAR_media_dir="$media"
lib_say "    added examples/demo/videos.tf to the working copy; terraform apply:"
tf_run apply-videos '(: Creat|: Still creating|Apply complete)' apply -auto-approve || lib_fail "terraform apply of videos.tf failed"
tf output -no-color video | sed 's/^/    /'
launch_id=$(tf output -json video | json_string id)
[ -n "$launch_id" ] || lib_fail "the video output has no id"
lib_say "    upload token $(tf output -raw upload_token_fingerprint) (its fingerprint) expires at $(tf output -raw upload_token_expires_at)"
# The service holds the whole file: its size, and the SHA-256 Terraform took at plan time.
source_json=$(control GET "/videos/$launch_id/source")
source_size=$(json_number size <<<"$source_json")
[ "$source_size" = "$(wc -c <"$media/video.mp4" | tr -d ' ')" ] ||
	lib_fail "the service holds ${source_size:-no} bytes of the source, not the file's"
[ "$(json_string sha256 <<<"$source_json")" = "$(tf output -json video | json_string source_sha256)" ] ||
	lib_fail "the SHA-256 of the source on the service is not the file's"
# The emulator's request counts (GET /_emulator/stats) say how many requests sent the source.
chunks=$(control GET /stats | tr -d '\n' |
	{ grep -o "\"path\"[[:space:]]*:[[:space:]]*\"/videos/$launch_id/source\"[[:space:]]*,[[:space:]]*\"count\"[[:space:]]*:[[:space:]]*[0-9]*" || true; } |
	sed 's/.*[^0-9]//')
lib_say "    the service holds all $source_size bytes (SHA-256 as planned), sent in ${chunks:-?} chunks"
[ "${chunks:-0}" -ge 2 ] || lib_fail "the source went in ${chunks:-no} requests, not in chunks"
# The apply ended once the video was playable; the other qualities follow. Each one encoded is
# one video.encoding.quality.completed delivery to the encoding webhook.
encoded=""
for _ in $(seq 1 150); do
	status=$(api_get "/videos/$launch_id/status")
	qualities=$(tr -d '\n' <<<"$status" | grep -o '"quality"[[:space:]]*:' | wc -l | tr -d ' ')
	if [ "$qualities" -gt 0 ] && ! grep -q '"status"[[:space:]]*:[[:space:]]*"\(waiting\|encoding\)"' <<<"$status"; then
		encoded=yes
		break
	fi
	sleep 0.2
done
[ -n "$encoded" ] || lib_fail "video $launch_id was not encoded within 30 s"
pattern="event=video.encoding.quality.completed .*videoId=$launch_id: signature verified\$"
got=0
for _ in $(seq 1 100); do
	got=$(grep -c "$pattern" "$tmp/receiver.out" || true)
	[ "$got" -ge "$qualities" ] && break
	sleep 0.1
done
lib_say "    the receiver's deliveries for $launch_id, each signature checked:"
grep "videoId=$launch_id" "$tmp/receiver.out" | sed 's/^/    /'
distinct=$(grep "$pattern" "$tmp/receiver.out" | grep -o 'encoding=[^ ]* quality=[^ ]*' | sort -u | wc -l | tr -d ' ')
if [ "$distinct" -ne "$qualities" ] || [ "$got" -ne "$qualities" ]; then
	lib_fail "$got verified video.encoding.quality.completed deliveries ($distinct distinct) for $qualities qualities of $launch_id"
fi
if grep -q 'SIGNATURE' "$tmp/receiver.out"; then
	lib_fail "some deliveries did not verify"
fi
lib_say "    $got qualities encoded, $got video.encoding.quality.completed deliveries verified: one per quality"
shown=$(wc -l <"$tmp/receiver.out")
add_secret "$(tf output -raw upload_token)"
no_secret_shown "the upload token"
lib_say "    the upload token appears in no output (terraform output -raw upload_token gives it)"

# ----------------------------------------------------------------------------------------------
step "Plan again: nothing to change"
plan_rc=0
tf_run plan2 '^(No changes|Plan:|Changes to Outputs)' plan -detailed-exitcode || plan_rc=$?
case "$plan_rc" in
0) lib_say "    terraform plan -detailed-exitcode returned 0: the state matches the service" ;;
*) lib_fail "the second plan is not empty or failed (exit $plan_rc)" ;;
esac

# ----------------------------------------------------------------------------------------------
step "Upload a second video with the upload token alone, as a partner would"
head -c $((1024 * 1024)) /dev/urandom >"$media/partner-clip.mp4"
# The token goes from terraform output to curl through a configuration read on stdin: never on a
# command line, never printed. No API key goes with it: the token is the only credential.
upload_code=$(printf 'url = "%s/upload?token=%s"\n' "$emulator_url" "$(tf output -raw upload_token)" |
	curl -sS --max-time 30 -K - -F "file=@$media/partner-clip.mp4" -o "$tmp/upload.json" -w '%{http_code}') ||
	lib_fail "POST /upload?token= failed"
# The answer is shown on failure without any line that holds a secret, in case one echoes it.
[ "$upload_code" = 201 ] ||
	lib_fail "POST /upload?token= answered $upload_code: $(grep -vF -f "$tmp/keys/shown-nowhere.txt" "$tmp/upload.json" || true)"
partner_id=$(json_string videoId <"$tmp/upload.json")
[ -n "$partner_id" ] || lib_fail "POST /upload?token= answered no videoId"
lib_say "    POST /upload?token=(the token) with partner-clip.mp4 ($(wc -c <"$media/partner-clip.mp4" | tr -d ' ') bytes): 201, video $partner_id"
# The video is in the workspace: GET /videos/{id} with the API key finds it, titled after the file.
partner_title=$(api_get "/videos/$partner_id" | json_string title)
lib_say "    GET /videos/$partner_id with the API key: \"$partner_title\""
[ "$partner_title" = partner-clip.mp4 ] || lib_fail "the partner's video is titled '$partner_title', not after its file"
lib_say "    the workspace now holds $(api_get /videos | json_number itemsTotal) videos: 5 seeded, the one Terraform manages and the partner's"
no_secret_shown "the upload token"

# ----------------------------------------------------------------------------------------------
step "Trigger events through the emulator's control API"
# The partner's video stands for any video outside Terraform: its generated caption cannot
# clash with the captions Terraform manages.
video_id=$partner_id
# The encoder of the Terraform-managed studio starts and stops; the emulator stands in for it.
control POST "/live-streams/$stream_id/broadcast/start" >/dev/null
lib_say "    live stream $stream_id (managed by Terraform) started broadcasting"
control POST "/live-streams/$stream_id/broadcast/end" >/dev/null
lib_say "    live stream $stream_id ended its broadcast"
control POST "/live-streams/$stream_id/record" '{"duration":15}' >/dev/null
lib_say "    live stream $stream_id recorded"
control POST "/videos/$video_id/captions" '{"language":"en"}' >/dev/null
lib_say "    caption generated for $video_id"
control POST "/videos/$video_id/summary" >/dev/null
lib_say "    summary generated for $video_id"

# ----------------------------------------------------------------------------------------------
step "Show what the receiver got, each signature checked"
# Every event type triggered above must arrive, verified; the wait is bounded.
want_types="video.encoding.quality.completed live-stream.broadcast.started live-stream.broadcast.ended video.source.recorded video.caption.generated video.summary.generated"
all_seen=""
for _ in $(seq 1 150); do
	all_seen=yes
	for t in $want_types; do
		grep -q "event=$t .*: signature verified\$" "$tmp/receiver.out" || {
			all_seen=""
			break
		}
	done
	[ -n "$all_seen" ] && break
	sleep 0.2
done
sleep 0.5 # late deliveries of the same burst
# The deliveries since those step 5 showed: the partner upload's encoding among them.
tail -n +"$((shown + 1))" "$tmp/receiver.out" | sed 's/^/    /'
verified=$(grep -c ': signature verified$' "$tmp/receiver.out" || true)
mismatched=$(grep -c 'SIGNATURE' "$tmp/receiver.out" || true)
lib_say "    $verified deliveries verified, $mismatched refused"
[ -n "$all_seen" ] || lib_fail "not every triggered event reached the receiver with a valid signature within 30 s"
[ "$mismatched" -eq 0 ] || lib_fail "some deliveries did not verify"
for t in live-stream.broadcast.started live-stream.broadcast.ended; do
	grep -q "event=$t .*$stream_id.*: signature verified\$" "$tmp/receiver.out" ||
		lib_fail "no verified $t delivery names the managed live stream $stream_id"
done
lib_say "    the broadcast events of the managed live stream $stream_id arrived signed and verified"

# ----------------------------------------------------------------------------------------------
step "Import a webhook created outside Terraform"
outside_url="$receiver_url/outside"
outside_id=$(control POST /webhooks "{\"url\":\"$outside_url\",\"events\":[\"video.summary.generated\"]}" | json_string webhookId)
[ -n "$outside_id" ] || lib_fail "the emulator returned no webhookId"
lib_say "    created $outside_id through the control API, as the dashboard would"
# terraform query (Terraform 1.14 and later) finds it by its url, the way a user who does not
# know its id would; an older Terraform or OpenTofu has no query, and the id of the control
# API's answer stands in.
if "$TERRAFORM" query -help >/dev/null 2>&1; then
	cat >"$work/find.tfquery.hcl" <<'EOF'
list "videohost_webhook" "summaries" {
  provider = videohost
  config {
    event = "video.summary.generated"
  }
}
EOF
	lib_say "    terraform query over the webhooks of video.summary.generated:"
	# terraform query takes no -input flag, so it runs without tf_run.
	tf query -no-color >"$tmp/query.txt" 2>&1 || {
		cat "$tmp/query.txt"
		lib_fail "terraform query failed"
	}
	grep '^list\.' "$tmp/query.txt" | sed 's/^/    /' || true
	found_id=$(grep -F " $outside_url (" "$tmp/query.txt" | grep -o 'id=[^ ]*' | sed -n 1p | cut -d= -f2)
	[ "$found_id" = "$outside_id" ] || lib_fail "terraform query did not find the webhook made outside Terraform ($outside_id at $outside_url)"
	lib_say "    terraform query found $found_id by its url"
	rm -f "$work/find.tfquery.hcl"
else
	lib_say "    skipping terraform query: it needs Terraform 1.14 or later, and $("$TERRAFORM" version 2>/dev/null | sed -n 1p) has none; the id comes from the control API's answer"
fi
cat >"$work/imported.tf" <<EOF
import {
  to = videohost_webhook.outside
  id = "$outside_id"
}

resource "videohost_webhook" "outside" {
  url    = "$outside_url"
  events = ["video.summary.generated"]
}

output "imported_webhook_secrets" {
  value     = { (videohost_webhook.outside.id) = videohost_webhook.outside.signature_secret }
  sensitive = true
}
EOF
lib_say "    wrote an import block into the working copy; its plan:"
tf_run plan-import '^(  # |Plan:|No changes)' plan || lib_fail "the plan of the import failed"
lib_say "    applying it:"
tf_run apply-import '(Import complete|Importing|Apply complete)' apply -auto-approve || lib_fail "the import apply failed"
plan_rc=0
tf_run plan3 '^(No changes|Plan:|Changes to Outputs)' plan -detailed-exitcode || plan_rc=$?
[ "$plan_rc" -eq 0 ] || lib_fail "the plan after the import is not empty or failed (exit $plan_rc)"
lib_say "    terraform plan -detailed-exitcode after the import returned 0"
# The secret came back with the import: a delivery to the imported webhook verifies with it.
tf output -json imported_webhook_secrets >"$tmp/keys/imported.json"
chmod 600 "$tmp/keys/imported.json"
seen_before=$(wc -l <"$tmp/receiver.out")
control POST "/videos/$video_id/summary" >/dev/null
lib_say "    a new summary goes to both webhooks of video.summary.generated: the managed /ai and the imported"
lib_say "    /outside, whose signature is checked with the secret the import read:"
got=""
for _ in $(seq 1 100); do
	new=$(tail -n +"$((seen_before + 1))" "$tmp/receiver.out")
	if grep -q "webhook=$outside_id .*: signature verified\$" <<<"$new" &&
		grep -q "^delivery [0-9]* /ai .*event=video.summary.generated .*: signature verified\$" <<<"$new"; then
		got=yes
		break
	fi
	sleep 0.1
done
# Every delivery since the trigger, so that the numbering has no gap.
tail -n +"$((seen_before + 1))" "$tmp/receiver.out" | sed 's/^/    /'
[ -n "$got" ] || lib_fail "the new summary did not reach both the managed and the imported webhook, verified with their secrets"

# ----------------------------------------------------------------------------------------------
step "Destroy"
tf_run destroy '(Destroy complete|Destruction complete)' destroy -auto-approve || lib_fail "terraform destroy failed"
# GET /webhooks with the key, as any client would; itemsTotal counts every page.
left=$(curl -sS --fail-with-body --max-time 10 -u "$api_key:" "$emulator_url/webhooks" | json_number itemsTotal) ||
	lib_fail "GET /webhooks failed after the destroy"
lib_say "    webhooks left on the service (GET /webhooks itemsTotal): $left"
[ "$left" = 0 ] || lib_fail "the destroy left ${left:-an unknown number of} webhooks behind"
curl -sS --fail-with-body --max-time 10 -u "$api_key:" "$emulator_url/live-streams/$stream_id" >/dev/null 2>&1 &&
	lib_fail "the managed live stream $stream_id is still on the service after the destroy"
themes=$(curl -sS --fail-with-body --max-time 10 -u "$api_key:" "$emulator_url/players" | json_number itemsTotal) ||
	lib_fail "GET /players failed after the destroy"
lib_say "    the managed live stream is gone; player themes left: $themes"
[ "$themes" = 0 ] || lib_fail "the destroy left ${themes:-an unknown number of} player themes behind"
curl -sS --fail-with-body --max-time 10 -u "$api_key:" "$emulator_url/videos/$launch_id" >/dev/null 2>&1 &&
	lib_fail "the managed video $launch_id is still on the service after the destroy"
watermarks=$(api_get /watermarks | json_number itemsTotal)
tokens=$(api_get /upload-tokens | json_number itemsTotal)
lib_say "    the managed video is gone (its captions with it); watermarks left: $watermarks, upload tokens left: $tokens"
[ "$watermarks" = 0 ] || lib_fail "the destroy left ${watermarks:-an unknown number of} watermarks behind"
[ "$tokens" = 0 ] || lib_fail "the destroy left ${tokens:-an unknown number of} upload tokens behind"
api_get "/videos/$partner_id" >/dev/null
lib_say "    the partner's video $partner_id stays: Terraform never managed it"
# The last look for a leak covers every log the later steps wrote.
no_secret_shown "a stream key or the upload token"
lib_say "    no stream key and no upload token in anything the demo printed or logged"
lib_say "    (step $step took $((SECONDS - step_started)) s)"
