// The action's main step: gets the emulator and starts it (get.sh, then start.sh). Node's own
// modules only, so that the action needs no npm install and no bundled dependencies.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

// input reads an input as the runner passes it: INPUT_ and its name in capitals.
const input = (name) => (process.env[`INPUT_${name.toUpperCase()}`] || '').trim();

const env = {
  ...process.env,
  EMULATOR_VERSION: input('version') || 'source',
  EMULATOR_API_KEY: input('api-key'),
  EMULATOR_ARGS: input('args'),
  EMULATOR_RELEASE_URL: input('release-url'),
};
try {
  for (const script of ['get.sh', 'start.sh']) {
    execFileSync('bash', [path.join(__dirname, script)], { env, stdio: 'inherit' });
  }
} catch (e) {
  process.stdout.write(`::error title=videohost emulator::${e.message}\n`);
  process.exitCode = 1;
}
