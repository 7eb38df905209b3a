#!/usr/bin/env bash
# Regenerates docs/ with tfplugindocs (`make docs`), which runs the `terraform` it finds on PATH
# to read the provider's schema. With TERRAFORM naming another Terraform binary, that binary is
# put first on PATH under the name terraform. OpenTofu cannot stand in: tfplugindocs installs the
# provider under registry.terraform.io, where OpenTofu does not look, so with TERRAFORM naming an
# OpenTofu the terraform on PATH generates the docs, and this says so.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. "$(pwd)/scripts/lib.sh"
lib_name=docs

if [ "$TERRAFORM" != terraform ]; then
	lib_need_terraform
	if [[ $("$TERRAFORM" version 2>/dev/null) == OpenTofu* ]]; then
		lib_say "docs: TERRAFORM names OpenTofu, which tfplugindocs cannot use; the terraform on PATH generates the docs"
	else
		shim=$(mktemp -d "${TMPDIR:-/tmp}/videohost-docs.XXXXXX")
		trap 'rm -rf "$shim"' EXIT
		ln -s "$(readlink -f "$(command -v "$TERRAFORM")")" "$shim/terraform"
		PATH="$shim:$PATH"
	fi
fi
lib_need terraform "tfplugindocs runs the terraform on PATH; install Terraform >= 1.11"
go tool tfplugindocs generate --provider-name videohost
