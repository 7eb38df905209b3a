#!/usr/bin/env bash
# Runs the GitHub Action .github/actions/videohost-emulator as a runner would, against a release
# on this machine: the download is a file:// address, the rest as written (main.js and post.js
# under node when it is on PATH, else their scripts directly). It checks that:
#
#   - the archive is fetched and checked against the release's SHA256SUMS, the emulator starts
#     on a free port and answers, and the job receives VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY
#     (in GITHUB_ENV) and the outputs, with the pid in the action's state;
#   - the post step stops it;
#   - an archive one byte longer than its sums say is refused, and never started;
#   - version "source" builds the emulator with Go;
#   - the key is masked (::add-mask::) before any other line of the job's log could show it, and
#     no other line of the main or the post step shows it; a key holding "%0A" and a backslash is
#     masked whole (the runner decodes %25, %0D and %0A in a command) and redacted whole;
#   - an input holding a line feed or a carriage return (an api-key of "k1", LF,
#     "NODE_OPTIONS=--require=..."; args; version) is refused, naming the input and never
#     showing its value, before anything is written to the job's files or started;
#   - args is split into words and never expanded: "-control-allow-origin *", run from a
#     directory holding two files, lets a page of another origin call the control API;
#   - a failed start ("-no-such-flag") puts the emulator's own error in the first error
#     annotation, before any of its usage text;
#   - the docs (README.md, templates/, docs/, the action's own comment) pin the action by a
#     release tag or a commit's full SHA, never by a branch such as @main.
#
#   action-check.sh [DIST]   DIST: a release directory (scripts/release-check.sh passes its
#                            GoReleaser snapshot); without it, the emulator's archive and a
#                            SHA256SUMS are made here as GoReleaser names and lays them out.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name="action-check"
action=$root/.github/actions/videohost-emulator

lib_need go "install Go (the version in go.mod)"
lib_need curl "install curl; the action waits for the emulator with it"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-action.XXXXXX")
pid=""
cleanup() {
	local rc=$?
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

goos=$(go env GOOS)
goarch=$(go env GOARCH)
dist=${1:-}
if [ -z "$dist" ]; then
	version=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' CHANGELOG.md | head -n 1)
	dist=$tmp/dist
	mkdir -p "$dist/build"
	lib_say "action-check: a local release $version of the emulator ($goos/$goarch)"
	go build -trimpath -o "$dist/build/videohost-emulator" ./cmd/videohost-emulator
	tar -czf "$dist/videohost-emulator_${version}_${goos}_${goarch}.tar.gz" -C "$dist/build" videohost-emulator
	(cd "$dist" && sha256sum -- *.tar.gz >"terraform-provider-videohost_${version}_SHA256SUMS")
else
	sums=$(cd "$dist" && ls -- *_SHA256SUMS)
	version=${sums#terraform-provider-videohost_}
	version=${version%_SHA256SUMS}
fi

# new_runner makes a fresh runner directory, $runner: the job's files and RUNNER_TEMP.
new_runner() {
	runner=$(mktemp -d "$tmp/runner.XXXXXX")
	mkdir -p "$runner/temp" "$runner/cwd"
	: >"$runner/cwd/main.tf"
	: >"$runner/cwd/variables.tf"
	: >"$runner/env"
	: >"$runner/output"
	: >"$runner/state"
}

# run_action VERSION RELEASE_URL [ARGS [KEY]]: the main step in $runner, run from $runner/cwd (a
# directory holding two files, where an unquoted * would expand to their names); its output is
# printed and kept in $runner/main.log, its files stay there for the checks.
run_action() {
	local args=${3--seed-videos 2} key=${4:-} rc=0
	local env=(RUNNER_TEMP="$runner/temp" GITHUB_ENV="$runner/env" GITHUB_OUTPUT="$runner/output" GITHUB_STATE="$runner/state")
	if command -v node >/dev/null 2>&1; then
		(cd "$runner/cwd" && env "${env[@]}" INPUT_VERSION="$1" "INPUT_RELEASE-URL=$2" "INPUT_API-KEY=$key" INPUT_ARGS="$args" node "$action/main.js") >"$runner/main.log" 2>&1 || rc=$?
	else
		(cd "$runner/cwd" && env "${env[@]}" EMULATOR_VERSION="$1" EMULATOR_RELEASE_URL="$2" bash "$action/get.sh" &&
			env "${env[@]}" EMULATOR_API_KEY="$key" EMULATOR_ARGS="$args" bash "$action/start.sh") >"$runner/main.log" 2>&1 || rc=$?
	fi
	cat "$runner/main.log"
	return "$rc"
}

# stop_action: the post step, with the pid the main step saved.
stop_action() {
	if command -v node >/dev/null 2>&1; then
		env RUNNER_TEMP="$runner/temp" STATE_pid="$pid" node "$action/post.js" >"$runner/post.log" 2>&1
	else
		env RUNNER_TEMP="$runner/temp" EMULATOR_PID="$pid" bash "$action/stop.sh" >"$runner/post.log" 2>&1
	fi
	cat "$runner/post.log"
	! kill -0 "$pid" 2>/dev/null || lib_fail "the post step left the emulator $pid running"
}

# check_started: the job got the address and the key, and they work.
check_started() {
	pid=$(sed -n 's/^pid=//p' "$runner/state")
	url=$(sed -n 's/^VIDEOHOST_BASE_URL=//p' "$runner/env")
	key=$(sed -n 's/^VIDEOHOST_API_KEY=//p' "$runner/env")
	if [ -z "$pid" ] || [ -z "$url" ] || [ -z "$key" ]; then
		lib_fail "the main step did not save a pid, VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY"
	fi
	grep -q "^base-url=$url\$" "$runner/output" || lib_fail "the outputs lack base-url"
	videos=$(curl -fsS --max-time 10 -u "$key:" "$url/videos") || lib_fail "GET $url/videos with the exported key failed"
	grep -q '"videoId"' <<<"$videos" || lib_fail "the emulator does not hold the seeded videos (args not passed): $videos"
	lib_say "action-check: ok: emulator $pid at $url, with the exported key"
}

lib_say "action-check: the action with version $version from file://$dist"
new_runner
run_action "$version" "file://$dist" || lib_fail "the action's main step failed"
check_started
stop_action

lib_say "action-check: an archive one byte longer than its SHA-256 says"
bad=$tmp/tampered
mkdir -p "$bad"
cp "$dist/videohost-emulator_${version}_${goos}_${goarch}.tar.gz" "$dist/terraform-provider-videohost_${version}_SHA256SUMS" "$bad/"
printf 'x' >>"$bad/videohost-emulator_${version}_${goos}_${goarch}.tar.gz"
new_runner
if out=$(run_action "$version" "file://$bad" 2>&1); then
	lib_fail "the action accepted a tampered archive: $out"
fi
grep -q 'checksum mismatch' <<<"$out" || lib_fail "the tampered archive was refused without saying why: $out"
[ ! -s "$runner/state" ] || lib_fail "the action started an emulator from a tampered archive"
lib_say "action-check: ok: refused ($(grep -o 'checksum mismatch[^;]*' <<<"$out" | head -n 1))"

lib_say "action-check: the key is masked, args are words never expanded"
new_runner
key="ci_masked_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
run_action "$version" "file://$dist" "-seed-videos 2 -control-allow-origin *" "$key" ||
	lib_fail "the action's main step failed with args '-seed-videos 2 -control-allow-origin *'"
check_started
first=$(grep -n -F -- "$key" "$runner/main.log" | head -n 1)
[ "$first" = "1:::add-mask::$key" ] || [[ $first == *":::add-mask::$key" && $(grep -c -F -- "$key" "$runner/main.log") -eq 1 ]] ||
	lib_fail "the key is not masked before it is shown: first line holding it: '${first:-none}'"
[ "$(grep -c -F -- "$key" "$runner/main.log")" -eq 1 ] ||
	lib_fail "the main step shows the key beyond its ::add-mask:: line: $(grep -F -- "$key" "$runner/main.log" | grep -v add-mask)"
# The control API answers a page of another origin only when "*" reached the emulator as "*"
# (expanded, it would have been "main.tf" and "variables.tf": two origins that are no URL).
code=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -H 'Origin: https://pages.example.test' "$url/_emulator/") || true
[ "$code" = 200 ] || lib_fail "the control API refused a page of another origin ($code): -control-allow-origin * did not reach the emulator as *"
stop_action
if grep -q -F -- "$key" "$runner/post.log"; then
	lib_fail "the post step shows the key: $(grep -F -- "$key" "$runner/post.log")"
fi
lib_say "action-check: ok: ::add-mask:: first, the key nowhere else; '*' reached the emulator as '*' from a directory of two files"

lib_say "action-check: a key holding %0A and a backslash is masked and redacted whole"
new_runner
key="ci_pct_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')%0Ax\\n%25y"
run_action "$version" "file://$dist" "-seed-videos 2" "$key" || lib_fail "the action's main step failed with a key holding %"
check_started
mask=$(grep -m 1 '^::add-mask::' "$runner/main.log" || true)
# What the runner masks: the command's value decoded as it decodes it (%0D, %0A, then %25).
masked=${mask#::add-mask::}
masked=${masked//%0D/$'\r'}
masked=${masked//%0A/$'\n'}
masked=${masked//%25/%}
[ "$masked" = "$key" ] || lib_fail "the runner would mask '$masked', not the whole key '$key' (the line: '$mask')"
[ "$(grep -c -F -- "$key" "$runner/main.log")" -eq 0 ] ||
	lib_fail "the main step shows the key: $(grep -F -- "$key" "$runner/main.log")"
stop_action
lib_say "action-check: ok: $mask masks the key whole, and no line shows it"

lib_say "action-check: inputs holding a line break are refused, by name, before anything is written"
evil="NODE_OPTIONS=--require=/tmp/evil-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n').js"
first="ci_k1_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
for c in "api-key:LF:$first"$'\n'"$evil" "api-key:CR:$first"$'\r'"$evil" "args:LF:-seed-videos 2"$'\n'"$evil" "version:LF:$version"$'\n'"$evil"; do
	name=${c%%:*}
	rest=${c#*:}
	what=${rest%%:*}
	value=${rest#*:}
	new_runner
	case $name in
	api-key) out=$(run_action "$version" "file://$dist" "-seed-videos 2" "$value" 2>&1) && rc=0 || rc=$? ;;
	args) out=$(run_action "$version" "file://$dist" "$value" 2>&1) && rc=0 || rc=$? ;;
	version) out=$(run_action "$value" "file://$dist" 2>&1) && rc=0 || rc=$? ;;
	esac
	# An action that took the input started the emulator: the cleanup stops it.
	pid=$(sed -n 's/^pid=//p' "$runner/state")
	[ "$rc" -ne 0 ] || lib_fail "the action took an input $name holding $what: $out"
	grep -q "^::error .*the input $name .*holds a line break" <<<"$out" ||
		lib_fail "the refusal of $name holding $what does not name the input: $out"
	if grep -q -F -e "$first" -e "$evil" <<<"$out"; then
		lib_fail "the refusal of $name holding $what shows its value: $out"
	fi
	for f in env output state; do
		[ ! -s "$runner/$f" ] || lib_fail "the action wrote to the job's $f although $name held $what: $(cat "$runner/$f")"
	done
	[ ! -e "$runner/temp/videohost-emulator/emulator.log" ] || lib_fail "the action started the emulator although $name held $what"
	lib_say "action-check: ok: $name holding $what: $(grep -m 1 '^::error' <<<"$out")"
done

lib_say "action-check: a failed start shows the emulator's own error first"
new_runner
if run_action "$version" "file://$dist" "-seed-videos 2 -no-such-flag" >/dev/null 2>&1; then
	lib_fail "the action succeeded with -no-such-flag"
fi
annotation=$(grep -m 1 '^::error' "$runner/main.log" || true)
grep -q 'flag provided but not defined: -no-such-flag' <<<"$annotation" ||
	lib_fail "the first error annotation does not carry the emulator's error: '${annotation:-none}'; the output: $(head -n 20 "$runner/main.log")"
at_error=$(grep -n -m 1 '^::error' "$runner/main.log" | cut -d: -f1)
at_usage=$(grep -n -m 1 '^videohost-emulator runs ' "$runner/main.log" | cut -d: -f1 || true)
[ -z "$at_usage" ] || [ "$at_error" -lt "$at_usage" ] ||
	lib_fail "the usage text (line $at_usage) comes before the error annotation (line $at_error)"
[ ! -s "$runner/state" ] || lib_fail "the action saved a pid although the emulator did not start"
lib_say "action-check: ok: $annotation"

lib_say "action-check: the docs pin the action by a release tag or a commit"
refs=$(grep -rhoE 'videohost/terraform-provider-videohost/\.github/actions/videohost-emulator@[^ "`]*' \
	README.md CONTRIBUTING.md templates docs "$action/action.yml" | sort -u)
[ -n "$refs" ] || lib_fail "no page shows how to use the action (uses: ...videohost-emulator@REF)"
while IFS= read -r ref; do
	[[ ${ref##*@} =~ ^(v[0-9]+\.[0-9]+\.[0-9]+|[0-9a-f]{40})$ ]] ||
		lib_fail "a page uses the action at @${ref##*@}: pin it by a release tag (@v0.1.0) or a commit's full SHA: $(grep -rlF "$ref" README.md CONTRIBUTING.md templates docs "$action/action.yml" | tr '\n' ' ')"
done <<<"$refs"
pins=()
while IFS= read -r ref; do
	pins+=("@${ref##*@}")
done <<<"$refs"
lib_say "action-check: ok: every page pins it: $(printf '%s\n' "${pins[@]}" | sort -u | tr '\n' ' ')"

lib_say "action-check: version source, built with Go"
new_runner
run_action source "" || lib_fail "the action's main step failed with version source"
check_started
stop_action
lib_say "action-check: ok: the action gets, checks, starts, exports, masks and stops the emulator"
