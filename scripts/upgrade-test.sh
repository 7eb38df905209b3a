#!/usr/bin/env bash
# make upgrade-test: every resource kind applied by an earlier build of the provider, then planned
# by this checkout's build with no change, no replacement and no warning (TestAccUpgradeFromEarlierBuild).
#
# The earlier builds are each release recorded in releases/ (releases/X.Y.Z/COMMIT names the
# commit the tag vX.Y.Z points at) and the build that pilots ran before the first release
# (commit 29fc5c4). Each is built from its commit in a scratch clone (cached by commit under
# ~/.cache/terraform-provider-videohost/upgrade) and laid out in a filesystem mirror of its own,
# from which terraform init installs it as a user installs a release. UPGRADE_CLIS="path ..."
# runs it with each CLI (default: the terraform on PATH); UPGRADE_FROM="VERSION=COMMIT ..."
# replaces the list of earlier builds.
#
# Last, the test is shown to catch what it is for: in a scratch clone of HEAD whose webhook
# resource makes created_at a number instead of a string (a schema change without a state
# upgrader), it must fail from the first earlier build, with the first CLI. UPGRADE_MUTANT=0
# skips that. (A renamed computed attribute is no such change: the framework drops the old
# attribute from the state and the next refresh fills the new one, with no change planned.)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
lib_name=upgrade-test

lib_need go "install Go (the version in go.mod)"
lib_need git "install git: the earlier builds are built from their commits"
lib_need terraform "install Terraform >= 1.11 and put it on PATH"

# The pilots' build is labelled as a pre-release of 0.1.0 in its mirror, so that a configuration
# can ask for it alone (= 0.1.0-pilot.29fc5c4).
pilot="0.1.0-pilot.29fc5c4=29fc5c4"
from=${UPGRADE_FROM:-}
if [ -z "$from" ]; then
	from=$pilot
	for rec in releases/*/COMMIT; do
		[ -f "$rec" ] || continue
		from+=" $(basename "$(dirname "$rec")")=$(head -n 1 "$rec")"
	done
fi
clis=${UPGRADE_CLIS:-$(command -v terraform)}

cache=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/upgrade
work=$(mktemp -d "${TMPDIR:-/tmp}/videohost-upgrade.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache"
platform="$(go env GOOS)_$(go env GOARCH)"

# build VERSION COMMIT prints the path of the earlier build, building it when the cache lacks it.
build() {
	local version=$1 commit=$2 out src
	out=$cache/$commit/terraform-provider-videohost
	if [ ! -x "$out" ]; then
		git cat-file -e "$commit^{commit}" 2>/dev/null ||
			lib_fail "commit $commit of $version is not in this clone (a shallow clone?): fetch the whole history (git fetch --unshallow)"
		src=$work/src-$commit
		git clone --quiet --shared --no-checkout . "$src"
		git -C "$src" checkout --quiet "$commit"
		lib_say "upgrade-test: building $version from $commit" >&2
		mkdir -p "$cache/$commit"
		(cd "$src" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=$version" -o "$out.tmp" .)
		mv "$out.tmp" "$out"
		rm -rf "$src"
	fi
	printf '%s\n' "$out"
}

rows=()
rc=0
for pair in $from; do
	version=${pair%%=*}
	commit=${pair#*=}
	bin=$(build "$version" "$commit")
	mirror=$work/mirror-$version
	for host in registry.terraform.io registry.opentofu.org; do
		d=$mirror/$host/videohost/videohost/$version/$platform
		mkdir -p "$d"
		cp "$bin" "$d/terraform-provider-videohost_v$version"
	done
	for cli in $clis; do
		host_env=()
		name="$(env -u TF_CLI_CONFIG_FILE "$cli" version | head -n 1)"
		case "$name" in OpenTofu*) host_env=(TF_ACC_PROVIDER_HOST=registry.opentofu.org) ;; esac
		lib_say "==> upgrade-test: from $version ($commit) with $name"
		status=passed
		if ! env "${host_env[@]}" TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" VIDEOHOST_UPGRADE_MIRROR="$mirror" VIDEOHOST_UPGRADE_VERSION="$version" \
			go test -count=1 -timeout 15m -run '^TestAccUpgradeFromEarlierBuild$' -v ./internal/provider/ >"$work/out" 2>&1; then
			status=failed
			rc=1
			cat "$work/out"
		elif ! grep -q -- '^--- PASS: TestAccUpgradeFromEarlierBuild' "$work/out"; then
			status="did not run"
			rc=1
			cat "$work/out"
		fi
		rows+=("$version ($commit)|$name|$status")
	done
done

# The mutant: the webhook's created_at a number in its schema, with no state upgrader.
if [ "${UPGRADE_MUTANT:-1}" != 0 ]; then
	first=${from%% *}
	version=${first%%=*}
	commit=${first#*=}
	cli=${clis%% *}
	name="$(env -u TF_CLI_CONFIG_FILE "$cli" version | head -n 1)"
	host_env=()
	case "$name" in OpenTofu*) host_env=(TF_ACC_PROVIDER_HOST=registry.opentofu.org) ;; esac
	mutant=$work/mutant
	git clone --quiet --shared . "$mutant"
	git -C "$mutant" checkout --quiet "$(git rev-parse HEAD)"
	sed -i 's/"created_at": framework.KeptString("Creation time of the webhook, RFC 3339."),/"created_at": schema.Int64Attribute{Computed: true},/' \
		"$mutant"/internal/provider/webhook/resource.go
	grep -q '"created_at": schema.Int64Attribute' "$mutant"/internal/provider/webhook/resource.go ||
		lib_fail "the mutation no longer applies to internal/provider/webhook/resource.go: update it in $0"
	lib_say "==> upgrade-test: a mutant of HEAD (the webhook's created_at a number, no state upgrader), from $version with $name"
	status="caught"
	if (cd "$mutant" && env "${host_env[@]}" TF_ACC=1 TF_ACC_TERRAFORM_PATH="$cli" VIDEOHOST_UPGRADE_MIRROR="$work/mirror-$version" \
		VIDEOHOST_UPGRADE_VERSION="$version" go test -count=1 -timeout 15m -run '^TestAccUpgradeFromEarlierBuild$' -v ./internal/provider/ >"$work/out" 2>&1); then
		status="NOT caught"
		rc=1
		cat "$work/out"
	elif grep -q "this build's plan" "$work/out"; then
		# Caught where it must be, at the plan of this build: its error says how.
		grep -A 4 'Error:' "$work/out" | head -n 12
	else
		# It failed, but not at the plan of this build over the earlier build's state.
		status="failed elsewhere"
		rc=1
		cat "$work/out"
	fi
	rows+=("mutant of HEAD from $version|$name|$status")
fi
lib_table "from|CLI|result" "${rows[@]}"
exit "$rc"
