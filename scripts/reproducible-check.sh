#!/usr/bin/env bash
# Reproducible builds (`make reproducible-check`): the same commit gives byte-identical provider
# binaries and release archives on any machine, in any checkout path and HOME. It clones the
# checkout's HEAD twice, at paths of different depths, and in each, with a HOME of its own:
#
#   - runs `make install` and compares the SHA-256 of the two installed binaries, which must be
#     equal, and checks that the version make install printed is scripts/version.sh's (a
#     development build carries its commit: X.Y.Z+dev.COMMIT);
#   - with each CLI, writes .terraform.lock.hcl by `init` against the first clone's install,
#     then runs `init` with that lock file against the second's, which must accept it (a build
#     that differs fails there: "doesn't match any of the checksums previously recorded");
#   - unless REPRO_ARCHIVES=0, builds a GoReleaser snapshot of this platform (the sums signed by
#     no one: --skip=sign) and compares the two SHA256SUMS files, which cover every archive.
#
# Only the committed HEAD is built: uncommitted changes are not in the clones. Go's caches are
# shared by both builds (GOCACHE, GOMODCACHE): the build's output does not depend on them.
#
#   REPRO_CLIS="path ..."  the terraform or tofu binaries (default: the CLIs of ../shared/cli
#                          when that folder exists, unpacked once, then $TERRAFORM)
#   REPRO_ARCHIVES=0       skip the GoReleaser archives (they need GoReleaser, built once into
#                          ~/.cache/terraform-provider-videohost as make release-check does)
#   GORELEASER_VERSION     default v2.14.3
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=reproducible-check
started=$SECONDS

lib_need go "install Go (the version in go.mod)"
lib_need git "install git; the check builds two clones of HEAD"
lib_need make "install GNU make"
lib_need sha256sum "install coreutils"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-repro.XXXXXX")
lib_traps

say() { lib_say "==> [$((SECONDS - started)) s] $*"; }

if [ -z "${REPRO_CLIS:-}" ]; then
	shared="$root/../shared/cli"
	if [ -x "$shared/unpack.sh" ]; then
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/cli
		REPRO_CLIS=$("$shared/unpack.sh" "$cache" | tr '\n' ' ') || lib_fail "unpacking the CLIs of $shared failed"
	fi
	lib_need_terraform
	REPRO_CLIS="${REPRO_CLIS:-} $(command -v "$TERRAFORM")"
fi
# shellcheck disable=SC2206 # REPRO_CLIS is a space-separated list of paths by design.
clis=($REPRO_CLIS)

# Go's caches stay where they are for both builds (a HOME of its own would otherwise move them
# and rebuild every dependency); GOPATH too, whose default is under HOME.
gocache=$(go env GOCACHE)
gomodcache=$(go env GOMODCACHE)
gopath=$(go env GOPATH)

# in_home HOME CMD... runs CMD with that HOME and none of the caller's Terraform, OpenTofu or
# XDG settings, so that nothing but the install under HOME provides the provider.
in_home() {
	local home=$1
	shift
	env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_CACHE_HOME -u TF_CLI_CONFIG_FILE -u TF_PLUGIN_CACHE_DIR \
		-u TF_DATA_DIR -u TF_LOG -u TF_CLI_ARGS -u TF_CLI_ARGS_init -u TERRAFORM_CONFIG \
		HOME="$home" GOCACHE="$gocache" GOMODCACHE="$gomodcache" GOPATH="$gopath" \
		CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 TF_INPUT=0 "$@"
}

commit=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	lib_say "reproducible-check: note: the checkout has uncommitted changes; the check builds the commit $commit"
fi
checkouts=("$lib_tmp/a/src" "$lib_tmp/b/somewhere/much/deeper/terraform-provider-videohost")
homes=("$lib_tmp/a/home" "$lib_tmp/b/home")
shas=()
for i in 0 1; do
	say "clone $((i + 1)) of $commit at ${checkouts[$i]}, HOME=${homes[$i]}: make install"
	git clone -q --no-hardlinks "$root" "${checkouts[$i]}"
	git -C "${checkouts[$i]}" checkout -q "$commit"
	mkdir -p "${homes[$i]}"
	in_home "${homes[$i]}" make --no-print-directory -C "${checkouts[$i]}" install >"$lib_tmp/install-$i.log" 2>&1 ||
		{
			cat "$lib_tmp/install-$i.log"
			lib_fail "make install failed in ${checkouts[$i]}"
		}
	version=$(sed -n 's/^installed videohost\/videohost \([^ ]*\) .*/\1/p' "$lib_tmp/install-$i.log")
	expected=$(in_home "${homes[$i]}" "${checkouts[$i]}/scripts/version.sh")
	[ "$version" = "$expected" ] ||
		lib_fail "make install printed the version '$version', not scripts/version.sh's '$expected': $(cat "$lib_tmp/install-$i.log")"
	bin=$(find "${homes[$i]}/.terraform.d/plugins/registry.terraform.io" -type f -name "terraform-provider-videohost_v$version")
	[ -n "$bin" ] || lib_fail "make install put no terraform-provider-videohost_v$version under ${homes[$i]}"
	shas+=("$(sha256sum "$bin" | cut -d' ' -f1)")
	lib_say "    installed $version: SHA-256 ${shas[$i]}"
done
[ "${shas[0]}" = "${shas[1]}" ] ||
	lib_fail "the two clones built different binaries (${shas[0]} and ${shas[1]}): a flag of scripts/install.sh no longer makes the build reproducible"

rows=()
n=0
for cli in "${clis[@]}"; do
	cli=$(command -v "$cli") || lib_fail "$cli is neither on PATH nor an executable"
	# Read whole, then the line that names the CLI: a CLI may print a warning first.
	label=$(in_home "${homes[0]}" "$cli" version 2>/dev/null) || lib_fail "'$cli version' failed"
	label=$(grep -m 1 -E '^(Terraform|OpenTofu) v' <<<"$label") || lib_fail "'$cli version' names neither Terraform nor OpenTofu"
	n=$((n + 1))
	t0=$SECONDS
	say "$label: a lock file written with clone 1's install, then init with clone 2's"
	first="$lib_tmp/cli-$n/first"
	second="$lib_tmp/cli-$n/second"
	mkdir -p "$first" "$second"
	cat >"$first/main.tf" <<'TF'
terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}
TF
	cp "$first/main.tf" "$second/main.tf"
	in_home "${homes[0]}" timeout 300 "$cli" -chdir="$first" init -no-color >"$lib_tmp/init-$n-1.log" 2>&1 ||
		{
			cat "$lib_tmp/init-$n-1.log"
			lib_fail "$label: init against clone 1's install failed"
		}
	grep -q "version     = \"$version\"" "$first/.terraform.lock.hcl" ||
		lib_fail "$label: the lock file does not name version $version: $(cat "$first/.terraform.lock.hcl")"
	cp "$first/.terraform.lock.hcl" "$second/"
	in_home "${homes[1]}" timeout 300 "$cli" -chdir="$second" init -no-color >"$lib_tmp/init-$n-2.log" 2>&1 ||
		{
			cat "$lib_tmp/init-$n-2.log"
			lib_fail "$label: init against clone 2's install refused the lock file written against clone 1's"
		}
	cmp -s "$first/.terraform.lock.hcl" "$second/.terraform.lock.hcl" ||
		lib_fail "$label: init against clone 2's install changed the lock file: $(diff "$first/.terraform.lock.hcl" "$second/.terraform.lock.hcl")"
	rows+=("$label|$version|accepted|$((SECONDS - t0)) s")
done

archives=skipped
if [ "${REPRO_ARCHIVES:-1}" != 0 ]; then
	gr=$(lib_goreleaser_path "${GORELEASER_VERSION:-$lib_goreleaser_version}")
	[ -x "$gr" ] || lib_fail "$gr is missing: make release-check builds it once (or run with REPRO_ARCHIVES=0)"
	target=$(lib_goreleaser_host_target)
	for i in 0 1; do
		say "clone $((i + 1)): goreleaser release --snapshot ($target, unsigned)"
		# The project's configuration with this platform only and the output outside the clone.
		lib_goreleaser_config "${checkouts[$i]}/.goreleaser.yml" "$lib_tmp/dist-$i" "$target" >"$lib_tmp/goreleaser-$i.yml"
		(cd "${checkouts[$i]}" && in_home "${homes[$i]}" timeout 1200 "$gr" release --snapshot --clean --skip=sign \
			--config "$lib_tmp/goreleaser-$i.yml") >"$lib_tmp/goreleaser-$i.log" 2>&1 ||
			{
				tail -n 40 "$lib_tmp/goreleaser-$i.log"
				lib_fail "goreleaser failed in clone $((i + 1)) (log above)"
			}
	done
	sums0=$(ls "$lib_tmp"/dist-0/*_SHA256SUMS)
	sums1=$(ls "$lib_tmp"/dist-1/*_SHA256SUMS)
	if ! cmp -s "$sums0" "$sums1"; then
		diff "$sums0" "$sums1" || true
		lib_fail "the two clones' archives differ (above): .goreleaser.yml no longer makes them reproducible"
	fi
	archives="$(wc -l <"$sums0") files of $(basename "$sums0") identical"
	lib_say "    $archives"
fi

lib_say ""
lib_say "Reproducible: make install in two clones gave SHA-256 ${shas[0]} ($version); archives: $archives ($((SECONDS - started)) s in all)"
lib_say ""
lib_table "CLI|version|lock file of clone 1 at init with clone 2|time" "${rows[@]}"
