#!/usr/bin/env bash
# Validates every example directory against a development build of the provider.
#
# It builds the provider into a temporary directory, points Terraform at it with a dev_overrides
# CLI configuration in that directory (TF_CLI_CONFIG_FILE; ~/.terraformrc is never read or
# written), and runs `terraform validate` (the CLI named by TERRAFORM, default terraform) in a
# temporary copy of each example directory, so the repository stays clean. With dev_overrides
# Terraform needs no `terraform init` for this provider. An example without a required_providers
# block gets one in its copy, because without it Terraform would look for hashicorp/videohost.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"

lib_need_terraform
tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "==> Building the provider into $tmp/bin"
go build -o "$tmp/bin/terraform-provider-videohost" .

lib_dev_overrides "$tmp/dev.tfrc" "$tmp/bin"
export TF_CLI_CONFIG_FILE="$tmp/dev.tfrc"
export TF_IN_AUTOMATION=1
export CHECKPOINT_DISABLE=1

failed=0
count=0

# validate runs `validate` with the given flags in the copy $1, reports it as $2, and counts it.
validate() {
	local work=$1 label=$2 out
	shift 2
	count=$((count + 1))
	# The warning about development overrides is expected; anything else is shown on failure.
	if out=$("$TERRAFORM" -chdir="$work" validate "$@" -no-color 2>&1); then
		echo "ok   $label"
	else
		echo "FAIL $label"
		echo "$out" | sed 's/^/     /'
		failed=$((failed + 1))
	fi
}

# Actions (examples/actions) and query files are read only by Terraform 1.14 and later, which
# alone has `validate -query`. The help is read whole first: grep -q stops reading at the first
# match, and under pipefail the writer's broken pipe would read as "no -query".
validate_help=$("$TERRAFORM" validate -help 2>&1 || true)
while IFS= read -r dir; do
	rel=${dir#"$root"/}
	if [[ $rel == examples/actions/* ]] && ! grep -q -- '-query' <<<"$validate_help"; then
		echo "skip $rel: action blocks need Terraform 1.14 or later, not $("$TERRAFORM" version 2>/dev/null | head -n 1)"
		continue
	fi
	work="$tmp/work/$rel"
	mkdir -p "$work"
	cp "$dir"/*.tf "$work"/
	if ! grep -q required_providers "$work"/*.tf; then
		lib_required_providers >"$work/zz_required_providers.tf"
	fi
	validate "$work" "$rel"
done < <(find "$root/examples" -name '*.tf' -exec dirname {} \; | sort -u)

# Query files (.tfquery.hcl: list blocks for terraform query) are read only by Terraform 1.14 and
# later, with `validate -query`; an older Terraform or OpenTofu skips them and says so.
while IFS= read -r dir; do
	rel=${dir#"$root"/}
	if ! grep -q -- '-query' <<<"$validate_help"; then
		echo "skip $rel: its .tfquery.hcl files need Terraform 1.14 or later (validate -query), not $("$TERRAFORM" version 2>/dev/null | sed -n 1p)"
		continue
	fi
	work="$tmp/query/$rel"
	mkdir -p "$work"
	cp "$dir"/*.tfquery.hcl "$work"/
	{
		lib_required_providers
		printf '\nprovider "videohost" {}\n'
	} >"$work/zz_provider.tf"
	validate "$work" "$rel (query)" -query
done < <(find "$root/examples" -name '*.tfquery.hcl' -exec dirname {} \; | sort -u)

if [ "$count" -eq 0 ]; then
	echo "no example directories found under examples/" >&2
	exit 1
fi
if [ "$failed" -ne 0 ]; then
	echo "$failed of $count example directories do not validate" >&2
	exit 1
fi
echo "all $count example directories validate"
