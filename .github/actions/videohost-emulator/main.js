// The action's main step: gets the emulator and starts it (get.sh, then start.sh). Node's own
// modules only, so that the action needs no npm install and no bundled dependencies.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

// input reads an input as the runner passes it: INPUT_ and its name in capitals.
const input = (name) => (process.env[`INPUT_${name.toUpperCase()}`] || '').trim();

// multiLine names the first input that holds a line break inside it (a trailing one is trimmed).
// Every input is one line: the key is written as a line of $GITHUB_ENV, where a line break
// would add a variable of the input's choosing (NODE_OPTIONS, PATH) to every later step, and a
// workflow command or a mask is one line of the log. The scripts refuse it too, for their
// direct callers; here nothing runs at all.
const multiLine = () => ['version', 'api-key', 'args', 'release-url'].find((name) => /[\r\n]/.test(input(name)));

const main = () => {
  const bad = multiLine();
  if (bad) {
    // The value is never shown: it may be the key, not masked yet.
    process.stdout.write(`::error title=videohost emulator::the input ${bad} holds a line break (CR or LF): every input of this action is one line; nothing was started or exported\n`);
    process.exitCode = 1;
    return;
  }
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
};

main();
