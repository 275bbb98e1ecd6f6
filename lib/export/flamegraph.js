// SPDX-License-Identifier: MIT
// pmuscope's flame graph page script (embedded by lib/export/flamegraph.c): lays out the embedded tree and draws it on a canvas; zoom, search, tooltips, icicle, diff colours.
// Test hooks: window.pmsFlame (see docs/flamegraph.md); #pms-flame[data-state] is "ready" once drawn.
(function () {
	'use strict';
	var D = JSON.parse(document.getElementById('pms-data').textContent);
	var N = D.nodes.f.length;
	var F = D.frames, KINDS = D.kinds;
	var byPeriod = D.weight === 'period';
	var fi = new Uint32Array(D.nodes.f);
	function dso(f) { var k = F.dso[f]; return k >= 0 ? F.dsos[k] : null; }
	var samples = new Float64Array(D.nodes.s), period = new Float64Array(D.nodes.P);
	var val = byPeriod ? period : samples;
	var parent = new Uint32Array(N), depth = new Uint32Array(N), end = new Uint32Array(N);
	var x0 = new Float64Array(N);
	var maxDepth = 0, i;

	// Layout: preorder + parent distance -> depth, x offset (children packed left to right), subtree end.
	var cursor = new Float64Array(N);
	for (i = 0; i < N; i++) {
		var p = i - D.nodes.p[i];
		parent[i] = p;
		if (i > 0) {
			depth[i] = depth[p] + 1;
			x0[i] = cursor[p];
			cursor[p] += val[i];
		}
		cursor[i] = x0[i];
		if (depth[i] > maxDepth) maxDepth = depth[i];
	}
	var stack = [];
	for (i = 0; i < N; i++) {
		while (stack.length && depth[stack[stack.length - 1]] >= depth[i]) end[stack.pop()] = i;
		stack.push(i);
	}
	while (stack.length) end[stack.pop()] = N;
	var total = N ? val[0] : 0;

	// Differential: share change of each node against the base tree (points of its total).
	var base = D.base, delta = null, maxDelta = 0;
	if (base) {
		var bval = byPeriod ? base.P : base.s, btot = byPeriod ? base.period : base.samples;
		delta = new Float64Array(N);
		for (i = 1; i < N; i++) {
			var now = total ? val[i] / total : 0, was = btot ? bval[i] / btot : 0;
			delta[i] = now - was;
			if (fi[i] !== 1 && Math.abs(delta[i]) > maxDelta) maxDelta = Math.abs(delta[i]);
		}
	}

	var $ = function (id) { return document.getElementById(id); };
	var root = $('pms-flame'), canvas = $('pms-canvas'), ctx = canvas.getContext('2d');
	var tip = $('pms-tip'), details = $('pms-details'), searchBox = $('pms-search');
	var ROW = 17, FONT = '12px system-ui, "DejaVu Sans", Verdana, sans-serif';
	// Narrower boxes are not drawn, nor their subtrees, and do not count for the canvas height:
	// a single sample's deep chain would otherwise make the page a tall empty strip.
	var MIN_W = 1;
	var icicle = !!D.icicle, zoomed = 0, hover = -1, shownDepth = 0;
	var matched = null, searchInfo = null;
	var drawn = { id: [], x: [], w: [], row: [] }, W = 0, charW = 7;

	function fnv(s) {
		var h = 2166136261;
		for (var k = 0; k < s.length; k++) h = Math.imul(h ^ (s.charCodeAt(k) & 0xff), 16777619) >>> 0;
		return h >>> 0;
	}
	var colourCache = {};
	function kindColour(f) {
		var c = colourCache[f];
		if (c) return c;
		var name = F.name[f], h = fnv(utf8(name)), a = (h & 0xffff) / 65535, b = (h >>> 16) / 65535, r, g, bl;
		switch (KINDS[F.kind[f]]) {
		case 'kernel': r = 90 + (50 * a | 0); g = 150 + (50 * b | 0); bl = 225; break;
		case 'jit': r = 60 + (50 * a | 0); g = 185 + (50 * b | 0); bl = 70; break;
		case 'inlined': r = 60 + (40 * a | 0); g = 200 + (40 * b | 0); bl = 200 + (30 * b | 0); break;
		case 'unknown': r = g = bl = 165 + (30 * a | 0); break;
		case 'process': case 'thread': r = 175 + (30 * a | 0); g = 145 + (30 * a | 0); bl = 215; break;
		case 'root': r = g = bl = 200; break;
		case 'merged': r = g = bl = 220; break;
		default: r = 205 + (50 * a | 0); g = 230 * b | 0; bl = 55 * a | 0;
		}
		return (colourCache[f] = 'rgb(' + r + ',' + g + ',' + bl + ')');
	}
	// The C side hashes the UTF-8 bytes; give the same colour here.
	function utf8(s) { return unescape(encodeURIComponent(s)); }
	function diffColour(n) {
		var d = delta[n], t = maxDelta > 0 ? Math.min(1, Math.abs(d) / maxDelta) : 0, c = 255 - Math.round(t * 200);
		if (d > 0) return 'rgb(255,' + c + ',' + c + ')';
		if (d < 0) return 'rgb(' + c + ',' + c + ',255)';
		return 'rgb(250,250,250)';
	}
	function colour(n) {
		if (matched && matched[n]) return 'rgb(230,0,230)';
		if (delta && n > 0 && fi[n] > 1) return diffColour(n);
		return kindColour(fi[n]);
	}

	function isAncestor(a, n) { return a <= n && n < end[a]; }

	function rowOf(n) { return icicle ? depth[n] : shownDepth - depth[n]; }

	// The deepest node under the zoomed one that is drawn at this scale.
	function deepestShown(scale) {
		var d = depth[zoomed];
		for (var n = zoomed; n < end[zoomed]; n++) {
			if (val[n] * scale < MIN_W) { n = end[n] - 1; continue; }
			if (depth[n] > d) d = depth[n];
		}
		return d;
	}

	// anchor: keep the canvas' bottom edge where it is on the screen when the height changes in
	// flame mode, so the root and the frame just clicked stay under the mouse
	function draw(anchor) {
		var dpr = window.devicePixelRatio || 1;
		W = canvas.parentNode.clientWidth || 1200;
		shownDepth = N && total ? deepestShown(W / (val[zoomed] || 1)) : 0;
		var H = (shownDepth + 1) * ROW, oldH = parseFloat(canvas.style.height) || 0;
		canvas.style.height = H + 'px';
		if (anchor && !icicle && oldH && H !== oldH) window.scrollBy(0, H - oldH);
		root.dataset.depth = String(shownDepth);
		canvas.width = Math.round(W * dpr);
		canvas.height = Math.round(H * dpr);
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, W, H);
		ctx.font = FONT;
		ctx.textBaseline = 'middle';
		charW = ctx.measureText('abcdefghijklmnopqrstuvwxyz_ABCDEF').width / 33 || 7; // how many characters fit a box
		drawn = { id: [], x: [], w: [], row: [] };
		if (!N || !total) return;
		var zx = x0[zoomed], zw = val[zoomed] || 1, scale = W / zw;
		// ancestors of the zoomed node: full width, dimmed
		var chain = [];
		for (var a = zoomed; a !== 0;) { a = parent[a]; chain.push(a); }
		for (var c = 0; c < chain.length; c++) box(chain[c], 0, W, true);
		for (var n = zoomed; n < end[zoomed]; n++) {
			var w = val[n] * scale;
			if (w < MIN_W) { n = end[n] - 1; continue; } // its whole subtree is narrower still
			box(n, (x0[n] - zx) * scale, w, false);
		}
	}
	function box(n, x, w, dim) {
		var y = rowOf(n) * ROW;
		ctx.globalAlpha = dim ? 0.55 : 1;
		ctx.fillStyle = colour(n);
		ctx.fillRect(x, y, Math.max(w - (w > 2 ? 0.5 : 0), 0.4), ROW - 1);
		if (n === hover) { ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.strokeRect(x + 0.5, y + 0.5, w - 1.5, ROW - 2); }
		if (w > 28) {
			var name = F.name[fi[n]], max = (w - 6) / charW;
			if (name.length > max && ctx.measureText(name).width > w - 6) name = name.slice(0, Math.max(0, Math.floor(max) - 2)) + '..';
			if (name.length > 2) { ctx.fillStyle = '#000'; ctx.fillText(name, x + 3, y + ROW / 2); }
		}
		ctx.globalAlpha = 1;
		drawn.id.push(n); drawn.x.push(x); drawn.w.push(w); drawn.row.push(rowOf(n));
	}

	function hit(px, py) {
		var row = Math.floor(py / ROW);
		for (var k = drawn.id.length - 1; k >= 0; k--)
			if (drawn.row[k] === row && px >= drawn.x[k] && px < drawn.x[k] + drawn.w[k]) return drawn.id[k];
		return -1;
	}

	function pct(v, t) { return t ? (100 * v / t).toFixed(2) + '%' : '-'; }
	function fmt(v) { return Math.round(v).toLocaleString('en-US'); }
	var sampleNoun = D.sampleNoun || 'samples', periodNoun = D.periodNoun || 'period';
	// nanoseconds as people read them, as the text table prints them
	function fmtPeriod(v) {
		if (D.periodUnit !== 'nanoseconds') return fmt(v);
		return v >= 999950000 ? (v / 1e9).toFixed(3) + ' s' : v >= 999500 ? (v / 1e6).toFixed(1) + ' ms' : (v / 1e3).toFixed(0) + ' us';
	}
	function label(n) {
		var f = fi[n];
		var lines = [F.name[f] + (dso(f) ? '  [' + dso(f) + ']' : '') + '  (' + KINDS[F.kind[f]] + ')',
			fmt(samples[n]) + ' ' + sampleNoun + ', ' + periodNoun + ' ' + fmtPeriod(period[n]),
			pct(val[n], total) + ' of all' + (zoomed && n !== zoomed && isAncestor(zoomed, n) ? ', ' + pct(val[n], val[zoomed]) + ' of the zoomed frame' : '') +
				(n > 0 ? ', ' + pct(val[n], val[parent[n]]) + ' of its parent' : '')];
		if (delta && n > 0) {
			var bt = byPeriod ? base.period : base.samples, bv = (byPeriod ? base.P : base.s)[n];
			lines.push('base ' + pct(bv, bt) + ' \u2192 new ' + pct(val[n], total) + ' (' + (delta[n] >= 0 ? '+' : '') + (100 * delta[n]).toFixed(2) + ' points)');
		}
		return lines.join('\n');
	}

	function crumbs() {
		var el = $('pms-crumbs'), path = [];
		for (var n = zoomed; ; n = parent[n]) { path.unshift(n); if (n === 0) break; }
		el.textContent = '';
		if (!zoomed) return;
		path.forEach(function (n, k) {
			if (k) el.appendChild(document.createTextNode(' \u203a '));
			var a = document.createElement('a');
			a.textContent = F.name[fi[n]];
			a.dataset.node = n;
			a.onclick = function () { zoom(n); };
			el.appendChild(a);
		});
	}
	function legend() {
		var el = $('pms-legend'), seen = {}, items;
		if (delta) items = [['rgb(255,55,55)', 'grew'], ['rgb(55,55,255)', 'shrank'], ['rgb(250,250,250)', 'same']];
		else {
			for (var k = 0; k < N; k++) seen[KINDS[F.kind[fi[k]]]] = fi[k];
			items = ['user', 'kernel', 'jit', 'inlined', 'unknown', 'process', 'thread', 'merged'].filter(function (k) { return k in seen; })
				.map(function (k) { return [kindColour(seen[k]), k]; });
		}
		el.textContent = 'Colours:';
		items.forEach(function (it) {
			var sw = document.createElement('span');
			sw.className = 'sw'; sw.style.background = it[0];
			el.appendChild(sw);
			el.appendChild(document.createTextNode(it[1]));
		});
	}

	function zoom(n) {
		n = n | 0;
		if (n < 0 || n >= N) return false;
		zoomed = n;
		root.dataset.zoom = String(n);
		crumbs();
		draw(true);
		return true;
	}

	// Matched share counts each sample once: a matched node under a matched ancestor adds nothing.
	function search(re) {
		if (re === '' || re == null) {
			matched = null; searchInfo = null;
			$('pms-matched').textContent = '';
			delete root.dataset.matched;
			searchBox.classList.remove('bad');
			draw();
			return null;
		}
		var rx;
		try { rx = re instanceof RegExp ? re : new RegExp(re, $('pms-case').checked ? '' : 'i'); }
		catch (e) { searchBox.classList.add('bad'); return null; }
		searchBox.classList.remove('bad');
		var fm = new Uint8Array(F.name.length), k;
		for (k = 0; k < F.name.length; k++) fm[k] = k > 1 && rx.test(F.name[k]) ? 1 : 0;
		matched = new Uint8Array(N);
		var under = new Uint8Array(N), sum = 0, nodes = 0;
		for (k = 1; k < N; k++) {
			var p = parent[k];
			under[k] = under[p] || matched[p];
			matched[k] = fm[fi[k]];
			if (matched[k]) { nodes++; if (!under[k]) sum += val[k]; }
		}
		searchInfo = { pattern: String(rx.source), matched: sum, total: total, percent: total ? 100 * sum / total : 0, nodes: nodes };
		$('pms-matched').textContent = 'Matched: ' + searchInfo.percent.toFixed(1) + '% (' + (byPeriod ? fmtPeriod(sum) + ' of ' + fmtPeriod(total) + ' ' + periodNoun : fmt(sum) + ' of ' + fmt(total) + ' ' + sampleNoun) + ')';
		root.dataset.matched = searchInfo.percent.toFixed(2);
		draw();
		return searchInfo;
	}

	function setIcicle(on) {
		icicle = !!on;
		root.dataset.icicle = icicle ? '1' : '0';
		$('pms-flip').textContent = icicle ? 'Flame' : 'Icicle';
		$('pms-title').textContent = D.title === 'Flame Graph' && icicle ? 'Icicle Graph' : D.title === 'Icicle Graph' && !icicle ? 'Flame Graph' : D.title;
		draw();
	}

	function showTip(n, ev) {
		if (n < 0) { tip.hidden = true; details.innerHTML = '&nbsp;'; return; }
		tip.textContent = label(n);
		tip.hidden = false;
		var tx = ev.clientX + 14, ty = ev.clientY + 14;
		if (tx + tip.offsetWidth > window.innerWidth - 4) tx = Math.max(4, ev.clientX - tip.offsetWidth - 10);
		if (ty + tip.offsetHeight > window.innerHeight - 4) ty = Math.max(4, ev.clientY - tip.offsetHeight - 10);
		tip.style.left = tx + 'px'; tip.style.top = ty + 'px';
		details.textContent = F.name[fi[n]] + ' (' + fmt(samples[n]) + ' samples, ' + pct(val[n], total) + ')';
	}
	function pos(ev) { var r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
	canvas.addEventListener('mousemove', function (ev) {
		var p = pos(ev), n = hit(p[0], p[1]);
		if (n !== hover) { hover = n; draw(); }
		showTip(n, ev);
	});
	canvas.addEventListener('mouseleave', function () { hover = -1; showTip(-1); draw(); });
	canvas.addEventListener('click', function (ev) {
		var p = pos(ev), n = hit(p[0], p[1]);
		if (n >= 0) zoom(n);
	});
	$('pms-reset').onclick = function () { zoom(0); };
	$('pms-flip').onclick = function () { setIcicle(!icicle); };
	searchBox.addEventListener('input', function () { search(searchBox.value); });
	$('pms-case').addEventListener('change', function () { search(searchBox.value); });
	document.addEventListener('keydown', function (ev) {
		if ((ev.ctrlKey || ev.metaKey) && (ev.key === 'f' || ev.key === 'F') || ev.key === 'F3') {
			ev.preventDefault(); searchBox.focus(); searchBox.select();
		} else if (ev.key === 'Escape') {
			if (searchBox.value) { searchBox.value = ''; search(''); } else zoom(0);
		}
	});
	var resizeTimer = 0;
	window.addEventListener('resize', function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(function () { draw(true); }, 50); });

	function info(n) {
		var f = fi[n];
		return { id: n, name: F.name[f], dso: dso(f), kind: KINDS[F.kind[f]], depth: depth[n], parent: n ? parent[n] : -1,
			samples: samples[n], period: period[n], value: val[n], share: total ? val[n] / total : 0,
			baseShare: delta && n ? (total ? val[n] / total : 0) - delta[n] : null, delta: delta ? delta[n] : null };
	}
	// The test and scripting interface (documented in docs/flamegraph.md).
	window.pmsFlame = {
		version: 1,
		get total() { return total; },
		get weight() { return D.weight; },
		get nodeCount() { return N; },
		get zoomed() { return zoomed; },
		get icicle() { return icicle; },
		get search() { return searchInfo; },
		get depth() { return shownDepth; },   // deepest drawn depth: the canvas has depth + 1 rows
		get treeDepth() { return maxDepth; }, // deepest node in the data, drawn or not
		rowHeight: ROW,
		minWidth: MIN_W,
		loopedChains: D.loopedChains || 0,
		// drawn boxes: node info plus x, y, w, h in CSS pixels relative to the canvas, and the fill colour
		frames: function () {
			return drawn.id.map(function (n, k) {
				var o = info(n);
				o.x = drawn.x[k]; o.y = drawn.row[k] * ROW; o.w = drawn.w[k]; o.h = ROW - 1; o.fill = colour(n);
				return o;
			});
		},
		node: function (n) { return n >= 0 && n < N ? info(n) : null; },
		find: function (name) { var r = []; for (var k = 0; k < N; k++) if (F.name[fi[k]] === name) r.push(k); return r; },
		hottest: function () { // the widest node below the root that is a function, not a process pseudo frame
			var best = -1;
			for (var k = 1; k < N; k++) {
				var kind = KINDS[F.kind[fi[k]]];
				if (kind !== 'process' && kind !== 'thread' && kind !== 'merged' && (best < 0 || val[k] > val[best])) best = k;
			}
			return best;
		},
		canvas: function () { var r = canvas.getBoundingClientRect(); return { left: r.left, top: r.top, width: r.width, height: r.height }; },
		zoom: zoom,
		reset: function () { return zoom(0); },
		searchFor: function (re) { searchBox.value = re instanceof RegExp ? re.source : (re || ''); return search(re); },
		setIcicle: setIcicle,
		tooltip: function () { return tip.hidden ? null : tip.textContent; }
	};
	legend();
	setIcicle(icicle);
	crumbs();
	// Flame mode draws the root at the bottom: open with it in view. A page with a preamble
	// (report --html) opens on its summary instead; the graph below it is only as tall as it draws.
	if (!icicle && !$('pms-preamble')) {
		var below = details.getBoundingClientRect().bottom;
		if (below > window.innerHeight) window.scrollBy(0, below - window.innerHeight);
	}
	root.dataset.zoom = '0';
	root.dataset.state = 'ready';
	root.dataset.nodes = String(N);
})();
