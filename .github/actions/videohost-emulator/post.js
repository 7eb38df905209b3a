// The action's post step, run by the runner when the job ends (failed or not): stops the
// emulator that start.sh started, whose pid the main step saved in the action's state.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

try {
  execFileSync('bash', [path.join(__dirname, 'stop.sh')], {
    env: { ...process.env, EMULATOR_PID: process.env.STATE_pid || '' },
    stdio: 'inherit',
  });
} catch (e) {
  process.stdout.write(`::warning title=videohost emulator::${e.message}\n`);
}
