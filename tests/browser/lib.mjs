// SPDX-License-Identifier: MIT
// Shared Chromium launch for the browser tests: Debian's /usr/bin/chromium through playwright-core, offline, a fresh profile per run.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = process.env.PMS_CHROMIUM || '/usr/bin/chromium';

// launchPersistentContext: a --user-data-dir of our own (playwright refuses it in args for launch()).
export async function launch({ width = 1280, height = 900 } = {}) {
	const profile = mkdtempSync(join(tmpdir(), 'pms-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width, height },
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
	});
	// no network: every request that is not the file itself fails the test visibly
	const external = [];
	await context.route(/^(?!file:|data:|about:)/, (route) => { external.push(route.request().url()); route.abort(); });
	const close = async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); };
	return { context, external, close };
}

// A page with console errors and page errors collected.
export async function openPage(context, file) {
	const page = context.pages()[0] || await context.newPage();
	const errors = [];
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	page.on('pageerror', (e) => errors.push(String(e)));
	const t0 = Date.now();
	await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
	return { page, errors, t0 };
}

// Test result lines in the shell suites' format (tests/lib/suite.sh reads them back).
let failed = 0;
export function check(name, ok, detail = '') {
	if (ok) console.log(`PASS ${name}${detail ? ': ' + detail : ''}`);
	else { failed++; console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`); }
	return ok;
}
export function failures() { return failed; }
