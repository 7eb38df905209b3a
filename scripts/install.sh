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
# The version is scripts/version.sh's: the version CHANGELOG.md names in its first heading
# (## 0.1.0 (Unreleased)) for the commit of its release tag, and X.Y.Z+dev.COMMIT for any other
# commit, which `version = "~> 0.1.0"` matches too (build metadata) but which never poses as the
# release. The build is reproducible: the same commit gives the same bytes on any machine, in any
# checkout path and HOME, with the Go toolchain go.mod names (-trimpath, no VCS stamp, an empty
# build id, no cgo), so that a lock file written after one make install is accepted after
# another (scripts/reproducible-check.sh shows it). Beside the binary goes what the release's zip
# holds beside it (.goreleaser.yml's provider archive: LICENSE), so that the directory holds the
# zip's files: the CLIs record the h1: hash of the package's files, the unpacked directory's or
# the zip's, and a lock file written against make install is then accepted against a network
# mirror of the same build, and the other way round (TestAccInstallLockMixesWithMirror). Older
# development builds of the same version
# are removed first: the CLIs ignore build metadata when they order versions, so two of them
# side by side would be a tie. uninstall removes every build of videohost/videohost this script
# installed for this platform and the directories left empty up to the host's, nothing else.
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

version=$(./scripts/version.sh) || lib_fail "scripts/version.sh could not tell the version (above)"
base=${version%%+*}
platform=$(go env GOOS)_$(go env GOARCH)
plugins=$HOME/.terraform.d/plugins
binary=terraform-provider-videohost_v$version
hosts=(registry.terraform.io registry.opentofu.org)
# The files of the release's zip beside the binary: those of .goreleaser.yml's provider archive.
package_files=(LICENSE)

# dir HOST is where the binary goes for that registry host.
dir() { printf '%s/%s/videohost/videohost/%s/%s' "$plugins" "$1" "$version" "$platform"; }

# remove_builds HOST PATTERN removes the builds under HOST whose version matches the glob
# PATTERN, and the directories left empty, from the platform's up to the host's; a directory
# that still holds anything (another version, another provider) stays.
remove_builds() {
	local d bin up
	for d in "$plugins/$1/videohost/videohost"/$2/"$platform"; do
		[ -d "$d" ] || continue
		for bin in "$d"/terraform-provider-videohost_v*; do
			[ -e "$bin" ] || continue
			rm -f "$bin"
			lib_say "removed $bin"
		done
		for f in "${package_files[@]}"; do
			rm -f "${d:?}/$f"
		done
		for up in "$d" "${d%/*}" "${d%/*/*}" "${d%/*/*/*}" "${d%/*/*/*/*}"; do
			if ! { [ -d "$up" ] && rmdir "$up" 2>/dev/null; }; then
				break
			fi
		done
	done
}

if [ "$action" = uninstall ]; then
	for host in "${hosts[@]}"; do
		remove_builds "$host" "*"
	done
	lib_say "videohost/videohost is no longer installed here; terraform init looks for it in the registry, which has no release of it yet (make install puts it back)"
	exit 0
fi

# The same commit must give the same bytes everywhere: Go's version is part of them.
want_go=go$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)
have_go=$(go env GOVERSION)
if [ "$have_go" != "$want_go" ]; then
	lib_say "install: warning: building with $have_go, not $want_go (go.mod): the binary differs from a build with $want_go; GOTOOLCHAIN=$want_go make install builds with that one" >&2
fi
for host in "${hosts[@]}"; do
	remove_builds "$host" "$base+dev.*"
done
first=$(dir "${hosts[0]}")
mkdir -p "$first"
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w -buildid= -X main.version=$version" -o "$first/$binary.tmp" .
mv -f "$first/$binary.tmp" "$first/$binary"
for f in "${package_files[@]}"; do
	install -m 0644 "$f" "$first/$f"
done
lib_say "installed $first/$binary"
for host in "${hosts[@]:1}"; do
	d=$(dir "$host")
	mkdir -p "$d"
	# A hard link where the file system allows it: one copy on disk for both hosts.
	for f in "$binary" "${package_files[@]}"; do
		ln -f "$first/$f" "$d/$f" 2>/dev/null || cp -f "$first/$f" "$d/$f"
	done
	lib_say "installed $d/$binary"
done
sha=$(sha256sum "$first/$binary" | cut -d' ' -f1)
lib_say "installed videohost/videohost $version ($platform, $have_go, SHA-256 $sha)"
if [ "$version" != "$base" ]; then
	lib_say "  a development build of commit ${version#*+dev.}, not the $base release: terraform init"
	lib_say "  and terraform version show it as v$version"
fi
lib_say "A plain terraform init (or tofu init) of a configuration that requires"
lib_say "source = \"videohost/videohost\", version = \"~> $base\", installs it from there instead of the"
lib_say "registry. A configuration whose lock file names another build needs terraform init -upgrade;"
lib_say "make uninstall removes it."
