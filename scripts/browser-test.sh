#!/usr/bin/env bash
# The service's browser uploader against the emulator (`make browser-test`): a page
# (examples/browser-upload) uploads a generated file with @api.video/video-uploader in headless
# Chromium, with an upload token made by Terraform (videohost_upload_token), over the emulator's
# HTTPS (-tls). Checked: the video exists with the file's SHA-256, the file (larger than the
# uploader's 5 MiB chunks) went in 3 requests, and once `terraform destroy` deleted the token the
# page's upload is refused 404. Chromium trusts exactly the emulator's generated certificate
# (--ignore-certificate-errors-spki-list with its SPKI hash); the provider trusts it through
# SSL_CERT_FILE.
#
# What it needs is installed when missing, quietly: Debian's chromium (apt-get, as root), and the
# npm packages of examples/browser-upload/package.json into a cache directory outside the
# repository (BROWSER_TEST_CACHE, default ~/.cache/terraform-provider-videohost/browser-test),
# reinstalled only when that file changes. CHROMIUM names another browser binary;
# BROWSER_TEST_SCREENSHOT=FILE keeps a PNG of the page after the upload. Loopback only; everything
# it starts is stopped on success, failure and Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$root/scripts/lib.sh"
lib_name=browser-test
lib_tmp=""
lib_traps

lib_need go "install Go (the version in go.mod)"
lib_need node "install Node.js 18 or later (Debian: apt-get install nodejs npm)"
lib_need npm "install npm (Debian: apt-get install npm)"
lib_need curl "install curl; the test reads the emulator's control API with it"
lib_need_terraform

# Debian's chromium, installed when missing (CI starts from a clean machine, as root).
chromium=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chromium" ]; then
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
		lib_fail "chromium is not on PATH: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM"
	lib_say "browser-test: installing Debian's chromium"
	export DEBIAN_FRONTEND=noninteractive
	timeout --foreground 600 apt-get update -qq >/dev/null
	timeout --foreground 600 apt-get install -y -qq --no-install-recommends chromium >/dev/null
	chromium=$(command -v chromium) || lib_fail "apt-get installed no chromium"
fi

# The npm packages, in a cache outside the repository; reinstalled when package.json changes.
cache=${BROWSER_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/browser-test}
mkdir -p "$cache"
if ! cmp -s examples/browser-upload/package.json "$cache/package.json" || [ ! -d "$cache/node_modules/puppeteer-core" ]; then
	lib_say "browser-test: installing the npm packages into $cache"
	cp examples/browser-upload/package.json "$cache/package.json"
	(cd "$cache" && timeout --foreground 600 npm install --no-audit --no-fund --loglevel=error >/dev/null) ||
		{ rm -f "$cache/package.json"; lib_fail "npm install failed"; }
fi

lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/videohost-browser-test.XXXXXX")
tmp=$lib_tmp
lib_say "browser-test: building the provider and the emulator"
go build -o "$tmp/bin/" . ./cmd/videohost-emulator

key="browser_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
lib_start emulator "$tmp/bin/videohost-emulator" -listen 127.0.0.1:0 -tls -api-key "$key"
emu_pid=$lib_last_pid
url=$(lib_first_line emulator "$emu_pid")
for _ in $(seq 1 50); do
	grep -q '^tls-spki-sha256: ' "$tmp/emulator.out" && break
	sleep 0.1
done
cert=$(sed -n 's/^tls-cert: //p' "$tmp/emulator.out")
spki=$(sed -n 's/^tls-spki-sha256: //p' "$tmp/emulator.out")
[ -n "$cert" ] && [ -n "$spki" ] || lib_fail "the emulator printed no certificate"
case "$url" in https://*) ;; *) lib_fail "the emulator serves $url, not https" ;; esac
lib_say "browser-test: emulator at $url, certificate $cert"

# ctl GETs a control API path, trusting the emulator's certificate and nothing else.
ctl() { curl -sS -f --max-time 10 --cacert "$cert" "$url/_emulator$1"; }
# field prints a member of the JSON document on stdin (a.b for nested members).
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v==null?v:v[k];console.log(v===undefined?"":typeof v==="object"?JSON.stringify(v):v)})' "$1"; }

work="$tmp/tf"
mkdir -p "$work"
cp examples/browser-upload/main.tf "$work/"
lib_dev_overrides "$tmp/dev.tfrc" "$tmp/bin"
lib_clean_tf_env
export TF_CLI_CONFIG_FILE="$tmp/dev.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
export VIDEOHOST_BASE_URL="$url" VIDEOHOST_API_KEY="$key" SSL_CERT_FILE="$cert"
lib_tf_ok apply "$work" apply -auto-approve
token=$("$TERRAFORM" -chdir="$work" output -raw upload_token)

file="$tmp/page-upload.mp4"
head -c $((12 * 1024 * 1024 + 12345)) /dev/urandom >"$file"
want=$(sha256sum "$file" | cut -d' ' -f1)

# drive runs the page once with FILE and prints its outcome (a JSON line).
drive() {
	CHROMIUM="$chromium" SPKI="$spki" API_HOST="${url#https://}" UPLOAD_TOKEN="$token" FILE="$1" \
		SCREENSHOT="${2:-}" UPLOADER="$cache/node_modules/@api.video/video-uploader/dist/index.js" \
		NODE_PATH="$cache/node_modules" timeout --foreground 180 node examples/browser-upload/drive.cjs
}

lib_say "browser-test: the page uploads $(stat -c %s "$file") bytes with the token"
out=$(drive "$file" "$tmp/page.png") || lib_fail "the page did not finish"
lib_say "browser-test: page: $out"
[ "$(field state <<<"$out")" = done ] || lib_fail "the page's upload failed: $out"
video=$(field videoId <<<"$out")
src=$(ctl "/videos/$video/source")
[ "$(field sha256 <<<"$src")" = "$want" ] || lib_fail "the video's source is not the file: $src (want SHA-256 $want)"
uploads=$(ctl /stats | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s).requests.find(r=>r.method==="POST"&&r.path==="/upload");console.log(r?r.count:0)})')
[ "$uploads" = 3 ] || lib_fail "the file went in $uploads requests of /upload, want 3 chunks of at most 5 MiB"
lib_say "browser-test: ok: video $video has the file's SHA-256 ($want), sent in 3 chunks"
if [ -n "${BROWSER_TEST_SCREENSHOT:-}" ]; then
	cp "$tmp/page.png" "$BROWSER_TEST_SCREENSHOT"
	lib_say "browser-test: screenshot written to $BROWSER_TEST_SCREENSHOT"
fi

lib_tf_ok destroy "$work" destroy -auto-approve
small="$tmp/after-delete.mp4"
head -c 4096 /dev/urandom >"$small"
lib_say "browser-test: the page tries again with the deleted token; the refusal is expected: Chromium's" \
	"\"page: Failed to load resource: ... 404\" line below is the outcome this step wants"
out=$(drive "$small") || lib_fail "the page did not finish"
lib_say "browser-test: page after the token's deletion: $out"
[ "$(field state <<<"$out")" = error ] && [ "$(field httpStatus <<<"$out")" = 404 ] ||
	lib_fail "the upload with the deleted token was not refused 404: $out"
lib_say "browser-test: ok: the deleted token's upload was refused 404"
