#!/usr/bin/env bash
# make release-verify on a throwaway release (`make release-verify-check`), so that the verify of
# a real release is known to work before there is one. In a temporary directory it:
#
#   - clones this checkout's HEAD and cuts a release of it there as RELEASING.md says, for this
#     platform only: the tag v0.0.1, `goreleaser release` signing the sums with a GPG key made for
#     the run (GPG_FINGERPRINT, as release.yml signs), the key's public half in release-keys.asc
#     and its fingerprint in SECURITY.md, the record releases/0.0.1/ committed, the tag deleted
#     (a clone finds the release by its record, without tags);
#   - runs that clone's scripts/release-verify.sh with no version (the latest recorded) for this
#     platform: it must pass and write the network mirror;
#   - and must refuse, naming what: the sums changed after signing; a signature by a key that
#     release-keys.asc does not hold; sums signed by the published key that do not match the
#     build (the provider's zip must be named as differing); a version that is not recorded.
#     A record of a platform it did not rebuild is verified in part, without a mirror. With no
#     release recorded it must say so and succeed.
#
# Only the committed HEAD is used: uncommitted changes are not in the clone. GoReleaser is built
# once into ~/.cache/terraform-provider-videohost as make release-check builds it. Nothing is
# written outside the temporary directory, removed at the end with the gpg agent it started.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=release-verify-check
started=$SECONDS

lib_need go "install Go (the version in go.mod)"
lib_need git "install git; the check clones HEAD"
lib_need gpg "install GnuPG (apt-get install gnupg); the throwaway release is signed with gpg"

lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-release-verify-check.XXXXXX")
lib_traps
# The gpg agent of the temporary GNUPGHOME is stopped before the directory goes (the script's
# status is passed on); GNUPGHOME is set first, so that the user's own agents are never stopped.
export GNUPGHOME="$lib_tmp/gnupg"
mkdir -m 700 "$GNUPGHOME"
trap 'rc=$?; set +e; gpgconf --kill all >/dev/null 2>&1; (exit "$rc"); lib_cleanup' EXIT

say() { lib_say "==> [$((SECONDS - started)) s] $*"; }

version=0.0.1
sums_name=terraform-provider-videohost_${version}_SHA256SUMS
target=$(lib_goreleaser_host_target)
gr=$(lib_goreleaser_path "${GORELEASER_VERSION:-$lib_goreleaser_version}")
[ -x "$gr" ] || lib_fail "$gr is missing: make release-check builds it once"

# newkey NAME prints the fingerprint of a new Ed25519 signing key in the temporary keyring.
newkey() {
	gpg --batch --quiet --passphrase '' --pinentry-mode loopback \
		--quick-gen-key "videohost $1 <$1@localhost>" ed25519 sign 1d 2>"$lib_tmp/gpg.log" ||
		lib_fail "gpg could not make a key: $(tail -n 3 "$lib_tmp/gpg.log")"
	gpg --batch --quiet --with-colons --list-keys "$1@localhost" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'
}
release_key=$(newkey release-verify-check)
other_key=$(newkey someone-else)

# ---- the throwaway release, cut and recorded as RELEASING.md says --------------------------------
clone=$lib_tmp/clone
commit=$(git rev-parse HEAD)
say "a clone of HEAD ($commit) and its release $version for $target, signed with the key $release_key"
git clone -q --no-hardlinks "$root" "$clone"
git -C "$clone" checkout -q --detach "$commit"
git -C "$clone" tag "v$version"
lib_goreleaser_config "$clone/.goreleaser.yml" "$lib_tmp/dist" "$target" >"$lib_tmp/goreleaser.yml"
t0=$SECONDS
(cd "$clone" && GPG_FINGERPRINT=$release_key timeout --foreground 1800 "$gr" release --clean --skip=publish,announce \
	--config "$lib_tmp/goreleaser.yml") >"$lib_tmp/release.log" 2>&1 ||
	{
		tail -n 40 "$lib_tmp/release.log"
		lib_fail "goreleaser could not cut the throwaway release (log above)"
	}
cut_time=$((SECONDS - t0))
git -C "$clone" tag -d "v$version" >/dev/null
record=$clone/releases/$version
mkdir -p "$record"
echo "$commit" >"$record/COMMIT"
cp "$lib_tmp/dist/$sums_name" "$lib_tmp/dist/$sums_name.sig" "$record/"
gpg --batch --armor --export "$release_key" >"$clone/release-keys.asc"
printf '\n- %s: the throwaway key of make release-verify-check\n' "$release_key" >>"$clone/SECURITY.md"
go run ./scripts/releaseverify keys -file "$clone/release-keys.asc" -policy "$clone/SECURITY.md"
git -C "$clone" add releases release-keys.asc SECURITY.md
git -C "$clone" -c user.name=release-verify-check -c user.email=release-verify-check@localhost \
	commit -q -m "Record release $version"
lib_say "    recorded: $record ($(wc -l <"$record/$sums_name") files in the sums)"

# verify CASE WANT_STATUS [ARG...] runs the clone's make release-verify for this platform into a
# mirror of the case's own, keeping its output in $lib_tmp/CASE.log and its time in verify_time.
verify() {
	local name=$1 want=$2 rc=0 t0=$SECONDS
	shift 2
	RELEASE_VERIFY_TARGETS=host MIRROR="$lib_tmp/mirror-$name" MIRROR_KEY=release-keys.asc \
		"$clone/scripts/release-verify.sh" "$@" >"$lib_tmp/$name.log" 2>&1 || rc=$?
	verify_time=$((SECONDS - t0))
	if { [ "$want" = 0 ] && [ "$rc" != 0 ]; } || { [ "$want" != 0 ] && [ "$rc" = 0 ]; }; then
		cat "$lib_tmp/$name.log"
		lib_fail "$name: release-verify exited $rc (above), want $([ "$want" = 0 ] && echo success || echo a failure)"
	fi
}
# expect CASE TEXT: the case's output says TEXT.
expect() {
	grep -qF -- "$2" "$lib_tmp/$1.log" || {
		cat "$lib_tmp/$1.log"
		lib_fail "$1: release-verify did not say \"$2\" (output above)"
	}
}
rows=("cut the release (goreleaser, signed with gpg)|done|$cut_time s")

say "the release as recorded: release-verify (no version: the latest) must pass and write the mirror"
verify good 0
expect good "release-verify: $version is the build of $commit"
expect good "signed by the key $release_key"
doc=$lib_tmp/mirror-good/registry.terraform.io/videohost/videohost/$version.json
[ -f "$doc" ] || lib_fail "good: no mirror document $doc"
grep -q "\"$(go env GOOS)_$(go env GOARCH)\"" "$doc" ||
	lib_fail "good: the mirror's $version.json does not list $(go env GOOS)_$(go env GOARCH): $(cat "$doc")"
good_time=$verify_time
rows+=("the release as recorded|passed, mirror written|$verify_time s")
grep -E '^(==> \[|releaseverify: |release-verify: |mirror: )' "$lib_tmp/good.log" | sed 's/^/    /'

cp "$record/$sums_name" "$lib_tmp/sums.orig"
cp "$record/$sums_name.sig" "$lib_tmp/sig.orig"
zip=terraform-provider-videohost_${version}_$(go env GOOS)_$(go env GOARCH).zip
# other_hash prints the sums with the provider zip's hash changed in its last digit.
other_hash() {
	awk -v z="$zip" '$2 == z { d = substr($1, 64, 1); $1 = substr($1, 1, 63) (d == "0" ? "1" : "0"); print $1 "  " $2; next } { print }' "$lib_tmp/sums.orig"
}

say "the sums changed after signing: refused before any build"
other_hash >"$record/$sums_name"
verify sums-changed 1
expect sums-changed "$sums_name.sig does not verify $sums_name"
expect sums-changed "the sums were changed after they were signed"
rows+=("the sums changed after signing|refused: the signature does not verify|$verify_time s")

say "a signature by a key that release-keys.asc does not hold: refused before any build"
cp "$lib_tmp/sums.orig" "$record/$sums_name"
rm "$record/$sums_name.sig"
gpg --batch --quiet --local-user "$other_key" --output "$record/$sums_name.sig" --detach-sign "$record/$sums_name"
verify other-key 1
expect other-key "it was made by none of them"
rows+=("a signature by another key|refused: made by none of the keys|$verify_time s")

say "sums signed by the published key that do not match the build: the zip is named"
other_hash >"$record/$sums_name"
rm "$record/$sums_name.sig"
gpg --batch --quiet --local-user "$release_key" --output "$record/$sums_name.sig" --detach-sign "$record/$sums_name"
verify not-the-build 1
expect not-the-build "DIFFERS      $zip: recorded"
expect not-the-build "release $version is not what its commit $commit builds"
[ ! -e "$lib_tmp/mirror-not-the-build" ] || lib_fail "not-the-build: a mirror was written for a release that does not verify"
rows+=("signed sums that the build does not match|refused: $zip differs|$verify_time s")

say "a record of a platform more than this one rebuilds: verified in part, no mirror"
{
	cat "$lib_tmp/sums.orig"
	printf '%064d  terraform-provider-videohost_%s_plan9_arm.zip\n' 0 "$version"
} >"$record/$sums_name"
rm "$record/$sums_name.sig"
gpg --batch --quiet --local-user "$release_key" --output "$record/$sums_name.sig" --detach-sign "$record/$sums_name"
verify partial 0
expect partial "NOT REBUILT  terraform-provider-videohost_${version}_plan9_arm.zip"
expect partial "no mirror made, as the record lists platforms not rebuilt"
[ ! -e "$lib_tmp/mirror-partial" ] || lib_fail "partial: a mirror was written from a rebuild of some platforms"
rows+=("a record of one platform more than rebuilt|the rest verified, no mirror|$verify_time s")
cp "$lib_tmp/sums.orig" "$record/$sums_name"
cp "$lib_tmp/sig.orig" "$record/$sums_name.sig"

say "a version that is not recorded, and no release recorded at all"
verify not-recorded 1 0.9.9
expect not-recorded "release 0.9.9 is not recorded in releases (recorded: $version)"
rows+=("VERSION=0.9.9, not recorded|refused: names the recorded ones|$verify_time s")
mv "$clone/releases" "$lib_tmp/releases.away"
verify none 0
expect none "no release recorded yet"
rows+=("no release recorded|says so, exits 0|$verify_time s")

lib_say ""
lib_say "release-verify-check: make release-verify passed on a throwaway release of $target and refused each bad record ($((SECONDS - started)) s in all; the verify of the good record $good_time s)"
lib_say ""
lib_table "record|result|time" "${rows[@]}"
