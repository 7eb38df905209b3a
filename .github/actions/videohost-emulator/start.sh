#!/usr/bin/env bash
# Starts $RUNNER_TEMP/videohost-emulator/videohost-emulator on a free loopback port (port 0: the
# emulator picks one and prints its address first), waits until it answers an authenticated
# GET /webhooks, then hands the job its address and key: VIDEOHOST_BASE_URL and
# VIDEOHOST_API_KEY in $GITHUB_ENV (every later step), base-url and api-key in $GITHUB_OUTPUT,
# and its pid in $GITHUB_STATE for the post step (stop.sh).
#
#   EMULATOR_API_KEY  the key (default: a random one)
#   EMULATOR_ARGS     more flags, split on white space
set -euo pipefail
dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/videohost-emulator
bin=$dir/videohost-emulator
log=$dir/emulator.log
say() { printf 'videohost-emulator: %s\n' "$*"; }
fail() {
	printf '::error title=videohost emulator::%s\n' "$*"
	[ -f "$log" ] && tail -n 20 "$log"
	exit 1
}
[ -x "$bin" ] || fail "$bin is missing: get.sh runs first"
for f in GITHUB_ENV GITHUB_OUTPUT GITHUB_STATE; do
	[ -n "${!f:-}" ] || fail "$f is not set: this runs as a step of a GitHub Actions job"
done
key=${EMULATOR_API_KEY:-ci_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}
# shellcheck disable=SC2206 # the extra flags are split on white space by design
extra=(${EMULATOR_ARGS:-})
# In the background, immune to the step's hangup: the runner leaves a step's background
# processes running until the job ends, and the post step (stop.sh) ends this one.
nohup "$bin" -listen 127.0.0.1:0 -api-key "$key" ${extra[@]+"${extra[@]}"} >"$log" 2>&1 </dev/null &
pid=$!
url=""
for _ in $(seq 1 300); do
	kill -0 "$pid" 2>/dev/null || fail "the emulator exited at start"
	url=$(head -n 1 "$log" 2>/dev/null | grep -Eo '^https?://[^ ]+' || true)
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || fail "the emulator printed no address within 30 s"
code=""
for _ in $(seq 1 300); do
	code=$(curl -s -k -o /dev/null -w '%{http_code}' --max-time 2 -u "$key:" "$url/webhooks" || true)
	[ "$code" = 200 ] && break
	sleep 0.1
done
[ "$code" = 200 ] || fail "the emulator at $url did not answer GET /webhooks with 200 within 30 s (last: $code)"
{
	echo "VIDEOHOST_BASE_URL=$url"
	echo "VIDEOHOST_API_KEY=$key"
} >>"$GITHUB_ENV"
{
	echo "base-url=$url"
	echo "api-key=$key"
} >>"$GITHUB_OUTPUT"
echo "pid=$pid" >>"$GITHUB_STATE"
say "emulator $pid answers at $url; VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY are set for the next steps"
