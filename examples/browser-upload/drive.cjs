// Drives index.html in headless Chromium (puppeteer-core) for scripts/browser-test.sh: serves the
// page and the uploader on a loopback port, types the emulator's host and the upload token,
// picks the file, presses Upload and waits for the outcome. Prints one JSON line:
// {"state": "done" | "error", "videoId", "httpStatus", "text"}; exits 1 when the page did not
// finish in time.
//
// Environment: CHROMIUM (the browser binary), SPKI (base64 SHA-256 of the emulator's public key:
// Chromium trusts exactly that certificate), API_HOST (the emulator's host:port), UPLOAD_TOKEN,
// FILE (the file to upload), SCREENSHOT (a PNG to write, optional), UPLOADER (the uploader's
// dist/index.js). Run with NODE_PATH naming the node_modules that holds puppeteer-core.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const puppeteer = require('puppeteer-core');

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

// servePage serves index.html and the uploader bundle on a free loopback port.
function servePage() {
  const files = {
    '/': ['text/html; charset=utf-8', path.join(__dirname, 'index.html')],
    '/uploader.js': ['text/javascript; charset=utf-8', env('UPLOADER')],
  };
  const srv = http.createServer((req, res) => {
    const f = files[req.url];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': f[0] });
    fs.createReadStream(f[1]).pipe(res);
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

(async () => {
  const srv = await servePage();
  const browser = await puppeteer.launch({
    executablePath: env('CHROMIUM'),
    headless: true,
    // Chromium refuses to run its sandbox as root (CI runs as root); the page is our own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      `--ignore-certificate-errors-spki-list=${env('SPKI')}`],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 700, height: 500 });
    page.on('console', (m) => process.stderr.write(`page: ${m.text()}\n`));
    await page.goto(`http://127.0.0.1:${srv.address().port}/`);
    await page.type('#host', env('API_HOST'));
    await page.$eval('#token', (el, t) => { el.value = t; }, env('UPLOAD_TOKEN'));
    const input = await page.$('#file');
    await input.uploadFile(env('FILE'));
    await page.click('#upload');
    await page.waitForSelector('#status[data-state=done], #status[data-state=error]', { timeout: 90000 });
    const out = await page.$eval('#status', (el) => ({
      state: el.dataset.state, videoId: el.dataset.videoId || '', httpStatus: el.dataset.httpStatus || '', text: el.textContent,
    }));
    if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT });
    console.log(JSON.stringify(out));
  } finally {
    await browser.close();
    srv.close();
  }
})().catch((e) => {
  console.error(`drive.cjs: ${e.stack || e}`);
  process.exit(1);
});
