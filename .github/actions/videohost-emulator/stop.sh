#!/usr/bin/env bash
# Stops the emulator that start.sh started (EMULATOR_PID, which the post step takes from the
# action's state): SIGTERM, then SIGKILL after 10 s; then prints the end of its log, which is
# where a failing job's requests show.
set -euo pipefail
dir=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/videohost-emulator
pid=${EMULATOR_PID:-}
say() { printf 'videohost-emulator: %s\n' "$*"; }
if [ -z "$pid" ]; then
	say "no emulator was started: nothing to stop"
	exit 0
fi
if kill -TERM "$pid" 2>/dev/null; then
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		say "emulator $pid still running 10 s after SIGTERM: SIGKILL"
		kill -KILL "$pid" 2>/dev/null || true
	fi
	say "emulator $pid stopped"
else
	say "emulator $pid had already exited"
fi
if [ -f "$dir/emulator.log" ]; then
	say "the end of its log:"
	# The key the emulator printed at start is shown as ***, here as on GitHub, where start.sh
	# masked it.
	key=$(sed -n 's/^api-key: //p' "$dir/emulator.log" | head -n 1)
	tail -n 20 "$dir/emulator.log" | awk -v k="$key" 'k != "" { while ((i = index($0, k)) > 0) $0 = substr($0, 1, i - 1) "***" substr($0, i + length(k)) } { print }'
fi
