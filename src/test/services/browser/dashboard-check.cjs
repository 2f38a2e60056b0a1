// Opens the proxy dashboard in headless Chromium (Debian's, driven by playwright-core) and checks what an operator
// looks for: a router found by name with the search box, and a down server marked DOWN in the services table.
// Writes a full-page screenshot. Usage (the JUnit test runs it):
//   PLAYWRIGHT_CORE=<module dir> node dashboard-check.cjs <dashboard URL> <router name> <down server URL> <png>
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const [url, routerName, downUrl, screenshot] = process.argv.slice(2);
// Without the background-networking flags Chromium keeps dialling Google's hosts, refused on this network.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync'];

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log('ok - ' + message);
}

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'proxy-dashboard-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS,
    viewport: { width: 1360, height: 900 },
  });
  const errors = [];
  try {
    const page = context.pages()[0] || await context.newPage();
    page.on('pageerror', e => errors.push(String(e)));
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(url);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 15000 });

    const rows = page.locator('#routers-table tbody tr');
    const total = await rows.count();
    await page.fill('#router-search', routerName);
    const row = page.locator(`#routers-table tbody tr[data-name="${routerName}"]`);
    check(await row.isVisible(), `router ${routerName} is listed and visible after searching for it`);
    const visible = await page.locator('#routers-table tbody tr:not([hidden])').count();
    check(visible >= 1 && visible < total, `the search narrows ${total} routers to ${visible}`);
    check((await row.locator('.router-name').textContent()) === routerName, 'the row shows the router name');

    const badges = page.locator(`#services-table span.server[data-url="${downUrl}"] .badge`);
    check(await badges.count() >= 1, `server ${downUrl} is shown in the services table`);
    const texts = await badges.allTextContents();
    check(texts.every(t => t === 'DOWN'), `server ${downUrl} is marked DOWN (in ${texts.length} services)`);
    check(await badges.evaluateAll(es => es.every(e => e.classList.contains('down') && getComputedStyle(e).color !== '')),
      'the DOWN badge has the down style');

    check(await page.locator('#providers-table tbody tr[data-name="file"] .last-refresh').textContent() !== 'never',
      'the file provider shows its last successful refresh');
    check(await page.locator('#errors-table tbody tr').count() > 0, 'the errors table lists the disabled routers');
    check(await page.locator('table.explain[data-provider="file"] tbody tr').count() > 0,
      'the explain table of the file provider has rows');

    await page.fill('#router-search', '');
    await page.screenshot({ path: screenshot, fullPage: true });
    check(errors.length === 0, 'no script errors: ' + errors.join('; '));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
})().catch(e => {
  console.error('FAILED: ' + e.message);
  process.exit(1);
});
