#!/usr/bin/env bash
# Starts $RUNNER_TEMP/videohost-emulator/videohost-emulator on a free loopback port (port 0: the
# emulator picks one and prints its address first), waits until it answers an authenticated
# GET /webhooks, then hands the job its address and key: VIDEOHOST_BASE_URL and
# VIDEOHOST_API_KEY in $GITHUB_ENV (every later step), base-url and api-key in $GITHUB_OUTPUT,
# and its pid in $GITHUB_STATE for the post step (stop.sh).
#
#   EMULATOR_API_KEY  the key (default: a random one)
#   EMULATOR_ARGS     more flags, on one line, split into words on white space and passed as
#                     they are: no quotes, no globbing, no variables ("-control-allow-origin *"
#                     passes "*")
#
# Both are refused when they hold a line break (CR or LF), before anything is written or
# printed: the key is a line of $GITHUB_ENV, where a line break would add a variable of its
# choosing (NODE_OPTIONS, PATH) to every later step, and a mask is one line of the log. The whole
# key is then masked (::add-mask::) before anything can print it, and this script prints it as
# "***" itself, so that the job log never shows it even off GitHub. When the emulator fails to
# start, the error annotation carries the emulator's own error first (the flag it refused, the
# address it could not take), not the usage text Go's flag package prints after it.
set -euo pipefail
dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/videohost-emulator
bin=$dir/videohost-emulator
log=$dir/emulator.log
say() { printf 'videohost-emulator: %s\n' "$*"; }
key=""
# redact prints stdin with the key replaced by ***. The key reaches awk through its environment,
# taken as it is: awk -v would decode a backslash in it, and miss the key as written.
redact() {
	if [ -n "$key" ]; then
		REDACT_KEY=$key awk 'BEGIN { k = ENVIRON["REDACT_KEY"] } { while ((i = index($0, k)) > 0) $0 = substr($0, 1, i - 1) "***" substr($0, i + length(k)); print }'
	else
		cat
	fi
}
fail() {
	printf '::error title=videohost emulator::%s\n' "$*" | redact
	if [ -f "$log" ]; then
		say "the last lines of its log ($log):"
		tail -n 20 "$log" | redact
	fi
	exit 1
}
# emulator_error prints what the emulator said was wrong: the lines of its log before Go's usage
# text ("flag provided but not defined: -x" comes first, then "videohost-emulator runs ..."), or
# its own "videohost-emulator: ..." lines, at most five.
emulator_error() {
	awk 'NR == 1 && !/^videohost-emulator runs / { print; next }
		/^videohost-emulator: / { print }' "$log" | head -n 5 | redact
}
[ -x "$bin" ] || fail "$bin is missing: get.sh runs first"
for f in GITHUB_ENV GITHUB_OUTPUT GITHUB_STATE; do
	[ -n "${!f:-}" ] || fail "$f is not set: this runs as a step of a GitHub Actions job"
done
# The refusal names the input, never its value: the key is not masked yet.
for input in api-key:EMULATOR_API_KEY args:EMULATOR_ARGS; do
	var=${input#*:}
	case ${!var:-} in
	*$'\n'* | *$'\r'*)
		printf '::error title=videohost emulator::the input %s (%s) holds a line break (CR or LF): every input of this action is one line; nothing was started or exported\n' "${input%%:*}" "$var"
		exit 1
		;;
	esac
done
key=${EMULATOR_API_KEY:-ci_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}
# Masked at once: the runner then shows *** wherever the key appears in the job's log, this
# step's and every later one's (the emulator prints it at start, a debug log may too). The runner
# decodes %25, %0D and %0A in a command's value, so % is sent as %25: a key holding "%0A" is
# then masked whole, not as the two lines it would decode to.
printf '::add-mask::%s\n' "${key//%/%25}"
# Words, never expanded: read splits on white space and does no pathname expansion, unlike an
# unquoted $EMULATOR_ARGS.
extra=()
read -r -d '' -a extra <<<"${EMULATOR_ARGS:-}" || true
# In the background, immune to the step's hangup: the runner leaves a step's background
# processes running until the job ends, and the post step (stop.sh) ends this one.
nohup "$bin" -listen 127.0.0.1:0 -api-key "$key" ${extra[@]+"${extra[@]}"} >"$log" 2>&1 </dev/null &
pid=$!
url=""
for _ in $(seq 1 300); do
	if ! kill -0 "$pid" 2>/dev/null; then
		rc=0
		wait "$pid" || rc=$?
		printf '::error title=videohost emulator::the emulator exited at start (exit %s): %s\n' "$rc" \
			"$(emulator_error | paste -sd ';' - | sed 's/;/; /g')"
		say "the emulator's output ($(wc -l <"$log") lines, in $log) begins:"
		head -n 10 "$log" | redact
		say "check the action's args input (flags: videohost-emulator -help)"
		exit 1
	fi
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
say "emulator $pid answers at $url; VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY (masked) are set for the next steps"
if [ "${#extra[@]}" -gt 0 ]; then
	say "flags passed: $(printf '[%s] ' "${extra[@]}" | redact)"
fi
