// SPDX-License-Identifier: MIT
// Opens a `pmuscope report --html` page in Chromium and checks it against `pmuscope report --json` of the same file; prints PASS/FAIL lines.
// Usage: node report_html.mjs <page.html> <report.json> <screenshot.png> <label>
//        node report_html.mjs --diff <diff-page.html> <diff.json> <screenshot.png> <label> <fn>...
//          (a `pmuscope diff --flamegraph` page: each fn's frame delta = diff --json's delta_total, +-0.5)
import { readFileSync } from 'node:fs';
import { launch, openPage, check, failures } from './lib.mjs';

if (process.argv[2] === '--diff') {
	const [file, jsonFile, shot, label, ...fns] = process.argv.slice(3);
	const rows = JSON.parse(readFileSync(jsonFile, 'utf8')).rows;
	const { context, external, close } = await launch({ width: 1280, height: 700 });
	try {
		const { page, errors } = await openPage(context, file);
		await page.waitForSelector('#pms-flame[data-state="ready"]', { timeout: 30000 });
		for (const fn of fns) {
			const row = rows.find((r) => r.name === fn);
			// alpha and bravo have one node each in pms-shares (a stray from a cut chain can add a
			// sliver), so the widest node's delta is the function's
			const node = await page.evaluate((n) => {
				const ids = window.pmsFlame.find(n).map((k) => window.pmsFlame.node(k)).sort((a, b) => b.value - a.value);
				return ids[0] || null;
			}, fn);
			const d = node && node.delta !== null ? 100 * node.delta : NaN;
			check(`rh-${label}-${fn}-delta`, row && Math.abs(d - row.delta_total) < 0.5,
				`page ${d.toFixed(4)} points, diff --json ${row && row.delta_total}`);
		}
		check(`rh-${label}-console`, errors.length === 0, errors.join(' | '));
		check(`rh-${label}-offline`, external.length === 0, external.join(' '));
		await page.screenshot({ path: shot, fullPage: true });
	} catch (e) {
		check(`rh-${label}-run`, false, String(e && e.stack || e).slice(0, 400));
	} finally {
		await close();
	}
	process.exit(failures() ? 1 : 0);
}

const [file, jsonFile, shot, label] = process.argv.slice(2);
const rep = JSON.parse(readFileSync(jsonFile, 'utf8'));
const name = (s) => `rh-${label}-${s}`;
const ev = rep.events[0];
const top = ev.entries[0];

const { context, external, close } = await launch({ width: 1280, height: 1000 });
try {
	const { page, errors } = await openPage(context, file);
	await page.waitForSelector('#pms-flame[data-state="ready"]', { timeout: 30000 });

	// summary: the same counts as report --json
	const sum = await page.evaluate(() => Object.fromEntries(
		[...document.querySelectorAll('#pms-summary td[data-key]')].map((td) =>
			[td.dataset.key, td.dataset.value !== undefined ? Number(td.dataset.value) : td.textContent])));
	for (const k of ['samples', 'lost_samples', 'lost_events'])
		check(name(`summary-${k}`), sum[k] === rep.summary[k], `page ${sum[k]}, report --json ${rep.summary[k]}`);
	check(name('summary-text'), typeof sum.command === 'string' && sum.command.includes('pms-shares') && sum.duration > 0,
		`command "${sum.command}", duration ${sum.duration} ns`);

	// the top functions table's first row is report's top entry
	const row = await page.evaluate(() => {
		const tr = document.querySelector('table.pms-top tbody tr');
		if (!tr) return null;
		const cell = (c) => tr.querySelector(`td.${c}`);
		return {
			children: cell('pms-children') ? Number(cell('pms-children').dataset.value) : null,
			self: Number(cell('pms-self').dataset.value),
			comm: cell('pms-comm') && cell('pms-comm').textContent,
			dso: cell('pms-dso') && cell('pms-dso').textContent,
			sym: cell('pms-sym') && cell('pms-sym').textContent.replace(/^\[.\] /, ''),
		};
	});
	check(name('top-row'), row && row.sym === (top.sym ?? row.sym) && row.comm === top.comm && row.dso === top.dso_short &&
		Math.abs(row.self - top.self) < 1e-3 && (row.children === null || Math.abs(row.children - top.children) < 1e-3),
		`page ${JSON.stringify(row)}; report ${top.comm} ${top.dso_short} ${top.sym} children ${top.children} self ${top.self}`);
	const tables = await page.evaluate(() => ({
		procs: document.querySelectorAll('table[id^="pms-procs-"] tbody tr').length,
		threads: document.querySelectorAll('table[id^="pms-threads-"] tbody tr').length,
	}));
	check(name('breakdown'), tables.procs >= 1 && tables.threads >= tables.procs,
		`${tables.procs} process rows, ${tables.threads} thread rows`);

	// clicking a column title sorts its table: Self descending puts the hottest self row first
	await page.locator('table.pms-top thead th', { hasText: /^Self$/ }).first().click();
	const sorted = await page.evaluate(() => {
		const v = [...document.querySelectorAll('table.pms-top tbody tr td.pms-self')].map((td) => Number(td.dataset.value));
		return { first: v[0], max: Math.max(...v), ordered: v.every((x, i) => i === 0 || v[i - 1] >= x) };
	});
	check(name('sort-self'), sorted.ordered && sorted.first === sorted.max, `first ${sorted.first}, max ${sorted.max}`);

	// the flame graph below: drawn, weighing the event's whole period (no filters here)
	const fg = await page.evaluate(() => ({
		total: window.pmsFlame.total, nodes: window.pmsFlame.nodeCount, drawn: window.pmsFlame.frames().length,
		canvas: window.pmsFlame.canvas(), below: document.querySelector('#pms-preamble').getBoundingClientRect().bottom,
	}));
	check(name('flamegraph'), fg.total === ev.period && fg.drawn > 3 && fg.canvas.width > 500 && fg.canvas.top >= fg.below - 1,
		`total ${fg.total} (report period ${ev.period}), ${fg.nodes} nodes, ${fg.drawn} drawn, canvas ${Math.round(fg.canvas.width)}px wide at y ${Math.round(fg.canvas.top)}`);
	const hot = await page.evaluate(() => window.pmsFlame.node(window.pmsFlame.hottest()));
	check(name('flamegraph-hottest'), hot && hot.share > 0.5, hot ? `${hot.name} ${(100 * hot.share).toFixed(2)}%` : 'none');

	// clicking a function's row opens its annotation under it (annotate's text), a second click closes it
	const annRows = await page.locator('table.pms-top tbody tr.pms-annotatable').count();
	if (annRows === 0) {
		check(name('annotate-click'), false, 'no row of the top table opens an annotation');
	} else {
		const tr = page.locator('table.pms-top tbody tr.pms-annotatable').first();
		const sym = (await tr.locator('td.pms-sym').textContent()).replace(/^\[.\] /, '');
		await tr.click();
		const opened = await page.evaluate(() => {
			const pre = document.querySelector('table.pms-top tr.pms-ann-row pre');
			if (!pre) return null;
			const box = pre.getBoundingClientRect();
			return { text: pre.textContent, visible: box.height > 50 && box.width > 200 };
		});
		check(name('annotate-click'), opened && opened.visible && opened.text.includes('Source code & Disassembly of') &&
			opened.text.includes(`<${sym}>:`) && /\n +[0-9]+\.[0-9]+ : +[0-9a-f]+:/.test(opened.text),
			opened ? `${annRows} rows; ${sym}: ${opened.text.slice(0, 160).replace(/\n/g, ' | ')}` : 'nothing opened');
		await tr.click();
		const closed = await page.locator('table.pms-top tr.pms-ann-row').count();
		check(name('annotate-close'), closed === 0, `${closed} annotation rows left open`);
	}

	check(name('console'), errors.length === 0, errors.join(' | '));
	check(name('offline'), external.length === 0, external.join(' '));
	await page.screenshot({ path: shot, fullPage: true });
	check(name('screenshot'), true, shot);
} catch (e) {
	check(name('run'), false, String(e && e.stack || e).slice(0, 400));
} finally {
	await close();
}
process.exit(failures() ? 1 : 0);
