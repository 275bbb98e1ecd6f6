// SPDX-License-Identifier: MIT
// Import one profile file into the speedscope npm package's offline page in headless Chromium: exit 0 when it loads, 1 when speedscope refuses it.
//
// Usage: node speedscope_import.mjs FILE [TIMEOUT_MS]
// Loads node_modules/speedscope/dist/release/index.html#localProfilePath=<js> the way speedscope's
// own CLI does (a JS file calling speedscope.loadFileFromBase64(name, base64)), then waits for
// the page title "<name> - speedscope" (or "<profile name> - speedscope" for speedscope JSON). Prints which importer fired ("Importing as ..."), and
// exits 1 on "Unrecognized format", a page exception or a timeout.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const file = process.argv[2];
const timeoutMs = Number(process.argv[3] || 30000);
if (!file) {
	console.error('usage: node speedscope_import.mjs FILE [TIMEOUT_MS]');
	process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const index = join(here, 'node_modules/speedscope/dist/release/index.html');
const name = basename(file);
const work = mkdtempSync(join(tmpdir(), 'pms-speedscope-'));
const js = join(work, 'profile.js');
writeFileSync(js, `speedscope.loadFileFromBase64(${JSON.stringify(name)}, ${JSON.stringify(readFileSync(file).toString('base64'))})`);

let context;
let status = 1;
let loadedTitle = '';
const importers = [];
const problems = [];
try {
	// a persistent context is how playwright takes a --user-data-dir of our own
	context = await chromium.launchPersistentContext(join(work, 'profile'), {
		executablePath: process.env.PMS_CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
	});
	await context.route(/^(?!file:|data:|about:|blob:)/, (route) => route.abort());
	const page = context.pages()[0] || await context.newPage();
	page.on('console', (m) => {
		const t = m.text();
		if (/^Importing /.test(t)) importers.push(t);
		if (/Unrecognized format/i.test(t)) problems.push(t);
	});
	page.on('pageerror', (e) => problems.push(`page error: ${e}`));
	page.on('dialog', async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });
	await page.goto(`${pathToFileURL(index).href}#localProfilePath=${js}`);
	const want = `${name} - speedscope`;
	const t0 = Date.now();
	while (Date.now() - t0 < timeoutMs && !problems.length) {
		const title = await page.title();
		// a speedscope JSON file names itself: its "name" then stands for the file's
		if (title === want || (importers.length && title.endsWith(' - speedscope'))) {
			loadedTitle = title;
			status = 0;
			break;
		}
		await page.waitForTimeout(100);
	}
	if (status && !problems.length)
		problems.push(`timeout after ${timeoutMs} ms (title '${await page.title()}')`);
} catch (e) {
	problems.push(`exception: ${e}`);
	status = 1;
} finally {
	if (context)
		await context.close().catch(() => {});
	rmSync(work, { recursive: true, force: true });
}
if (problems.length)
	status = 1;
console.log(`${name}: ${status ? 'FAILED' : `loaded as '${loadedTitle}'`}; importer: ${importers.join(' | ') || 'none seen'}${problems.length ? '; ' + problems.join('; ') : ''}`);
process.exit(status);
