#!/usr/bin/env bash
# Module authors' tests (`make module-test`): runs `terraform test` (or `tofu test`) in
# examples/module-tests with each CLI, so that what the module testing guide promises holds on
# every CLI of the README's table:
#
#   - tests/unit.tftest.hcl: mock_provider "videohost", no service and no key;
#   - tests/emulator.tftest.hcl: the development build against the emulator (started here as a
#     process on a free loopback port, with a random key), applied and destroyed by the test.
#
# The provider is this checkout's development build, named in a dev_overrides CLI configuration in
# a temporary directory (TF_CLI_CONFIG_FILE; ~/.terraformrc is never read or written), and each
# CLI runs in a temporary copy of the example, so that the checkout is left as it was.
#
#   MODULE_TEST_CLIS="path ..."  the terraform or tofu binaries (default: the CLIs of
#                                ../shared/cli when that folder exists, unpacked once, then
#                                $TERRAFORM)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=module-test
started=$SECONDS
example=examples/module-tests

lib_need go "install Go (the version in go.mod)"
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-module-test.XXXXXX")
lib_traps

if [ -z "${MODULE_TEST_CLIS:-}" ]; then
	shared="$root/../shared/cli"
	if [ -x "$shared/unpack.sh" ]; then
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/cli
		MODULE_TEST_CLIS=$("$shared/unpack.sh" "$cache" | tr '\n' ' ') || lib_fail "unpacking the CLIs of $shared failed"
	fi
	lib_need_terraform
	MODULE_TEST_CLIS="${MODULE_TEST_CLIS:-} $(command -v "$TERRAFORM")"
fi
# shellcheck disable=SC2206 # MODULE_TEST_CLIS is a space-separated list of paths by design.
clis=($MODULE_TEST_CLIS)

lib_say "==> building the provider and the emulator into $lib_tmp/bin"
go build -o "$lib_tmp/bin/terraform-provider-videohost" .
go build -o "$lib_tmp/bin/videohost-emulator" ./cmd/videohost-emulator
api_key="module_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
lib_start emulator "$lib_tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -api-key "$api_key"
emulator_url=$(lib_first_line emulator "$lib_last_pid")
lib_wait_http "$emulator_url/_emulator/"

lib_dev_overrides "$lib_tmp/dev.tfrc" "$lib_tmp/bin"
lib_clean_tf_env
unset TF_PLUGIN_CACHE_DIR
export TF_CLI_CONFIG_FILE="$lib_tmp/dev.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
export VIDEOHOST_BASE_URL="$emulator_url" VIDEOHOST_API_KEY="$api_key"

rows=()
n=0
for cli in "${clis[@]}"; do
	cli=$(command -v "$cli") || lib_fail "$cli is neither on PATH nor an executable"
	label=$("$cli" version 2>/dev/null) || lib_fail "'$cli version' failed"
	label=$(grep -m 1 -E '^(Terraform|OpenTofu) v' <<<"$label") || lib_fail "'$cli version' names neither Terraform nor OpenTofu"
	n=$((n + 1))
	work="$lib_tmp/work-$n"
	cp -R "$example" "$work"
	t0=$SECONDS
	lib_say "==> [$((SECONDS - started)) s] $label: test in a copy of $example"
	rc=0
	timeout 600 "$cli" -chdir="$work" test -no-color >"$lib_tmp/test-$n.log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$lib_tmp/test-$n.log"
		lib_fail "$label: the tests of $example failed (exit $rc, output above)"
	fi
	summary=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$lib_tmp/test-$n.log" | tail -n 1)
	passed=${summary%% passed*}
	# Every run block of the example's test files, the mocked ones and the emulator's.
	want=$(cat "$example"/tests/*.tftest.hcl | grep -c '^run "')
	[ "${passed:-0}" -eq "$want" ] || {
		cat "$lib_tmp/test-$n.log"
		lib_fail "$label: $summary, expected $want passed"
	}
	for file in unit emulator; do
		grep -q "tests/$file.tftest.hcl... .*pass" "$lib_tmp/test-$n.log" ||
			lib_fail "$label did not pass tests/$file.tftest.hcl: $(cat "$lib_tmp/test-$n.log")"
	done
	# The emulator's test destroyed what it created.
	left=$(curl -sS -f --max-time 10 -u "$api_key:" "$emulator_url/webhooks") || lib_fail "GET /webhooks failed"
	if grep -q '"webhookId"' <<<"$left"; then
		lib_fail "$label: the test left a webhook in the emulator: $left"
	fi
	rows+=("$label|$summary|$((SECONDS - t0)) s")
done

lib_say ""
lib_say "terraform test / tofu test of $example ($((SECONDS - started)) s in all):"
lib_say ""
lib_table "CLI|runs|time" "${rows[@]}"
