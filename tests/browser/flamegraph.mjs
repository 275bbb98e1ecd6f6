// SPDX-License-Identifier: MIT
// Clicks a pmuscope flame graph page in Chromium and prints PASS/FAIL lines (tests/browser/test_flamegraph.sh reads them).
// Usage: node flamegraph.mjs <mode> <page.html> <screenshot.png> [key=value...]
//   shares: the pms-shares page; report=<file of "percent symbol" lines: pmuscope report --children --sort sym>
//   any:    any recording: hottest frame width (against report= when given), zoom, reset, search, icicle
//   diff:   a differential page (opts.base): red and blue fills, base/new/delta in tooltips; keys grew=, shrank= (frame names)
//   offcpu: a profile --off-cpu page: widths are time shares, tooltips and the search count blocks and off-CPU time; keys fn= (a function that blocked), report= (the run's table as "percent symbol" lines)
//   load:   prints "load <ms> nodes <n>" per run, median of runs= (bench/flamegraph.sh)
//   first:  the first view, as opened, never scrolled by the test: screenshot of the viewport (width=, height=),
//           the root in it (or, with preamble=1, a report --html page: still at the top, the summary in view),
//           the canvas as tall as its deepest frame at least a pixel wide, every row of it drawn;
//           looped=N: at least N looping chains collapsed, the frame loopfn= under one collapsed frame with
//           N samples; deep=D: a D-deep one-sample recursion kept in the data (deepfn= frames) but not drawn
import { readFileSync } from 'node:fs';
import { launch, openPage, check, failures } from './lib.mjs';

const [mode, file, shot, ...rest] = process.argv.slice(2);
const kv = Object.fromEntries(rest.map((a) => a.split(/=(.*)/s).slice(0, 2)));
const name = (s) => `fg-${kv.label || mode}-${s}`;
// children share per symbol from pmuscope report: the independent number a width must match
const report = new Map();
if (kv.report)
	for (const line of readFileSync(kv.report, 'utf8').split('\n')) {
		const m = /^\s*([\d.]+)%?\s+(.+)$/.exec(line);
		if (m && !report.has(m[2])) report.set(m[2], Number(m[1]));
	}
const reportMax = Math.max(0, ...report.values());

async function hottestChecks(page) {
	const hot = await page.evaluate(() => window.pmsFlame.hottest());
	const h = await page.evaluate((n) => window.pmsFlame.node(n), hot);
	if (report.size) {
		check(name('hottest-is-report-top'), near(report.get(h.name) ?? -1, reportMax, 0.005),
			`page's hottest ${h.name} (${pct(h.share)}%); report: ${h.name} ${report.get(h.name)}%, top row ${reportMax}%`);
		await widthMatches(page, hot, report.get(h.name) ?? -1, 'hottest');
	} else {
		await widthMatches(page, hot, 100 * h.share, 'hottest');
	}
	return hot;
}

async function ready(page) {
	await page.waitForSelector('#pms-flame[data-state="ready"]', { timeout: 30000 });
}

// The drawn box of a node, from the page's hook.
async function box(page, id) {
	return page.evaluate((n) => window.pmsFlame.frames().find((f) => f.id === n) || null, id);
}
async function canvasRect(page) { return page.evaluate(() => window.pmsFlame.canvas()); }
// A deep stack makes the canvas taller than the viewport; scroll the box into view as a user would, since the mouse only reaches the viewport.
async function reveal(page, b) {
	await page.evaluate((y) => {
		const r = window.pmsFlame.canvas();
		const top = r.top + y;
		if (top < 0 || top + 20 > window.innerHeight) window.scrollBy(0, top - window.innerHeight / 2);
	}, b.y);
	return canvasRect(page);
}
async function clickNode(page, id) {
	const b = await box(page, id), c = await reveal(page, b);
	await page.mouse.click(c.left + b.x + b.w / 2, c.top + b.y + b.h / 2);
}
async function hoverNode(page, id) {
	const b = await box(page, id), c = await reveal(page, b);
	await page.mouse.move(c.left + b.x + Math.min(b.w / 2, 40), c.top + b.y + b.h / 2);
}
const near = (a, b, tol) => Math.abs(a - b) <= tol;
const pct = (x) => (100 * x).toFixed(2);

async function common(page, errors, external) {
	const st = await page.evaluate(() => ({ total: window.pmsFlame.total, n: window.pmsFlame.nodeCount }));
	check(name('ready'), st.total > 0 && st.n > 1, `${st.n} nodes, total ${st.total}`);
	check(name('offline'), external.length === 0, external.join(' '));
	return st;
}

// Width of node id / full width, compared with share (percent).
async function widthMatches(page, id, share, label, tol = 0.5) {
	const b = await box(page, id), c = await canvasRect(page);
	const w = b ? 100 * b.w / c.width : -1;
	return check(name(`width-${label}`), b && near(w, share, tol), `${b ? b.name : '?'} drawn ${w.toFixed(2)}% of the width, share ${share}% (tolerance ${tol})`);
}

async function zoomChecks(page, id, label) {
	const before = await page.evaluate(() => window.pmsFlame.frames());
	const kids = before.filter((f) => f.parent === id && f.w > 20);
	await clickNode(page, id);
	const c = await canvasRect(page);
	const z = await page.evaluate(() => window.pmsFlame.zoomed);
	const b = await box(page, id);
	check(name(`zoom-${label}`), z === id && b && near(b.x, 0, 1) && near(b.w, c.width, 1.5),
		`zoomed=${z} box x=${b && b.x.toFixed(1)} w=${b && b.w.toFixed(1)} of ${c.width}`);
	let scaled = kids.length > 0;
	const detail = [];
	for (const k of kids) {
		const kb = await box(page, k.id);
		const want = c.width * k.value / b.value;
		if (!kb || !near(kb.w, want, 1.5)) scaled = false;
		detail.push(`${k.name} ${kb ? kb.w.toFixed(1) : '?'}px (want ${want.toFixed(1)})`);
	}
	check(name(`zoom-children-${label}`), scaled, detail.join(', ') || 'no children drawn');
	const crumbs = await page.textContent('#pms-crumbs');
	check(name(`breadcrumb-${label}`), crumbs.includes(b.name), crumbs);
	await page.click('#pms-reset');
	const after = await box(page, id);
	const orig = before.find((f) => f.id === id);
	check(name(`reset-${label}`), (await page.evaluate(() => window.pmsFlame.zoomed)) === 0 && after && near(after.w, orig.w, 0.5),
		`width back to ${after && after.w.toFixed(1)} (was ${orig.w.toFixed(1)})`);
}

async function icicleChecks(page) {
	const ic0 = await page.evaluate(() => window.pmsFlame.icicle);
	const f0 = await page.evaluate(() => window.pmsFlame.frames());
	const root = f0.find((f) => f.id === 0), deep = f0.reduce((a, f) => (f.depth > a.depth ? f : a), f0[0]);
	await page.click('#pms-flip');
	const ic1 = await page.evaluate(() => window.pmsFlame.icicle);
	const f1 = await page.evaluate(() => window.pmsFlame.frames());
	const root1 = f1.find((f) => f.id === 0), deep1 = f1.find((f) => f.id === deep.id);
	// flame: the root is the bottom row; icicle: the top row
	const okRows = (ic, r, d) => (ic ? r.y === 0 && d.y > r.y : r.y > d.y && d.y >= 0);
	check(name('icicle'), ic1 === !ic0 && okRows(ic0, root, deep) && deep1 && okRows(ic1, root1, deep1),
		`${ic0 ? 'icicle' : 'flame'}: root y=${root.y} deepest y=${deep.y}; toggled to ${ic1 ? 'icicle' : 'flame'}: root y=${root1.y} deepest y=${deep1 && deep1.y}`);
	await page.click('#pms-flip');
}

async function searchChecks(page, re, want, tol) {
	await page.keyboard.press('Control+f');
	const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
	check(name('ctrl-f'), focused === 'pms-search', `focus on ${focused}`);
	await page.keyboard.type(re);
	const txt = await page.textContent('#pms-matched');
	const m = /Matched: ([\d.]+)%/.exec(txt);
	const got = m ? parseFloat(m[1]) : -1;
	const hook = await page.evaluate(() => window.pmsFlame.search);
	const lit = await page.evaluate(() => window.pmsFlame.frames().filter((f) => f.fill === 'rgb(230,0,230)').length);
	check(name('search'), m && (want === null || near(got, want, tol)) && hook && near(hook.percent, got, 0.06) && lit > 0,
		`'${re}': "${txt}"${want === null ? '' : ` want ${want}±${tol}`}, ${lit} boxes highlighted`);
	await page.keyboard.press('Escape');
	check(name('search-clear'), (await page.textContent('#pms-matched')) === '' &&
		(await page.evaluate(() => window.pmsFlame.search)) === null, 'Escape clears the search');
	return got;
}

// The page as it opens: nothing here scrolls, clicks or hovers before the screenshot.
async function firstView(page, errors) {
	const v = await page.evaluate(() => {
		const F = window.pmsFlame, c = F.canvas(), fs = F.frames(), root = fs.find((f) => f.id === 0) || null;
		// the deepest node at least a pixel (minWidth) wide, from the node data, not from what was drawn
		const minW = F.minWidth ?? 1;
		let deepest = 0;
		for (let k = 0; k < F.nodeCount; k++) {
			const n = F.node(k);
			if (n.share * c.width >= minW && n.depth > deepest) deepest = n.depth;
		}
		const pre = document.querySelector('#pms-preamble');
		return {
			canvas: c, root, scrollY: window.scrollY, innerH: window.innerHeight, depth: F.depth,
			treeDepth: Math.max(...Array.from({ length: F.nodeCount }, (_, k) => F.node(k).depth)),
			row: F.rowHeight ?? 17, deepest, rows: [...new Set(fs.map((f) => f.y))].length, drawn: fs.length,
			looped: F.loopedChains, subtitle: document.querySelector('#pms-subtitle').textContent,
			preTop: pre ? pre.getBoundingClientRect().top : null,
		};
	});
	if (shot) await page.screenshot({ path: shot }); // the viewport: what a reader sees first
	const rootTop = v.root ? v.canvas.top + v.root.y : NaN;
	if (kv.preamble) {
		check(name('opens-on-summary'), v.scrollY === 0 && v.preTop !== null && v.preTop >= 0 && v.preTop < v.innerH,
			`scrollY ${v.scrollY}, summary top ${v.preTop} of a ${v.innerH}px viewport`);
	} else {
		check(name('root-in-view'), v.root && rootTop >= 0 && rootTop + v.root.h <= v.innerH,
			`root row at y ${rootTop.toFixed(1)}..${(rootTop + (v.root ? v.root.h : 0)).toFixed(1)} of a ${v.innerH}px viewport (scrolled ${v.scrollY}px by the page)`);
	}
	const rows = v.canvas.height / v.row;
	check(name('canvas-height'), Math.abs(v.canvas.height - (v.deepest + 1) * v.row) < 0.5 && v.depth === v.deepest,
		`canvas ${v.canvas.height}px (${rows} rows of ${v.row}px), deepest frame >= 1px wide at depth ${v.deepest}: want ${(v.deepest + 1) * v.row}px;` +
		` page's depth ${v.depth}, deepest in the data ${v.treeDepth}`);
	check(name('rows-filled'), v.rows === rows, `${v.rows} of ${rows} rows hold a drawn frame (${v.drawn} frames)`);
	if (kv.looped) {
		const want = Number(kv.looped);
		const lf = await page.evaluate((fn) => window.pmsFlame.find(fn).map((k) => window.pmsFlame.node(k)), kv.loopfn || 'looped_touch');
		const under = lf.length === 1 ? await page.evaluate((p) => window.pmsFlame.node(p), lf[0].parent) : null;
		const above = under ? await page.evaluate((p) => window.pmsFlame.node(p), under.parent) : null;
		check(name('looped-collapsed'), v.looped >= want && lf.length === 1 && lf[0].samples === want && under && above &&
			under.name !== above.name && lf[0].depth <= 4 && v.subtitle.includes(`${v.looped} looping call chain`),
			`${v.looped} looping chains collapsed (want >= ${want}); ${kv.loopfn || 'looped_touch'}: ${lf.map((n) => `${n.samples} samples at depth ${n.depth}`).join(', ')}` +
			` under ${under && under.name} under ${above && above.name}; subtitle "${v.subtitle}"`);
	}
	if (kv.deep) {
		const d = Number(kv.deep);
		const nd = await page.evaluate((fn) => window.pmsFlame.find(fn).length, kv.deepfn || 'deep');
		check(name('deep-kept-not-drawn'), nd >= d && v.treeDepth > d && v.depth < v.treeDepth / 4,
			`${nd} '${kv.deepfn || 'deep'}' frames (want >= ${d}: recursion is not a loop), data ${v.treeDepth} deep, drawn ${v.depth} deep`);
	}
	check(name('no-console-errors'), errors.length === 0, errors.join(' | ').slice(0, 300));
}

async function main() {
	const { context, external, close } = await launch(mode === 'first' ?
		{ width: Number(kv.width || 1280), height: Number(kv.height || 900) } : undefined);
	try {
		if (mode === 'load') {
			const times = [];
			let n = 0;
			for (let r = 0; r < Number(kv.runs || 3); r++) {
				const page = await context.newPage();
				const t0 = Date.now();
				await page.goto('file://' + file, { waitUntil: 'load' });
				await ready(page);
				times.push(Date.now() - t0);
				n = await page.evaluate(() => window.pmsFlame.nodeCount);
				await page.close();
			}
			times.sort((a, b) => a - b);
			console.log(`load ${times[times.length >> 1]} nodes ${n} runs ${times.join(',')}`);
			return;
		}
		const { page, errors } = await openPage(context, file);
		await ready(page);
		await common(page, errors, external);
		if (mode === 'first') {
			await firstView(page, errors);
			return;
		}
		if (mode === 'shares') {
			const ids = {};
			for (const fn of ['alpha', 'bravo', 'charlie', 'leaf_work'])
				ids[fn] = await page.evaluate((s) => window.pmsFlame.find(s) // the widest of its nodes (a cut chain gives strays)
					.reduce((a, n) => (a < 0 || window.pmsFlame.node(n).value > window.pmsFlame.node(a).value ? n : a), -1), fn);
			await hottestChecks(page);
			for (const fn of ['alpha', 'bravo', 'charlie'])
				await widthMatches(page, ids[fn], report.get(fn) ?? -1, fn);
			await hoverNode(page, ids.alpha);
			const tip = await page.evaluate(() => window.pmsFlame.tooltip());
			const a = await page.evaluate((n) => window.pmsFlame.node(n), ids.alpha);
			check(name('tooltip'), tip && tip.includes('alpha') && tip.includes(`${a.samples.toLocaleString('en-US')} samples`) &&
				tip.includes(`${pct(a.share)}% of all`) && (await page.isVisible('#pms-tip')), String(tip).replace(/\n/g, ' | '));
			await zoomChecks(page, ids.alpha, 'alpha');
			await searchChecks(page, '^(alpha|bravo)', report.get('alpha') + report.get('bravo'), 0.1);
			const s80 = await page.evaluate(() => window.pmsFlame.searchFor('^(alpha|bravo)$'));
			check(name('search-80'), near(s80.percent, 80, 3), `${s80.percent.toFixed(2)}% (want 80±3)`);
			// recursion must not double count: leaf_work|alpha counts alpha's samples once
			const once = await page.evaluate(() => window.pmsFlame.searchFor('^(alpha|leaf_work)$'));
			const lw = await page.evaluate((n) => window.pmsFlame.node(n).share, ids.leaf_work);
			check(name('search-once'), once.percent <= 100.0001 && once.percent >= 100 * lw - 0.01,
				`alpha|leaf_work matched ${once.percent.toFixed(2)}% (<= 100, >= leaf_work's ${pct(lw)}% under alpha)`);
			await page.evaluate(() => window.pmsFlame.searchFor(''));
			await icicleChecks(page);
		} else if (mode === 'any') {
			await hottestChecks(page);
			// zoom into something with children that is not the full width
			const cand = await page.evaluate(() => {
				const fs = window.pmsFlame.frames();
				const has = new Set(fs.map((f) => f.parent));
				const c = fs.filter((f) => f.id > 0 && has.has(f.id) && f.w > 60 && f.share < 0.9).sort((a, b) => b.w - a.w);
				return c.length ? c[0].id : -1;
			});
			if (cand > 0) await zoomChecks(page, cand, 'frame');
			else check(name('zoom'), false, 'no frame with children narrower than 90%');
			await searchChecks(page, kv.search || 'main', kv.searchshare ? Number(kv.searchshare) : null, 1);
			await icicleChecks(page);
		} else if (mode === 'offcpu') {
			const id = await page.evaluate((s) => window.pmsFlame.find(s)
				.reduce((a, n) => (a < 0 || window.pmsFlame.node(n).value > window.pmsFlame.node(a).value ? n : a), -1), kv.fn);
			const n = await page.evaluate((x) => window.pmsFlame.node(x), id);
			check(name('weighted-by-time'), n && n.value === n.period && n.period > n.samples, JSON.stringify(n));
			// the text table printed by the same run is the independent number
			await widthMatches(page, id, report.get(kv.fn) ?? -1, kv.fn);
			await hoverNode(page, id);
			const tip = String(await page.evaluate(() => window.pmsFlame.tooltip()));
			// the page's own numbers in the words and units of the text table: "20 blocks, off-CPU time 612.3 ms"
			const ms = (n.period / 1e6).toFixed(1), tm = new RegExp(`${n.samples} blocks, off-CPU time (${ms} ms|${(n.period / 1e9).toFixed(3)} s)`);
			check(name('tooltip'), tm.test(tip) && !tip.includes('samples'), tip.replace(/\n/g, ' | '));
			await page.evaluate((f) => window.pmsFlame.searchFor(`^${f}$`), kv.fn);
			const matched = await page.textContent('#pms-matched');
			check(name('matched-in-time'), / of [\d.]+ (ms|s) off-CPU time\)$/.test(matched), matched);
			await page.evaluate(() => window.pmsFlame.searchFor(''));
			const sub = await page.textContent('#pms-subtitle');
			check(name('subtitle'), / blocks/.test(sub) && !/samples/.test(sub), sub);
		} else if (mode === 'diff') {
			const fs = await page.evaluate(() => window.pmsFlame.frames());
			const red = fs.filter((f) => /^rgb\(255,(\d+),\1\)$/.test(f.fill) && f.fill !== 'rgb(255,255,255)');
			const blue = fs.filter((f) => /^rgb\((\d+),\1,255\)$/.test(f.fill) && f.fill !== 'rgb(255,255,255)');
			const widest = (n) => fs.filter((f) => f.name === n).sort((a, b) => b.w - a.w)[0]; // strays from cut chains are narrow
			const g = widest(kv.grew), s = widest(kv.shrank);
			check(name('red-blue'), red.length > 0 && blue.length > 0 && g && red.includes(g) && s && blue.includes(s),
				`${red.length} red (${red.map((f) => f.name).slice(0, 4).join(',')}), ${blue.length} blue (${blue.map((f) => f.name).slice(0, 4).join(',')})`);
			check(name('delta-values'), g && g.delta > 0 && s && s.delta < 0, `${kv.grew} ${g && pct(g.delta)} points, ${kv.shrank} ${s && pct(s.delta)} points`);
			await hoverNode(page, g.id);
			const tip = await page.evaluate(() => window.pmsFlame.tooltip());
			check(name('tooltip'), tip && /base [\d.]+% → new [\d.]+% \(\+[\d.]+ points\)/.test(tip), String(tip).replace(/\n/g, ' | '));
			const legend = await page.textContent('#pms-legend');
			check(name('legend'), legend.includes('grew') && legend.includes('shrank'), legend);
		}
		await page.mouse.move(1, 1);
		if (shot) await page.screenshot({ path: shot, fullPage: true });
		check(name('no-console-errors'), errors.length === 0, errors.join(' | ').slice(0, 300));
	} catch (e) {
		check(name('run'), false, String(e && e.stack || e).slice(0, 500));
	} finally {
		await close();
	}
}
await main();
process.exit(failures() ? 1 : 0);
