#!/usr/bin/env bash
# The release as users receive it (`make release-check`): builds a snapshot release with the
# project's own .goreleaser.yml, signs its sums with a throwaway GPG key, serves it from a local
# provider registry over HTTPS (scripts/registry), and with each CLI installs the provider by a
# plain `init` (no dev_overrides) and applies, plans and destroys examples/getting-started against
# the emulator taken from the release's own archive. It shows that:
#
#   - the sums cover every provider zip, the registry manifest (protocol 6.0), and the emulator's
#     and the receiver's archives, and do not list the signature (GoReleaser v2.15.0 and v2.15.1
#     add the signature's hash to the sums after signing them, so that the signature no longer
#     verifies: gpg and every CLI refuse such a release, and this check with them);
#   - the CLI verifies the signature and the checksum and writes zh: and h1: hashes to
#     .terraform.lock.hcl, and the example applies, plans empty and destroys;
#   - the same CLI refuses a tampered zip and a signature that does not match the sums;
#   - the emulator and the receiver of the release run from their archives;
#   - the release is a provider network mirror too (scripts/mirror, what `make mirror` writes,
#     given the throwaway key's public half: it refuses the tampered zip's and the other bytes'
#     signature as the CLIs do), served over HTTPS by a plain static file server, with the signed sums beside the zips,
#     `providers lock -platform=...` for every platform built fills the lock file with an h1:
#     hash per platform, and a plain init with provider_installation { network_mirror } installs
#     videohost/videohost from it without the warning "Incomplete lock file information";
#   - the CI action .github/actions/videohost-emulator gets the emulator from the release's archive,
#     checks it against the sums, starts it, exports its address and key, and stops it
#     (scripts/action-check.sh).
#
#   RELEASE_CLIS="path ..."  the terraform or tofu binaries (default: the CLIs of ../shared/cli when
#                            that folder exists, unpacked once as make test-matrix does, then
#                            $TERRAFORM, the terraform on PATH)
#   GORELEASER_VERSION       the GoReleaser run from the Go module proxy (default v2.14.3, the
#                            version .goreleaser.yml and release.yml name)
#   RELEASE_TARGETS          GoReleaser targets to build instead of every platform of
#                            .goreleaser.yml, e.g. "linux_amd64_v1 darwin_arm64_v8.0"; "host" is
#                            this machine's. Every platform is a dozen builds of the provider,
#                            minutes on two cores even with a warm build cache: .ci/run builds
#                            the host's and linux_arm64's ("host linux_arm64_v8.0"), so that the
#                            mirror's lock file covers two platforms.
#
# Nothing is written outside a temporary directory, which is removed at the end with every process
# it started; the GPG key lives and dies there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=release-check

goreleaser_version=${GORELEASER_VERSION:-v2.14.3}
started=$SECONDS

lib_need go "install Go (the version in go.mod)"
lib_need curl "install curl; the check asks the emulator and the receiver for an answer"
lib_need tar "install tar; the emulator's archive is a tar.gz"
if ! command -v gpg >/dev/null 2>&1; then
	# CI runs as root on a clean machine; elsewhere installing is the user's decision.
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		lib_say "==> gpg is missing: installing gnupg with apt-get"
		timeout --foreground 600 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout --foreground 600 apt-get install -y -qq gnupg >/dev/null ||
			lib_fail "installing gnupg failed; install it and run again"
	fi
	lib_need gpg "install GnuPG (apt-get install gnupg); the release's sums are signed with a throwaway key"
fi

lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-release.XXXXXX")
lib_traps
# gpg starts an agent for the temporary GNUPGHOME; it is stopped before lib_cleanup removes the
# directory (the status of the script is passed on). GNUPGHOME is set before the trap, so that a
# failure before the key is made never stops the agents of the user's own ~/.gnupg.
export GNUPGHOME="$lib_tmp/gnupg"
mkdir -m 700 "$GNUPGHOME"
trap 'rc=$?; set +e; gpgconf --kill all >/dev/null 2>&1; (exit "$rc"); lib_cleanup' EXIT
mkdir -p "$lib_tmp/bin"

# say prints a step with the time since the start.
say() { lib_say "==> [$((SECONDS - started)) s] $*"; }

# heartbeat WHAT LOG CMD...: runs CMD with its output in LOG and prints a line every 20 s while
# it runs, so that the builds of GoReleaser and of the snapshot (minutes without output of their
# own) never look stuck, neither to a person nor to a CI runner that gives up on a silent job.
# Returns CMD's status.
heartbeat() {
	local what=$1 log=$2 begun=$SECONDS next=20 pid rc=0
	shift 2
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ $((SECONDS - begun)) -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			lib_say "    still $what ($((SECONDS - begun)) s; [$((SECONDS - started)) s] in all)"
			next=$((next + 20))
		fi
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# ---- the CLIs ---------------------------------------------------------------------------------
if [ -z "${RELEASE_CLIS:-}" ]; then
	shared="$root/../shared/cli"
	if [ -x "$shared/unpack.sh" ]; then
		cache=${MATRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/cli}
		RELEASE_CLIS=$("$shared/unpack.sh" "$cache" | tr '\n' ' ') || lib_fail "unpacking the CLIs of $shared failed"
	fi
	lib_need_terraform
	RELEASE_CLIS="${RELEASE_CLIS:-} $(command -v "$TERRAFORM")"
fi
# shellcheck disable=SC2206 # RELEASE_CLIS is a space-separated list of paths by design.
clis=($RELEASE_CLIS)

# ---- the throwaway signing key ----------------------------------------------------------------
say "a throwaway GPG key (RSA, no passphrase) in the temporary directory"
timeout --foreground 120 gpg --batch --quiet --passphrase '' --pinentry-mode loopback \
	--quick-gen-key "videohost release-check <release-check@localhost>" rsa3072 sign 1d 2>"$lib_tmp/gpg.log" ||
	lib_fail "gpg could not make a key: $(tail -n 3 "$lib_tmp/gpg.log")"
fingerprint=$(gpg --batch --with-colons --list-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
[ -n "$fingerprint" ] || lib_fail "the new key has no fingerprint"
key_id=${fingerprint: -16}
gpg --batch --armor --export "$fingerprint" >"$lib_tmp/signing-key.asc"

# ---- the snapshot release -----------------------------------------------------------------------
goos=$(go env GOOS)
goarch=$(go env GOARCH)
targets=${RELEASE_TARGETS:-}
# GoReleaser names amd64 and arm64 targets with their default level.
case "$goarch" in
amd64) host_target=${goos}_amd64_v1 ;;
arm64) host_target=${goos}_arm64_v8.0 ;;
*) host_target=${goos}_$goarch ;;
esac
if [ -n "$targets" ]; then
	# The word "host" stands for this machine's target; a target named twice is built once.
	targets=$(for t in $targets; do
		if [ "$t" = host ]; then echo "$host_target"; else echo "$t"; fi
	done | sort -u | tr '\n' ' ')
	targets=${targets% }
fi
# The project's configuration with the output directory added, so that the checkout is left as
# it was (no dist/), and with RELEASE_TARGETS, a targets list in each build (GoReleaser's
# targets replace goos and goarch).
dist="$lib_tmp/dist"
grep -q '^dist:' .goreleaser.yml && lib_fail ".goreleaser.yml sets dist:, which this check sets itself"
{
	if [ -n "$targets" ]; then
		awk -v t="    targets: [$(tr -s ' ' ',' <<<"$targets")]" '/^[a-z]/ { builds = ($0 == "builds:") }
			{ print } builds && /^  - id: (provider|emulator|receiver)$/ { print t }' .goreleaser.yml
	else
		cat .goreleaser.yml
	fi
	printf '\ndist: %s\n' "$dist"
} >"$lib_tmp/goreleaser.yml"
if [ -n "$targets" ] && [ "$(grep -c '^    targets: ' "$lib_tmp/goreleaser.yml")" -ne 3 ]; then
	lib_fail "RELEASE_TARGETS: .goreleaser.yml no longer has the builds provider, emulator and receiver"
fi
# GoReleaser is built once per version from the Go module proxy into the cache (a `tool` line
# in go.mod would pull its hundreds of modules into the project's graph).
gr_dir=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/goreleaser-$goreleaser_version
if [ ! -x "$gr_dir/goreleaser" ]; then
	say "building goreleaser $goreleaser_version into $gr_dir (once; minutes on two cores)"
	heartbeat "building goreleaser" "$lib_tmp/goreleaser-build.log" env GOBIN="$gr_dir" \
		timeout --foreground 1800 go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version" ||
		{
			tail -n 40 "$lib_tmp/goreleaser-build.log"
			lib_fail "go install github.com/goreleaser/goreleaser/v2@$goreleaser_version failed (log above)"
		}
fi
say "goreleaser $goreleaser_version release --snapshot (${targets:-every platform of .goreleaser.yml})"
heartbeat "building the snapshot release" "$lib_tmp/goreleaser.log" env GPG_FINGERPRINT="$fingerprint" \
	timeout --foreground 1200 "$gr_dir/goreleaser" release --snapshot --clean --config "$lib_tmp/goreleaser.yml" ||
	{
		tail -n 40 "$lib_tmp/goreleaser.log"
		lib_fail "goreleaser failed (log above)"
	}

sums=$(cd "$dist" && ls -- *_SHA256SUMS)
[ "$(wc -w <<<"$sums")" -eq 1 ] || lib_fail "expected one SHA256SUMS file in dist, found: $sums"
version=${sums#terraform-provider-videohost_}
version=${version%_SHA256SUMS}
# The manifest is uploaded from the repository under this name (release.extra_files), not copied
# into dist; the sums cover it under that name.
cp terraform-registry-manifest.json "$dist/terraform-provider-videohost_${version}_manifest.json"
say "release $version: checking what the sums and the signature cover"
(cd "$dist" && sha256sum --quiet -c "$sums") || lib_fail "a file of dist does not match $sums"
gpg --batch --verify "$dist/$sums.sig" "$dist/$sums" 2>"$lib_tmp/verify.log" ||
	lib_fail "gpg does not verify $sums.sig against $sums (the GoReleaser v2.15.0/v2.15.1 bug adds the signature to the sums after signing): $(cat "$lib_tmp/verify.log")"
if grep -q '\.sig$' "$dist/$sums"; then
	lib_fail "$sums lists a signature: $(grep '\.sig$' "$dist/$sums")"
fi
grep -q "  terraform-provider-videohost_${version}_manifest.json\$" "$dist/$sums" ||
	lib_fail "$sums does not cover the registry manifest"
grep -q '"protocol_versions": \["6.0"\]' "$dist/terraform-provider-videohost_${version}_manifest.json" ||
	lib_fail "the manifest does not name protocol 6.0"
zips=$(grep -c "  terraform-provider-videohost_${version}_[a-z0-9]*_[a-z0-9]*\.zip\$" "$dist/$sums" || true)
names=("terraform-provider-videohost_${version}_${goos}_${goarch}.zip"
	"videohost-emulator_${version}_${goos}_${goarch}.tar.gz" "videohost-receiver_${version}_${goos}_${goarch}.tar.gz")
if [ -z "$targets" ]; then
	names+=("terraform-provider-videohost_${version}_windows_arm64.zip" "terraform-provider-videohost_${version}_freebsd_386.zip"
		"videohost-emulator_${version}_windows_amd64.zip" "videohost-receiver_${version}_darwin_arm64.tar.gz")
fi
for name in "${names[@]}"; do
	grep -q "  $name\$" "$dist/$sums" || lib_fail "$sums does not list $name"
done
say "$zips provider zips, the manifest and $(grep -c 'videohost-\(emulator\|receiver\)_' "$dist/$sums") emulator and receiver archives in the signed sums"

# ---- the registry's namespaces: the release, a tampered zip, a signature of other bytes --------
reg="$lib_tmp/registry"
mkdir -p "$reg/videohost" "$reg/tampered" "$reg/badsig"
for f in "$dist"/terraform-provider-videohost_*; do
	ln "$f" "$reg/videohost/"
	ln "$f" "$reg/badsig/"
	ln "$f" "$reg/tampered/"
done
# One byte more in this platform's zip, under the same sums and signature.
rm "$reg/tampered/terraform-provider-videohost_${version}_${goos}_${goarch}.zip"
cp "$dist/terraform-provider-videohost_${version}_${goos}_${goarch}.zip" "$reg/tampered/"
printf 'x' >>"$reg/tampered/terraform-provider-videohost_${version}_${goos}_${goarch}.zip"
# A good signature by the announced key, of other bytes than the sums served.
rm "$reg/badsig/$sums.sig"
{
	cat "$dist/$sums"
	echo "0000000000000000000000000000000000000000000000000000000000000000  extra.zip"
} >"$lib_tmp/other-sums"
gpg --batch --quiet --local-user "$fingerprint" --output "$reg/badsig/$sums.sig" --detach-sign "$lib_tmp/other-sums"

# ---- the emulator and the receiver, from their archives -----------------------------------------
say "the emulator and the receiver of the release, from their $goos/$goarch archives"
mkdir -p "$lib_tmp/emulator" "$lib_tmp/receiver"
tar -xzf "$dist/videohost-emulator_${version}_${goos}_${goarch}.tar.gz" -C "$lib_tmp/emulator"
tar -xzf "$dist/videohost-receiver_${version}_${goos}_${goarch}.tar.gz" -C "$lib_tmp/receiver"
api_key="release_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
lib_start emulator "$lib_tmp/emulator/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key"
emulator_url=$(lib_first_line emulator "$lib_last_pid")
lib_wait_http "$emulator_url/_emulator/"
curl -sS -f --max-time 10 -u "$api_key:" -o /dev/null "$emulator_url/webhooks" ||
	lib_fail "the released emulator does not answer GET /webhooks with the API key"
lib_start receiver "$lib_tmp/receiver/videohost-receiver" -listen 127.0.0.1:0
receiver_url=$(lib_first_line receiver "$lib_last_pid")
code=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -X POST --data '{}' "$receiver_url/") || true
[ "$code" = 401 ] || lib_fail "the released receiver answered $code to an unsigned delivery, not 401"
say "emulator at $emulator_url answers; the receiver refuses an unsigned delivery (401)"
# The GitHub Action that runs the emulator in users' CI, against this release's archive and sums
# (a file:// address instead of the download, the rest as written).
say "the CI action .github/actions/videohost-emulator against this release"
"$root/scripts/action-check.sh" "$dist" || lib_fail "the CI action failed against the release (output above)"

# ---- the registry -------------------------------------------------------------------------------
go build -o "$lib_tmp/bin/registry" ./scripts/registry
lib_start registry "$lib_tmp/bin/registry" -root "$reg" -key "$lib_tmp/signing-key.asc" -key-id "$key_id" \
	-cert "$lib_tmp/registry.pem" -timeout 30m
registry_url=$(lib_first_line registry "$lib_last_pid")
host=${registry_url#https://}
export SSL_CERT_FILE="$lib_tmp/registry.pem"
curl -sS -f --max-time 10 --cacert "$SSL_CERT_FILE" -o /dev/null "$registry_url/.well-known/terraform.json" ||
	lib_fail "the registry does not answer at $registry_url"
say "registry at $registry_url (certificate in SSL_CERT_FILE)"

# ---- each CLI: install from the registry, apply, plan, destroy; refuse the bad releases ---------
# No dev_overrides, no plugin cache: the CLI installs from the registry like any user's.
: >"$lib_tmp/cli.tfrc"
export TF_CLI_CONFIG_FILE="$lib_tmp/cli.tfrc"
unset TF_PLUGIN_CACHE_DIR
lib_clean_tf_env
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
export VIDEOHOST_API_KEY="$api_key" VIDEOHOST_BASE_URL="$emulator_url"
export TF_VAR_youtube_stream_key="release-check-$RANDOM"

# tfc LOG CLI DIR ARGS... runs one CLI command (bounded to 5 minutes) with its output in
# $lib_tmp/LOG.log, and returns its status.
tfc() {
	local log=$1 cli=$2 dir=$3 rc=0
	shift 3
	lib_start "$log" timeout 300 "$cli" -chdir="$dir" "$@" -input=false -no-color
	lib_wait "$lib_last_pid" || rc=$?
	cat "$lib_tmp/$log.out" "$lib_tmp/$log.err" >"$lib_tmp/$log.log"
	rm -f "$lib_tmp/$log.out" "$lib_tmp/$log.err"
	return "$rc"
}

# tfc_ok is tfc, failing the check with the command's output when it fails.
tfc_ok() {
	local log=$1
	if ! tfc "$@"; then
		cat "$lib_tmp/$log.log"
		lib_fail "${*:4} failed with $2"
	fi
}

# workdir NAMESPACE DIR copies examples/getting-started into DIR with its provider's source on the
# registry's NAMESPACE and its version constraint pinned to the snapshot's version (a pre-release,
# which no "~>" constraint selects).
workdir() {
	mkdir -p "$2"
	sed -e "s|source  = \"videohost/videohost\"|source  = \"$host/$1/videohost\"|" \
		-e "s|version = \"~> 0.1.0\"|version = \"$version\"|" examples/getting-started/main.tf >"$2/main.tf"
	grep -q "source  = \"$host/$1/videohost\"" "$2/main.tf" && grep -q "version = \"$version\"" "$2/main.tf" ||
		lib_fail "examples/getting-started/main.tf no longer names source videohost/videohost and version ~> 0.1.0"
}

# refused NAMESPACE PATTERN WHAT: init from NAMESPACE must fail, saying PATTERN.
refused() {
	local ns=$1 pattern=$2 what=$3 dir="$lib_tmp/$n-$1"
	workdir "$ns" "$dir"
	if tfc "$n-init-$ns" "$cli" "$dir" init; then
		cat "$lib_tmp/$n-init-$ns.log"
		lib_fail "$label installed a release with $what"
	fi
	# The CLI wraps its messages; the reason is looked for in the output as one line.
	flat=$(tr -s '\n│ ' '   ' <"$lib_tmp/$n-init-$ns.log")
	if ! grep -Eiq "$pattern" <<<"$flat"; then
		cat "$lib_tmp/$n-init-$ns.log"
		lib_fail "$label refused the release with $what, but not for that reason (expected /$pattern/)"
	fi
	lib_say "    $what refused: ...$(grep -Eio ".{0,40}$pattern.{0,40}" <<<"$flat" | head -n 1)..."
}

rows=()
n=0
for cli in "${clis[@]}"; do
	cli=$(command -v "$cli") || lib_fail "$cli is neither on PATH nor an executable"
	# Read whole, not through head: a CLI that writes into a closed pipe fails under pipefail.
	label=$("$cli" version 2>/dev/null) || lib_fail "'$cli version' failed"
	label=${label%%$'\n'*}
	n=$((n + 1))
	t0=$SECONDS
	say "$label: init from $host, apply, plan, destroy examples/getting-started"
	dir="$lib_tmp/$n-ok"
	workdir videohost "$dir"
	tfc_ok "$n-init" "$cli" "$dir" init
	lock="$dir/.terraform.lock.hcl"
	[ -f "$lock" ] || lib_fail "$label wrote no .terraform.lock.hcl"
	grep -q "provider \"$host/videohost/videohost\"" "$lock" || lib_fail "the lock file does not name $host/videohost/videohost"
	zh=$(grep -c '"zh:[0-9a-f]\{64\}"' "$lock" || true)
	h1=$(grep -c '"h1:[A-Za-z0-9+/=]\{44\}"' "$lock" || true)
	# zh: hashes are the signed sums of every platform's zip: only a verified signature makes the
	# CLI trust, and record, the zips of the platforms it did not download. h1: is the hash of
	# the package the CLI unpacked.
	while read -r sum name; do
		grep -q "\"zh:$sum\"" "$lock" || lib_fail "$label's lock file has no zh: hash of $name"
	done < <(grep "  terraform-provider-videohost_${version}_[a-z0-9]*_[a-z0-9]*\.zip\$" "$dist/$sums")
	[ "$h1" -ge 1 ] || lib_fail "$label's lock file has no h1: hash"
	installed=$(find "$dir/.terraform/providers/$host/videohost/videohost/$version" -name "terraform-provider-videohost_v$version" -type f)
	[ -n "$installed" ] || lib_fail "$label did not install the provider under .terraform/providers/$host"
	lib_say "    installed: $(grep -Ei 'installed .*videohost' "$lib_tmp/$n-init.log" | head -n 1 | sed 's/^- //')"
	lib_say "    lock file: $zh zh: hashes (one per file of the signed sums: the zips, the manifest, the archives), $h1 h1:"
	tfc_ok "$n-apply" "$cli" "$dir" apply -auto-approve
	rc=0
	tfc "$n-plan" "$cli" "$dir" plan -detailed-exitcode || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$lib_tmp/$n-plan.log"
		lib_fail "$label: the plan after apply is not empty (exit $rc)"
	fi
	tfc_ok "$n-destroy" "$cli" "$dir" destroy -auto-approve
	lib_say "    applied, planned empty (-detailed-exitcode 0), destroyed"
	refused tampered 'incorrect checksum' "a tampered zip"
	refused badsig 'invalid signature' "a signature that does not match the sums"
	rows+=("$label|$zh|$h1|yes|yes|$((SECONDS - t0)) s")
done

# ---- the network mirror --------------------------------------------------------------------------
say "the release as a provider network mirror (scripts/mirror), served by a static file server"
go build -o "$lib_tmp/bin/mirror" ./scripts/mirror
# The same refusals as the CLIs', before anything is published: a signature of other bytes than
# the sums, and a zip that differs from the signed sums.
for bad in "badsig:does not verify" "tampered:the sums say"; do
	if "$lib_tmp/bin/mirror" -dist "$reg/${bad%%:*}" -out "$lib_tmp/mirror-${bad%%:*}" -key "$lib_tmp/signing-key.asc" >"$lib_tmp/mirror.log" 2>&1 ||
		! grep -q "${bad#*:}" "$lib_tmp/mirror.log"; then
		lib_fail "scripts/mirror did not refuse the ${bad%%:*} release saying '${bad#*:}': $(cat "$lib_tmp/mirror.log")"
	fi
done
"$lib_tmp/bin/mirror" -dist "$dist" -out "$lib_tmp/mirror" -key "$lib_tmp/signing-key.asc" >"$lib_tmp/mirror.log" 2>&1 ||
	lib_fail "scripts/mirror failed: $(cat "$lib_tmp/mirror.log")"
mirror_doc="$lib_tmp/mirror/registry.terraform.io/videohost/videohost/$version.json"
platforms=$(grep -Eo '"[a-z0-9]+_[a-z0-9]+": \{' "$mirror_doc" | tr -d '":{ ' | sort)
[ -n "$platforms" ] || lib_fail "the mirror's $version.json lists no platform: $(cat "$mirror_doc")"
nplatforms=$(wc -w <<<"$platforms")
for f in registry.opentofu.org/videohost/videohost/index.json registry.terraform.io/videohost/videohost/index.json "$sums" "$sums.sig"; do
	[ -f "$lib_tmp/mirror/$f" ] || lib_fail "the mirror has no $f"
done
gpg --batch --verify "$lib_tmp/mirror/$sums.sig" "$lib_tmp/mirror/$sums" 2>/dev/null ||
	lib_fail "the mirror's $sums.sig does not verify"
lib_start mirror "$lib_tmp/bin/registry" -static "$lib_tmp/mirror" -cert "$lib_tmp/mirror.pem" -timeout 30m
mirror_url=$(lib_first_line mirror "$lib_last_pid")
# Both servers' certificates, for the CLIs: SSL_CERT_FILE takes several.
cat "$lib_tmp/registry.pem" "$lib_tmp/mirror.pem" >"$lib_tmp/trusted.pem"
export SSL_CERT_FILE="$lib_tmp/trusted.pem"
curl -sS -f --max-time 10 --cacert "$lib_tmp/mirror.pem" -o /dev/null "$mirror_url/registry.terraform.io/videohost/videohost/index.json" ||
	lib_fail "the mirror does not serve index.json at $mirror_url"
cat >"$lib_tmp/mirror.tfrc" <<EOF
provider_installation {
  network_mirror {
    url = "$mirror_url/"
  }
}
EOF
lock_args=()
for p in $platforms; do
	lock_args+=("-platform=$p")
done
say "mirror at $mirror_url: $nplatforms platforms ($(tr '\n' ' ' <<<"$platforms")), sums verified"
mirror_rows=()
n=0
for cli in "${clis[@]}"; do
	cli=$(command -v "$cli")
	label=$("$cli" version 2>/dev/null)
	label=${label%%$'\n'*}
	n=$((n + 1))
	t0=$SECONDS
	dir="$lib_tmp/$n-mirror"
	mkdir -p "$dir"
	# The provider's usual source, videohost/videohost: the mirror answers for its host. The
	# version is the snapshot's, a pre-release, which no "~>" constraint selects.
	sed -e "s|version = \"~> 0.1.0\"|version = \"$version\"|" examples/getting-started/main.tf >"$dir/main.tf"
	# providers lock ignores provider_installation and asks the registry unless told the mirror;
	# it takes no -input, so it runs without tfc.
	lib_start "$n-mirror-lock" env TF_CLI_CONFIG_FILE="$lib_tmp/mirror.tfrc" timeout 300 "$cli" -chdir="$dir" \
		providers lock -no-color -net-mirror="$mirror_url/" "${lock_args[@]}"
	if ! lib_wait "$lib_last_pid"; then
		cat "$lib_tmp/$n-mirror-lock.out" "$lib_tmp/$n-mirror-lock.err"
		lib_fail "$label: providers lock -net-mirror=$mirror_url/ ${lock_args[*]} failed"
	fi
	h1=$(grep -c '"h1:[A-Za-z0-9+/=]\{44\}"' "$dir/.terraform.lock.hcl" || true)
	[ "$h1" -ge "$nplatforms" ] ||
		lib_fail "$label: providers lock wrote $h1 h1: hashes for $nplatforms platforms: $(cat "$dir/.terraform.lock.hcl")"
	cp "$dir/.terraform.lock.hcl" "$lib_tmp/$n-mirror.lock"
	TF_CLI_CONFIG_FILE="$lib_tmp/mirror.tfrc" tfc_ok "$n-mirror-init" "$cli" "$dir" init
	if grep -qi 'Incomplete lock file information' "$lib_tmp/$n-mirror-init.log"; then
		cat "$lib_tmp/$n-mirror-init.log"
		lib_fail "$label warned of an incomplete lock file after providers lock for every platform"
	fi
	cmp -s "$dir/.terraform.lock.hcl" "$lib_tmp/$n-mirror.lock" ||
		lib_fail "$label: init changed the lock file that providers lock wrote: $(diff "$lib_tmp/$n-mirror.lock" "$dir/.terraform.lock.hcl")"
	grep -Eiq "installed videohost/videohost v$version" "$lib_tmp/$n-mirror-init.log" ||
		lib_fail "$label: init did not install videohost/videohost $version from the mirror: $(cat "$lib_tmp/$n-mirror-init.log")"
	lib_say "    $label: providers lock for $nplatforms platforms ($h1 h1:), then init from the mirror: no warning"
	mirror_rows+=("$label|$nplatforms|$h1|no|$((SECONDS - t0)) s")
done

lib_say ""
lib_say "Release $version installed from the local registry ($((SECONDS - started)) s in all):"
lib_say ""
lib_table "CLI|zh: hashes|h1: hashes|tampered zip refused|bad signature refused|time" "${rows[@]}"
lib_say ""
lib_say "The same release as a network mirror at $mirror_url:"
lib_say ""
lib_table "CLI|platforms|h1: hashes after providers lock|incomplete lock warning at init|time" "${mirror_rows[@]}"
