#!/usr/bin/env bash
# The README's quick start leaves nothing in the checkout that git does not ignore
# (`make quickstart-check`): in a scratch clone of HEAD, with a HOME of its own, it runs the
# README's first "shell: run" block as written, then checks that `git status` shows nothing,
# that what git ignores is what the README says the quick start leaves, and that the README's
# removal command, run as written, leaves nothing ignored either; then make uninstall.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=quickstart-check
started=$SECONDS

lib_need git "install git; the check runs the quick start in a clone"
lib_need_terraform
lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-quickstart.XXXXXX")
lib_traps

# The command the README gives to remove what the quick start leaves in the checkout.
removal='git clean -fdX examples/ && rm -f videohost-emulator emulator.out'
grep -qF -- "\`$removal\`" README.md || lib_fail "README.md no longer gives the removal command '$removal': update this check with it"

clone=$lib_tmp/src
git clone -q --no-hardlinks "$root" "$clone"
git -C "$clone" checkout -q "$(git rev-parse HEAD)"
mkdir -p "$lib_tmp/home"
# The README's first block marked "shell: run": the quick start.
awk '/^<!-- shell: run -->$/ { marked = 1; next }
	marked && /^```sh$/ { inside = 1; next }
	inside && /^```$/ { exit }
	inside { print }' README.md >"$lib_tmp/quickstart.sh"
[ -s "$lib_tmp/quickstart.sh" ] || lib_fail "README.md has no block marked <!-- shell: run -->"

# in_home runs a command in the clone with the scratch HOME, Go's caches kept where they are,
# and none of the caller's Terraform settings.
gocache=$(go env GOCACHE)
gomodcache=$(go env GOMODCACHE)
gopath=$(go env GOPATH)
in_home() {
	(cd "$clone" && env -u TF_CLI_CONFIG_FILE -u TF_PLUGIN_CACHE_DIR -u TF_DATA_DIR -u XDG_CONFIG_HOME -u XDG_DATA_HOME \
		-u VIDEOHOST_BASE_URL -u VIDEOHOST_API_KEY HOME="$lib_tmp/home" GOCACHE="$gocache" GOMODCACHE="$gomodcache" \
		GOPATH="$gopath" CHECKPOINT_DISABLE=1 PATH="$(dirname "$(command -v "$TERRAFORM")"):$PATH" "$@")
}

lib_say "==> the README's quick start in $clone ($(wc -l <"$lib_tmp/quickstart.sh") lines)"
in_home timeout 900 bash -e "$lib_tmp/quickstart.sh" >"$lib_tmp/quickstart.log" 2>&1 ||
	{
		tail -n 30 "$lib_tmp/quickstart.log"
		lib_fail "the quick start failed in a clean clone (output above)"
	}
status=$(git -C "$clone" status --porcelain)
[ -z "$status" ] || lib_fail "the quick start left files that git does not ignore: $status"
ignored=$(git -C "$clone" status --porcelain --ignored | sed -n 's/^!! //p' | sort | tr '\n' ' ')
lib_say "    git status is clean; ignored: $ignored"
# The README's paragraph on what the quick start leaves names each of them.
leaves=$(awk '/^What it leaves/ { on = 1 } on { print } on && /^$/ { exit }' README.md)
[ -n "$leaves" ] || lib_fail "README.md has no paragraph beginning 'What it leaves'"
for f in $ignored; do
	name=$(basename "${f%/}")
	grep -qF -- "$name" <<<"$leaves" || lib_fail "the quick start leaves $f, which the README's 'What it leaves' paragraph does not name"
done
in_home bash -c "$removal"
left=$(git -C "$clone" status --porcelain --ignored)
[ -z "$left" ] || lib_fail "the README's removal command left: $left"
in_home make --no-print-directory uninstall >"$lib_tmp/uninstall.log" 2>&1 || lib_fail "make uninstall failed: $(cat "$lib_tmp/uninstall.log")"
[ ! -e "$lib_tmp/home/.terraform.d/plugins/registry.terraform.io" ] || lib_fail "make uninstall left the provider under the scratch HOME"
lib_say "quickstart-check: ok: nothing left that git does not ignore; the README's removal command and make uninstall remove the rest ($((SECONDS - started)) s)"
