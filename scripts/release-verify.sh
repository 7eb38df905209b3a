#!/usr/bin/env bash
# Rebuilds a recorded release and verifies it (`make release-verify [VERSION=X.Y.Z]`), so that
# anyone can check that a release is the build of its commit and was signed by a published key.
# It reads the release record releases/X.Y.Z/ (COMMIT, the SHA256SUMS as published and their
# signature; RELEASING.md), the latest recorded release when no version is given, and:
#
#   1. checks the record, and the signature of its sums with the keys the repository publishes
#      (release-keys.asc; scripts/mirror -verify-only), before spending minutes on a build;
#   2. clones this repository into a temporary directory at COMMIT and tags it vX.Y.Z there, as
#      the release's runner had it (GoReleaser takes the version from the tag);
#   3. rebuilds the release as release.yml built it: the .goreleaser.yml of COMMIT, the GoReleaser
#      version release.yml of COMMIT pins (built once from the Go module proxy into
#      ~/.cache/terraform-provider-videohost, as make release-check does), and the Go toolchain
#      go.mod of COMMIT names (GOTOOLCHAIN; the go command fetches it when it is not this one);
#   4. compares the SHA-256 of every file of the recorded sums with the rebuild's, naming each
#      file that differs, was not rebuilt, or was rebuilt but is not recorded;
#   5. makes the provider network mirror from the rebuilt archives and the recorded, signed sums
#      (make mirror, which checks the signature and every zip once more) and prints where.
#
# With no release recorded it says so and exits 0, so that CI runs it from the first commit.
#
#   $1                      the release to verify, X.Y.Z (make release-verify VERSION=X.Y.Z)
#   MIRROR                  the mirror's directory (default mirror, git-ignored)
#   MIRROR_KEY              the published keys (default release-keys.asc)
#   RELEASE_VERIFY_TARGETS  GoReleaser targets to rebuild instead of every platform ("host" is
#                           this machine's): for a quick check, or for a test's one-platform
#                           release. A record of more platforms is then verified in part, and no
#                           mirror is made unless the record lists nothing else.
#   GORELEASER_VERSION      another GoReleaser than the one release.yml of COMMIT pins
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=release-verify
started=$SECONDS

say() { lib_say "==> [$((SECONDS - started)) s] $*"; }

lib_need go "install Go (the version in go.mod)"
lib_need git "install git; the release is rebuilt from its commit"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-release-verify.XXXXXX")
lib_traps

version=${1:-}
mirror=${MIRROR:-mirror}
key=${MIRROR_KEY:-release-keys.asc}

go build -o "$lib_tmp/releaseverify" ./scripts/releaseverify
rec=$("$lib_tmp/releaseverify" record -releases releases -version "$version") || exit 1
if [ -z "$rec" ]; then
	lib_say "release-verify: no release recorded yet in releases/ (RELEASING.md says how a release is recorded): nothing to verify"
	exit 0
fi
version=${rec% *}
commit=${rec#* }
record=releases/$version
sums_name=terraform-provider-videohost_${version}_SHA256SUMS

# ---- 1. the signature, with the keys the repository publishes ---------------------------------
say "release $version (commit $commit): the signature of $record/$sums_name with $key"
go run ./scripts/mirror -dist "$record" -verify-only -key "$key" ||
	lib_fail "the recorded sums of $version are not signed by a key of $key (above): the record or the key file is not what the release published"

# ---- 2. a scratch clone at the release's commit --------------------------------------------------
git cat-file -e "$commit^{commit}" 2>/dev/null ||
	lib_fail "commit $commit of release $version is not in this clone (a shallow clone?): fetch the whole history (git fetch --unshallow)"
src=$lib_tmp/src
say "a scratch clone of $commit tagged v$version in $src"
git clone -q --shared --no-checkout "$root" "$src"
git -C "$src" checkout -q --detach "$commit"
# A clone that has the tag must have it at the recorded commit: otherwise the record or the tag
# is wrong, and which one a person must find out.
if tagged=$(git -C "$src" rev-parse -q --verify "refs/tags/v$version^{commit}"); then
	[ "$tagged" = "$commit" ] ||
		lib_fail "the tag v$version points at $tagged, the record $record/COMMIT at $commit: one of them is wrong"
else
	git -C "$src" tag "v$version" "$commit"
fi

# ---- 3. the rebuild, with the release's GoReleaser and Go toolchain -------------------------------
gr_version=${GORELEASER_VERSION:-}
if [ -z "$gr_version" ]; then
	gr_version=$(sed -n 's/^ *version: \(v[0-9][0-9.]*\).*$/\1/p' "$src/.github/workflows/release.yml" 2>/dev/null | head -n 1)
	if [ -z "$gr_version" ]; then
		gr_version=$lib_goreleaser_version
		lib_say "release-verify: release.yml of $commit pins no GoReleaser version; using $gr_version"
	fi
fi
gr=$(lib_goreleaser_path "$gr_version")
if [ ! -x "$gr" ]; then
	say "building GoReleaser $gr_version into $(dirname "$gr") (once; minutes on two cores)"
	GOBIN=$(dirname "$gr") timeout --foreground 3600 go install "github.com/goreleaser/goreleaser/v2@$gr_version" ||
		lib_fail "go install github.com/goreleaser/goreleaser/v2@$gr_version failed"
fi
# release.yml's setup-go takes the toolchain line of go.mod when there is one, else the go line.
go_version=$(sed -n 's/^toolchain go\([0-9.]*\)$/\1/p' "$src/go.mod")
[ -n "$go_version" ] || go_version=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$src/go.mod")
[ -n "$go_version" ] || lib_fail "go.mod of $commit names no Go version"

targets=()
partial=()
for t in ${RELEASE_VERIFY_TARGETS:-}; do
	if [ "$t" = host ]; then t=$(lib_goreleaser_host_target); fi
	targets+=("$t")
done
[ "${#targets[@]}" -eq 0 ] || partial=(-partial)
dist=$lib_tmp/dist
lib_goreleaser_config "$src/.goreleaser.yml" "$dist" "${targets[@]}" >"$lib_tmp/goreleaser.yml"
say "goreleaser $gr_version release with go$go_version (${targets[*]:-every platform of .goreleaser.yml}; not published, not signed)"
# GOFLAGS of the caller's could change the build (-mod=mod, -race); the release's runner had none.
(cd "$src" && env -u GOFLAGS GOTOOLCHAIN="go$go_version" timeout --foreground 3600 "$gr" release --clean \
	--skip=publish,announce,sign --config "$lib_tmp/goreleaser.yml") >"$lib_tmp/goreleaser.log" 2>&1 ||
	{
		tail -n 40 "$lib_tmp/goreleaser.log"
		lib_fail "goreleaser failed in the clone of $commit (log above)"
	}

# ---- 4. the rebuild against the recorded sums -----------------------------------------------------
say "the rebuild's SHA-256 against $record/$sums_name"
# The registry manifest is no build: the release copies it from the repository under this name.
status=0
"$lib_tmp/releaseverify" compare -sums "$record/$sums_name" -dist "$dist" "${partial[@]}" \
	-file "terraform-provider-videohost_${version}_manifest.json=$src/terraform-registry-manifest.json" || status=$?
case $status in
0) complete=1 ;;
3) complete=0 ;;
*) lib_fail "release $version is not what its commit $commit builds (the files above): do not trust the published archives until this is explained" ;;
esac

# ---- 5. the network mirror, from the rebuilt archives and the signed sums ---------------------------
if [ "$complete" = 0 ]; then
	lib_say ""
	lib_say "release-verify: $version: every file rebuilt for ${targets[*]} has the recorded SHA-256 and the sums are signed by a key of $key; no mirror made, as the record lists platforms not rebuilt (RELEASE_VERIFY_TARGETS) ($((SECONDS - started)) s)"
	exit 0
fi
cp "$record/$sums_name" "$record/$sums_name.sig" "$dist/"
say "the network mirror of $version from the rebuilt archives (make mirror)"
make --no-print-directory mirror DIST="$dist" MIRROR="$mirror" MIRROR_KEY="$key"
mirror_abs=$(cd "$mirror" && pwd)
lib_say ""
lib_say "release-verify: $version is the build of $commit: every file of its sums rebuilt with the recorded SHA-256, signed by a key of $key ($((SECONDS - started)) s)"
lib_say "release-verify: its network mirror is at $mirror_abs: serve that directory (the guide \"Hosting a release without the public registry\")"
