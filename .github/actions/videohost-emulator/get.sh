#!/usr/bin/env bash
# Gets the emulator into $RUNNER_TEMP/videohost-emulator/videohost-emulator:
#
#   EMULATOR_VERSION=source   builds it from the repository this script belongs to, with the Go
#                             on PATH (the action's checkout holds the whole repository);
#   EMULATOR_VERSION=X.Y.Z    downloads videohost-emulator_X.Y.Z_OS_ARCH.tar.gz and the release's
#                             terraform-provider-videohost_X.Y.Z_SHA256SUMS from
#                             EMULATOR_RELEASE_URL (default: the action repository's GitHub
#                             release vX.Y.Z; a file:// address works too), and refuses an
#                             archive whose SHA-256 is not the one the sums give.
#
# Linux and macOS runners, amd64 and arm64.
set -euo pipefail
# A line break in an input would start a line of the log of the input's choosing (a workflow
# command): refused before anything is printed, naming the input.
for input in version:EMULATOR_VERSION release-url:EMULATOR_RELEASE_URL; do
	var=${input#*:}
	case ${!var:-} in
	*$'\n'* | *$'\r'*)
		printf '::error title=videohost emulator::the input %s (%s) holds a line break (CR or LF): every input of this action is one line; nothing was downloaded or started\n' "${input%%:*}" "$var"
		exit 1
		;;
	esac
done
version=${EMULATOR_VERSION:-source}
dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/videohost-emulator
mkdir -p "$dir"
say() { printf 'videohost-emulator: %s\n' "$*"; }
fail() {
	printf '::error title=videohost emulator::%s\n' "$*"
	exit 1
}

if [ "$version" = source ]; then
	root=$(cd "$(dirname "$0")/../../.." && pwd)
	command -v go >/dev/null 2>&1 || fail "building the emulator from source needs Go on PATH (actions/setup-go with go-version-file: go.mod), or set version to a release"
	say "building cmd/videohost-emulator from $root"
	(cd "$root" && go build -trimpath -o "$dir/videohost-emulator" ./cmd/videohost-emulator)
	exit 0
fi

case "$(uname -s)" in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "runner OS $(uname -s): this action runs on Linux and macOS" ;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "runner architecture $(uname -m): the releases have amd64 and arm64" ;;
esac
repo=${GITHUB_ACTION_REPOSITORY:-videohost/terraform-provider-videohost}
base=${EMULATOR_RELEASE_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download/v$version}
archive=videohost-emulator_${version}_${os}_${arch}.tar.gz
sums=terraform-provider-videohost_${version}_SHA256SUMS
say "downloading $archive and $sums from $base"
curl -fsSL --retry 3 -o "$dir/$archive" "$base/$archive" || fail "could not download $base/$archive"
curl -fsSL --retry 3 -o "$dir/$sums" "$base/$sums" || fail "could not download $base/$sums"
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/$sums")
[ -n "$want" ] || fail "$sums does not list $archive"
if command -v sha256sum >/dev/null 2>&1; then
	have=$(sha256sum "$dir/$archive" | cut -d' ' -f1)
else
	have=$(shasum -a 256 "$dir/$archive" | cut -d' ' -f1)
fi
[ "$have" = "$want" ] || fail "checksum mismatch: $archive has SHA-256 $have, $sums says $want; it was not used"
say "$archive matches its SHA-256 in $sums"
tar -xzf "$dir/$archive" -C "$dir" videohost-emulator || fail "$archive holds no videohost-emulator"
