#!/usr/bin/env bash
# The one-command demo (`make demo`): the provider against the local emulator of the service.
#
# It builds the provider, the emulator and a small webhook receiver; starts the emulator and the
# receiver on free loopback ports; applies examples/demo (three webhooks pointing at the receiver,
# data sources over the seeded videos and the webhooks) from a temporary copy with a dev_overrides
# CLI configuration; triggers events through the emulator's control API and shows every delivery
# with its signature checked; shows that a second plan is empty; finds a webhook created outside
# Terraform with terraform query (Terraform 1.14 and later) and imports it; destroys; and stops
# everything it started, on success, on failure and on Ctrl-C.
#
# Nothing outside its temporary directory is written: not ~/.terraformrc, not the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=demo

steps=9
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

tf() {
	"$TERRAFORM" -chdir="$work" "$@"
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
lib_start emulator "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key" \
	-seed-videos 5 -seed-live-streams 2 -delivery-retry-delay 1s
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
step "Apply examples/demo from a temporary copy, with a dev_overrides CLI configuration"
work="$tmp/work"
mkdir -p "$work"
cp "$root"/examples/demo/*.tf "$work"/
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
# The outputs go through a file: grep -q stops at the first match, and under pipefail the
# writer's SIGPIPE would turn a leak found into a pipeline that failed, read as no leak.
tf output -no-color >"$tmp/outputs.txt"
if grep -qF -e "$ingest_key" -e "$TF_VAR_restream_key" "$tmp/apply.txt" "$tmp/outputs.txt"; then
	lib_fail "a stream key appears in terraform's output"
fi
unset ingest_key

# ----------------------------------------------------------------------------------------------
step "Plan again: nothing to change"
plan_rc=0
tf_run plan2 '^(No changes|Plan:|Changes to Outputs)' plan -detailed-exitcode || plan_rc=$?
case "$plan_rc" in
0) lib_say "    terraform plan -detailed-exitcode returned 0: the state matches the service" ;;
*) lib_fail "the second plan is not empty or failed (exit $plan_rc)" ;;
esac

# ----------------------------------------------------------------------------------------------
step "Trigger events through the emulator's control API"
video_id=$(control POST /videos '{"title":"Demo upload","duration":20,"tags":["demo"]}' | json_string videoId)
[ -n "$video_id" ] || lib_fail "the emulator returned no videoId for the upload"
lib_say "    uploaded video $video_id (one video.encoding.quality.completed per encoded quality)"
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
tail -n +2 "$tmp/receiver.out" | sed 's/^/    /'
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
lib_say "    (step $step took $((SECONDS - step_started)) s)"
