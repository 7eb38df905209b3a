# shellcheck shell=bash
# Shell helpers shared by the scripts: messages, failures, tables, and for the scripts that start
# local processes (the emulator, a receiver) the means to stop them on every exit. Source it
# after `set -euo pipefail`; it defines functions only.
#
# A script that starts processes sets:
#   lib_tmp   a temporary directory for the processes' output files (<name>.out, <name>.err)
#   lib_name  the script's name, the prefix of its error messages
# and installs lib_traps (or calls lib_stop_all from an EXIT trap of its own).

lib_tmp=${lib_tmp:-}
# TERRAFORM is the CLI every script runs: a Terraform or an OpenTofu binary, by name on PATH or
# by path (TERRAFORM=/opt/tofu/tofu ./scripts/bench.sh; make passes TERRAFORM= through).
TERRAFORM=${TERRAFORM:-terraform}
lib_pids=()
# lib_last_pid is the pid of the last process lib_start started.
lib_last_pid=""

lib_say() { printf '%s\n' "$*"; }

# lib_table prints a Markdown table: the first argument is the header, each further one a row,
# their cells separated by | (so no cell may hold one).
lib_table() {
	local header=$1 rule="|" row
	local -a cells
	shift
	printf '| %s |\n' "${header//|/ | }"
	IFS='|' read -r -a cells <<<"$header"
	for _ in "${cells[@]}"; do
		rule+="---|"
	done
	printf '%s\n' "$rule"
	for row in "$@"; do
		printf '| %s |\n' "${row//|/ | }"
	done
}

# lib_required_providers prints the terraform block that names this provider in a configuration:
# without it, Terraform would look for hashicorp/videohost.
lib_required_providers() {
	cat <<'EOF'
terraform {
  required_providers {
    videohost = {
      source = "videohost/videohost"
    }
  }
}
EOF
}

lib_fail() {
	printf '%s: %s\n' "${lib_name:-script}" "$*" >&2
	exit 1
}

lib_need() {
	command -v "$1" >/dev/null 2>&1 || lib_fail "'$1' is not on PATH: $2"
}

# lib_need_terraform fails, saying what to do, unless TERRAFORM names a CLI that runs.
lib_need_terraform() {
	command -v "$TERRAFORM" >/dev/null 2>&1 ||
		lib_fail "TERRAFORM=$TERRAFORM is neither on PATH nor an executable: install Terraform >= 1.11 or OpenTofu >= 1.11, or set TERRAFORM to its path"
	"$TERRAFORM" version >/dev/null 2>&1 || lib_fail "'$TERRAFORM version' failed: TERRAFORM must name a terraform or tofu binary"
}

# lib_start runs a command in the background as the leader of a new process group (so that
# stopping it also stops whatever it started), with stdout and stderr in $lib_tmp/<name>.out and
# .err, and remembers it for lib_stop_all. Its pid is left in lib_last_pid.
lib_start() {
	local name=$1
	shift
	if command -v setsid >/dev/null 2>&1; then
		setsid "$@" >"$lib_tmp/$name.out" 2>"$lib_tmp/$name.err" </dev/null &
	else
		"$@" >"$lib_tmp/$name.out" 2>"$lib_tmp/$name.err" </dev/null &
	fi
	lib_pids+=("$!")
	# shellcheck disable=SC2034 # read by the scripts that source this file
	lib_last_pid=$!
}

# lib_kill_tree sends SIGTERM to PID and to every process below it, the deepest first. A
# script's background job (cmd &) ignores SIGINT, as bash starts it, and so do the go test and
# the test binary it runs: Ctrl-C never reaches them, and the script's traps must stop them.
lib_kill_tree() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do
		lib_kill_tree "$child"
	done
	kill -TERM "$1" 2>/dev/null || true
}

# lib_first_line prints the first complete stdout line of a started process, waiting for it at
# most 15 s; it fails when the process exits first.
lib_first_line() {
	local name=$1 pid=$2 line
	for _ in $(seq 1 150); do
		if [ -s "$lib_tmp/$name.out" ] && [ "$(wc -l <"$lib_tmp/$name.out")" -ge 1 ] &&
			line=$(head -n 1 "$lib_tmp/$name.out") && [ -n "$line" ]; then
			printf '%s' "$line"
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || lib_fail "$name exited before printing its address: $(tail -n 5 "$lib_tmp/$name.err" 2>/dev/null)"
		sleep 0.1
	done
	lib_fail "$name printed no address within 15 s"
}

# lib_wait_http waits (at most 5 s) until a GET of the URL succeeds.
lib_wait_http() {
	for _ in $(seq 1 50); do
		if curl -sS -f --max-time 2 -o /dev/null "$1" 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	lib_fail "nothing answers at $1"
}

# lib_forget drops a pid from the list of lib_stop_all, once it has been waited for: its number
# may be reused by then, and must not be signalled.
lib_forget() {
	local pid=$1 kept=() p
	for p in "${lib_pids[@]}"; do
		[ "$p" = "$pid" ] || kept+=("$p")
	done
	lib_pids=("${kept[@]}")
}

# lib_wait waits for a started process and returns its exit status. The wait is interruptible
# by the caller's traps (INT, TERM), which a foreground command would delay.
lib_wait() {
	local pid=$1 rc=0
	wait "$pid" || rc=$?
	lib_forget "$pid"
	return "$rc"
}

# lib_stop stops one started process group: TERM, up to 5 s of grace, then KILL.
lib_stop() {
	local pid=$1
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null ||  true
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null ||  true
	wait "$pid" 2>/dev/null || true
	lib_forget "$pid"
	return 0
}

# lib_stop_all stops every process group lib_start started and that was neither waited for nor
# stopped.
lib_stop_all() {
	local pid
	for pid in "${lib_pids[@]}"; do
		lib_stop "$pid"
	done
	lib_pids=()
}

# lib_cleanup is the EXIT trap of a script that starts processes, installed with lib_traps: it
# stops them, says whether the script was interrupted or failed (with the last lines of each
# output file on failure), removes lib_tmp and exits with the script's status.
lib_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	set +e
	lib_stop_all
	if [ "$rc" -ne 0 ] && [ -n "$lib_tmp" ]; then
		case "$rc" in
		130 | 143) lib_say "${lib_name:-script}: interrupted; stopped what it started" >&2 ;;
		*)
			lib_say "${lib_name:-script}: FAILED (exit $rc)" >&2
			for f in "$lib_tmp"/*.err "$lib_tmp"/*.log; do
				[ -s "$f" ] || continue
				lib_say "---- last lines of $(basename "$f") ----" >&2
				tail -n 15 "$f" >&2
			done
			;;
		esac
	fi
	[ -n "$lib_tmp" ] && rm -rf "$lib_tmp"
	exit "$rc"
}

# lib_traps installs lib_cleanup on exit, and turns Ctrl-C and TERM into exits that run it.
lib_traps() {
	trap lib_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# lib_dev_overrides writes to FILE a Terraform CLI configuration that takes videohost/videohost
# from the directory BINDIR (a development build) and every other provider as usual. Point
# TF_CLI_CONFIG_FILE at it; ~/.terraformrc is never read or written.
lib_dev_overrides() {
	cat >"$1" <<EOF
provider_installation {
  dev_overrides {
    "videohost/videohost" = "$2"
  }
  direct {}
}
EOF
}

# lib_clean_tf_env unsets the settings of the caller's shell that would change what Terraform
# or the provider does.
lib_clean_tf_env() {
	unset VIDEOHOST_ENVIRONMENT TF_LOG TF_LOG_PROVIDER TF_DATA_DIR TF_WORKSPACE TF_CLI_ARGS \
		TF_CLI_ARGS_plan TF_CLI_ARGS_apply TF_CLI_ARGS_destroy TF_CLI_ARGS_output
}

# ---- measuring, for the benchmarks ----------------------------------------------------------

# lib_now prints the time in seconds since the epoch, with nanoseconds.
lib_now() { date +%s.%N; }

# lib_calc prints the value of an awk expression.
lib_calc() { awk "BEGIN { printf \"%s\", ($1) }" </dev/null; }

# lib_met_le prints yes when $1 <= $2, else no (the "met?" column of a table).
lib_met_le() { lib_calc "($1 <= $2) ? \"yes\" : \"no\""; }

# lib_mib prints a size in KiB as whole MiB.
lib_mib() { lib_calc "$1 / 1024" | xargs printf '%.0f'; }

# lib_tf LOG DIR ARGS... runs "$TERRAFORM -chdir=DIR ARGS -input=false -no-color" so that the
# traps can interrupt it, with its output and errors in $lib_tmp/LOG.log; it sets lib_tf_seconds
# to its wall time and returns its status. With lib_tf_peak_rss=yes it runs under GNU time,
# which writes the peak RSS of terraform's largest process to $lib_tmp/LOG.rss, and it first
# empties $lib_tmp/rss, where a wrapper of the provider writes the provider's (see
# lib_provider_rss), so that those are this run's.
lib_tf_peak_rss=""
lib_tf_seconds=""
lib_tf() {
	local log=$1 dir=$2 rc=0 t0
	shift 2
	# The options go right after the command: a saved plan's file must be the last argument.
	local run=("$TERRAFORM" -chdir="$dir" "$1" -input=false -no-color "${@:2}")
	if [ "$lib_tf_peak_rss" = yes ]; then
		rm -f "$lib_tmp"/rss/rss.* "$lib_tmp"/rss/io.*
		run=(/usr/bin/time -f %M -o "$lib_tmp/$log.rss" "${run[@]}")
	fi
	t0=$(lib_now)
	lib_start "$log" "${run[@]}"
	lib_wait "$lib_last_pid" || rc=$?
	# shellcheck disable=SC2034 # read by the scripts that source this file
	lib_tf_seconds=$(lib_calc "$(lib_now) - $t0")
	mv "$lib_tmp/$log.out" "$lib_tmp/$log.log"
	cat "$lib_tmp/$log.err" >>"$lib_tmp/$log.log"
	rm -f "$lib_tmp/$log.err"
	return "$rc"
}

# lib_tf_ok is lib_tf, failing the script when terraform fails.
lib_tf_ok() {
	local log=$1
	lib_tf "$@" || lib_fail "terraform ${*:3} failed (exit $?): see $log.log above"
}

# lib_provider_rss prints in MiB the largest peak RSS that a wrapper of the provider wrote to
# $lib_tmp/rss/rss.<pid> (one file per provider process); it fails when there is none.
lib_provider_rss() {
	local kb
	kb=$(cat "$lib_tmp"/rss/rss.* 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -n 1 || true)
	[ -n "$kb" ] || lib_fail "no peak RSS of the provider was recorded"
	lib_mib "$kb"
}

# lib_provider_reads prints the bytes read (rchar of /proc/PID/io: every read, files and sockets
# alike) by the provider processes of the last lib_tf, summed, as a wrapper of the provider wrote
# them to $lib_tmp/rss/io.<pid>.end once a process had ended, or else (the wrapper was killed)
# to io.<pid>.0 and io.<pid>.1, which a sampler rewrote in turn while it lived: the larger of the
# two is its last whole count. It fails when there is none.
lib_provider_reads() {
	local f key sum=0 n=0 v
	local -A seen=()
	for f in "$lib_tmp"/rss/io.*; do
		[ -e "$f" ] || continue
		key=${f%.*}
		[ -z "${seen[$key]:-}" ] || continue
		seen[$key]=1
		if [ -e "$key.end" ]; then
			v=$(grep -E '^[0-9]+$' "$key.end" || true)
		else
			v=$(cat "$key.0" "$key.1" 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -n 1 || true)
		fi
		[ -n "$v" ] || continue
		sum=$(lib_calc "$sum + $v")
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || lib_fail "no read count of the provider was recorded"
	lib_calc "$sum" | xargs printf '%.0f'
}

# lib_toxiproxy_version is the Toxiproxy that the network soak builds; scripts/benchupload (the
# uploads' long path) builds the same version into the same cache, and a test of it checks that the
# two agree.
lib_toxiproxy_version=v2.5.0

# lib_toxiproxy_build builds Toxiproxy's server once per version from the Go module proxy into the
# cache (a `tool` line in go.mod would pull its modules into the project's graph) and sets
# toxiproxy to its path.
lib_toxiproxy_build() {
	local dir=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/toxiproxy-$lib_toxiproxy_version
	toxiproxy=$dir/server
	if [ ! -x "$toxiproxy" ]; then
		lib_say "${lib_name:-script}: building Toxiproxy $lib_toxiproxy_version into $dir (once)"
		GOBIN=$dir timeout --foreground 900 go install "github.com/Shopify/toxiproxy/v2/cmd/server@$lib_toxiproxy_version" ||
			lib_fail "go install github.com/Shopify/toxiproxy/v2/cmd/server@$lib_toxiproxy_version failed"
	fi
}

# lib_goreleaser_version is the GoReleaser that builds the releases (release.yml pins the same);
# GORELEASER_VERSION overrides it.
# shellcheck disable=SC2034 # read by the scripts that source this file
lib_goreleaser_version=v2.14.3

# lib_goreleaser_path VERSION prints where the scripts keep GoReleaser VERSION: built once per
# version from the Go module proxy into the cache (a `tool` line in go.mod would pull its hundreds
# of modules into the project's graph).
lib_goreleaser_path() {
	printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-videohost/goreleaser-$1/goreleaser"
}

# lib_goreleaser_host_target prints this machine's GoReleaser target, which names amd64 and arm64
# with their default level.
lib_goreleaser_host_target() {
	local goos goarch
	goos=$(go env GOOS)
	goarch=$(go env GOARCH)
	case "$goarch" in
	amd64) echo "${goos}_amd64_v1" ;;
	arm64) echo "${goos}_arm64_v8.0" ;;
	*) echo "${goos}_$goarch" ;;
	esac
}

# lib_goreleaser_config CONFIG DIST [TARGET...] prints the GoReleaser configuration CONFIG with its
# output in DIST (outside the checkout, which stays as it was) and, when targets are given, with
# only those in each build of the provider, the emulator and the receiver (GoReleaser's targets
# replace goos and goarch). It fails when CONFIG sets dist itself or lacks one of those builds.
lib_goreleaser_config() {
	local config=$1 dist=$2 out
	shift 2
	grep -q '^dist:' "$config" && lib_fail "$config sets dist:, which the scripts set themselves"
	if [ "$#" -gt 0 ]; then
		out=$(awk -v t="    targets: [$(tr ' ' ',' <<<"$*")]" '/^[a-z]/ { builds = ($0 == "builds:") }
			{ print } builds && /^  - id: (provider|emulator|receiver)$/ { print t }' "$config")
		[ "$(grep -c '^    targets: ' <<<"$out")" -eq 3 ] ||
			lib_fail "$config no longer has the builds provider, emulator and receiver that the targets go into"
	else
		out=$(cat "$config")
	fi
	printf '%s\n\ndist: %s\n' "$out" "$dist"
}
