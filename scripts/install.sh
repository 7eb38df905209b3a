#!/usr/bin/env bash
# `make install` and `make uninstall`: a build of this checkout where a plain `terraform init`
# (or `tofu init`) finds it with no CLI configuration at all, and its removal.
#
# Terraform and OpenTofu both search ~/.terraform.d/plugins, one of their "implied local mirror
# directories", before any registry: a provider found there is installed from there, under the
# registry host the CLI resolves the source to (registry.terraform.io for Terraform,
# registry.opentofu.org for OpenTofu), in the unpacked layout
# HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION. The other implied
# directories differ between the two (Terraform: $XDG_DATA_HOME/terraform/plugins; OpenTofu:
# $XDG_DATA_HOME/opentofu/plugins), so this one serves both with one copy per host.
#
# The version is the one CHANGELOG.md names in its first heading (## 0.1.0 (Unreleased)), so
# that `version = "~> 0.1"` matches. uninstall removes the two binaries and the directories
# left empty up to the host's, nothing else.
#
#   install.sh install|uninstall
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. "$(pwd)/scripts/lib.sh"
lib_name=install

action=${1:-}
[ "$action" = install ] || [ "$action" = uninstall ] || lib_fail "usage: $0 install|uninstall"
lib_need go "install Go (the version in go.mod)"
[ -n "${HOME:-}" ] || lib_fail "HOME is not set: the CLIs look for ~/.terraform.d/plugins in it"

version=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' CHANGELOG.md | head -n 1)
[ -n "$version" ] || lib_fail "CHANGELOG.md has no heading '## X.Y.Z' to take the version from"
platform=$(go env GOOS)_$(go env GOARCH)
plugins=$HOME/.terraform.d/plugins
binary=terraform-provider-videohost_v$version
hosts=(registry.terraform.io registry.opentofu.org)

# dir HOST is where the binary goes for that registry host.
dir() { printf '%s/%s/videohost/videohost/%s/%s' "$plugins" "$1" "$version" "$platform"; }

if [ "$action" = uninstall ]; then
	for host in "${hosts[@]}"; do
		d=$(dir "$host")
		if [ -e "$d/$binary" ]; then
			rm -f "$d/$binary"
			lib_say "removed $d/$binary"
		fi
		# The directories left empty, from the platform's up to the host's; a directory that
		# still holds anything (another version, another provider) stays.
		for up in "$d" "${d%/*}" "${d%/*/*}" "${d%/*/*/*}" "${d%/*/*/*/*}"; do
			[ -d "$up" ] && rmdir "$up" 2>/dev/null || break
		done
	done
	lib_say "videohost/videohost $version is no longer installed here; terraform init looks for it in the registry, which has no release of it yet (make install puts it back)"
	exit 0
fi

first=$(dir "${hosts[0]}")
mkdir -p "$first"
go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$first/$binary.tmp" .
mv -f "$first/$binary.tmp" "$first/$binary"
lib_say "installed $first/$binary"
for host in "${hosts[@]:1}"; do
	d=$(dir "$host")
	mkdir -p "$d"
	# A hard link where the file system allows it: one copy on disk for both hosts.
	ln -f "$first/$binary" "$d/$binary" 2>/dev/null || cp -f "$first/$binary" "$d/$binary"
	lib_say "installed $d/$binary"
done
lib_say "videohost/videohost $version ($platform) is installed for Terraform and OpenTofu: a plain"
lib_say "terraform init (or tofu init) of a configuration that requires source = \"videohost/videohost\","
lib_say "version = \"~> 0.1\", installs it from there instead of the registry. After a new make install,"
lib_say "run terraform init -upgrade in configurations already initialized (their lock file holds the"
lib_say "old build's checksum); make uninstall removes it."
