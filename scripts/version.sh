#!/usr/bin/env bash
# Prints the version of a build of this checkout, for `make build` and `make install`:
#
#   X.Y.Z                the release itself: HEAD is the commit of the tag vX.Y.Z, no tracked
#                        file differs from it and no file is untracked unless git ignores it;
#   X.Y.Z+dev.COMMIT     any other commit (COMMIT: the first 12 hex digits of HEAD), with
#                        ".dirty" added when tracked files differ from HEAD or a file that git
#                        does not ignore is untracked (a zz_extra.go in package main is built in
#                        as surely as a changed one);
#   X.Y.Z+dev.unknown    no git repository to ask (a source archive), with a warning.
#
# X.Y.Z is the version CHANGELOG.md names in its first heading (## 0.1.0 (Unreleased)). The
# suffix is semantic versioning's build metadata, not a pre-release: Terraform and OpenTofu
# ignore it when they match `version = "~> 0.1.0"`, so a development build installs where a
# configuration asks for the release, but it shows in `terraform init` ("Installed
# videohost/videohost v0.1.0+dev.9abc921a0b1c"), in the lock file and in the provider's own
# version, so that it never poses as the release. A pre-release (0.1.0-dev) would match no "~>"
# constraint, and every example would need editing to try a build.
set -euo pipefail
cd "$(dirname "$0")/.."

base=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' CHANGELOG.md | head -n 1)
if [ -z "$base" ]; then
	echo "version: CHANGELOG.md has no heading '## X.Y.Z' to take the version from" >&2
	exit 1
fi
if ! command -v git >/dev/null 2>&1 || ! commit=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	echo "version: no git repository here: building as $base+dev.unknown (a build of a release comes from its tag's checkout)" >&2
	printf '%s+dev.unknown\n' "$base"
	exit 0
fi
# git status lists the files that differ from HEAD and, by default, every untracked file that
# .gitignore does not cover: either makes the build differ from the tag's. A status that fails
# counts as dirty, so that a release version is never printed by guess.
dirty=""
if ! status=$(git status --porcelain 2>/dev/null) || [ -n "$status" ]; then
	dirty=.dirty
fi
if [ -z "$dirty" ] && git tag --points-at HEAD 2>/dev/null | grep -qx "v$base"; then
	printf '%s\n' "$base"
else
	printf '%s+dev.%s%s\n' "$base" "$commit" "$dirty"
fi
