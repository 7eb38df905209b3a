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
#   - version "source" builds the emulator with Go.
#
#   action-check.sh [DIST]   DIST: a release directory (scripts/release-check.sh passes its
#                            GoReleaser snapshot); without it, the emulator's archive and a
#                            SHA256SUMS are made here as GoReleaser names and lays them out.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=action-check
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
	mkdir -p "$runner/temp"
	: >"$runner/env"
	: >"$runner/output"
	: >"$runner/state"
}

# run_action VERSION RELEASE_URL: the main step in $runner; its files stay there for the checks.
run_action() {
	local env=(RUNNER_TEMP="$runner/temp" GITHUB_ENV="$runner/env" GITHUB_OUTPUT="$runner/output" GITHUB_STATE="$runner/state")
	if command -v node >/dev/null 2>&1; then
		env "${env[@]}" INPUT_VERSION="$1" "INPUT_RELEASE-URL=$2" "INPUT_API-KEY=" INPUT_ARGS="-seed-videos 2" node "$action/main.js"
	else
		env "${env[@]}" EMULATOR_VERSION="$1" EMULATOR_RELEASE_URL="$2" EMULATOR_ARGS="-seed-videos 2" bash "$action/get.sh" &&
			env "${env[@]}" EMULATOR_ARGS="-seed-videos 2" bash "$action/start.sh"
	fi
}

# stop_action: the post step, with the pid the main step saved.
stop_action() {
	if command -v node >/dev/null 2>&1; then
		env RUNNER_TEMP="$runner/temp" STATE_pid="$pid" node "$action/post.js"
	else
		env RUNNER_TEMP="$runner/temp" EMULATOR_PID="$pid" bash "$action/stop.sh"
	fi
	! kill -0 "$pid" 2>/dev/null || lib_fail "the post step left the emulator $pid running"
}

# check_started: the job got the address and the key, and they work.
check_started() {
	pid=$(sed -n 's/^pid=//p' "$runner/state")
	url=$(sed -n 's/^VIDEOHOST_BASE_URL=//p' "$runner/env")
	key=$(sed -n 's/^VIDEOHOST_API_KEY=//p' "$runner/env")
	[ -n "$pid" ] && [ -n "$url" ] && [ -n "$key" ] || lib_fail "the main step did not save a pid, VIDEOHOST_BASE_URL and VIDEOHOST_API_KEY"
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

lib_say "action-check: version source, built with Go"
new_runner
run_action source "" || lib_fail "the action's main step failed with version source"
check_started
stop_action
lib_say "action-check: ok: the action gets, checks, starts, exports and stops the emulator"
