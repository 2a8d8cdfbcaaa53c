// lib/map/cview.js, in map.html's script (at @CVIEWJS@): the cache view
// of trmap -c, MTV's beside its access map: lib/draw/evmap.c's event map
// under the map, its time the map's (the map's pan and zoom move it too);
// a time brushed on either view shows on both; a click on a set shows
// its hits and misses, and the source lines and regions behind them.
var CV = D.cache || null, cplot = $('cplot'), cover = $('cover'), ctip = $('ctip');
var B = null;		// the brush: accesses [B[0], B[1]), or null
var CS = -1;		// the row of sets chosen, or -1
var craster = document.createElement('canvas');

// the view as rt_evmap_page and page.c's cacheview pack it, after the
// levels: a cell's key entry a byte, rows from the lowest sets; per
// cell its counts (served by each level and memory, the three 3C kinds,
// evicted a block); per column its first access; per row and key (a
// source line, or a region with bit 31) its block accesses and L1 misses
function cunpack() {
	var C = CV, N = C.cols * C.rows, i;
	C.K = C.nlev + 5;
	C.cell = U.slice(UO, UO + N);
	UO += N;
	C.cnt = new Float64Array(N * C.K);
	for (i = 0; i < N * C.K; i++)
		C.cnt[i] = vi();
	C.first = new Float64Array(C.cols + 1);
	for (i = 0; i < C.cols; i++)
		C.first[i] = vi();
	C.first[C.cols] = n;
	C.tal = [];
	for (i = 0; i < C.ntal; i++)
		C.tal.push([vi(), vi(), vi(), vi()]);
	C.PX = C.plot[0], C.PY = C.plot[1], C.PW = Math.round(C.plot[2]), C.PH = Math.round(C.plot[3]);
	C.used = new Uint8Array(C.key.length);
	for (i = 0; i < N; i++)
		C.used[C.cell[i]] = 1;
	craster.width = C.PW;
	craster.height = C.PH;
}

// a time in accesses as a position in the view's columns, and back: a
// column spans the accesses from its first to the next one's
function colOf(t) {
	var f = CV.first, lo = 0, hi = CV.cols, mid;
	if (t <= 0)
		return 0;
	if (t >= n)
		return CV.cols;
	while (hi - lo > 1) {
		mid = (lo + hi) >> 1;
		if (f[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (f[lo + 1] > f[lo] ? (t - f[lo]) / (f[lo + 1] - f[lo]) : 0);
}
function accOf(c) {
	var f = CV.first, k;
	c = Math.max(0, Math.min(CV.cols, c));
	k = Math.min(CV.cols - 1, Math.floor(c));
	return f[k] + (c - k) * (f[k + 1] - f[k]);
}
// the map's time in view, in accesses; the cache view's, in columns
function tview() { return [V.x0 * n / C0, V.x1 * n / C0]; }
function cview() { var t = tview(); return [colOf(t[0]), colOf(t[1])]; }

// the brush over a plot, MTV's yellow cursor: f, fractions of its width
function brushband(g, x, y, w, h, f) {
	var a, b;
	if (!f || f[1] < 0 || f[0] > 1)
		return;
	a = x + Math.max(0, f[0]) * w;
	b = x + Math.min(1, f[1]) * w;
	g.fillStyle = 'rgba(255,200,0,0.3)';
	g.fillRect(a, y, Math.max(1, b - a), h);
	g.fillStyle = 'rgb(230,150,0)';
	if (f[0] >= 0)
		g.fillRect(Math.round(a), y, 1, h);
	if (f[1] <= 1)
		g.fillRect(Math.round(b) - 1, y, 1, h);
}
// the brush on the map: fractions of its time in view
function mapband() {
	var t = tview();
	return B && [(B[0] - t[0]) / (t[1] - t[0]), (B[1] - t[0]) / (t[1] - t[0])];
}
function cacheband() {
	var v = cview();
	return B && [(colOf(B[0]) - v[0]) / (v[1] - v[0]), (colOf(B[1]) - v[0]) / (v[1] - v[0])];
}

function setBrush(a, b) {
	a = Math.max(0, Math.floor(a));
	b = Math.min(n, Math.ceil(b));
	B = b > a ? [a, b] : null;
	$('brush').textContent = B ? 'accesses ' + B[0] + ' to ' + (B[1] - 1) + ' (' + plural(B[1] - B[0], 'access', 'accesses') +
	    ')' + (CV ? '\ncache view: columns ' + +colOf(B[0]).toFixed(2) + ' to ' + +colOf(B[1]).toFixed(2) + ' of ' + CV.cols : '') :
	    '-';
	draw();
	if (CV) {
		cdraw();
		if (CS >= 0)
			$('set').textContent = setText(CS);
	}
}

// the key of a cell (lib/draw/evmap.c's names and colours)
function crender() {
	var C = CV, v = cview(), g = craster.getContext('2d'), img = g.createImageData(C.PW, C.PH);
	var px = img.data, x, y, row, col, k, i;
	for (y = 0; y < C.PH; y++) {
		row = C.rows - 1 - Math.floor(y * C.rows / C.plot[3]);	// the highest sets on top
		for (x = 0; x < C.PW; x++) {
			col = Math.floor(v[0] + x * (v[1] - v[0]) / C.plot[2]);
			k = col < C.cols ? C.key[C.cell[row * C.cols + col]] : C.key[C.key.length - 1];
			i = 4 * (y * C.PW + x);
			px[i] = k[1], px[i + 1] = k[2], px[i + 2] = k[3], px[i + 3] = 255;
		}
	}
	g.putImageData(img, 0, 0);
	cdraw();
}

// a row's y on the figure (rows from the lowest sets), a set's
function rowy(r) { return CV.PY + CV.PH - r * CV.PH / CV.rows; }
function sety(s) { return CV.PY + CV.PH - (s + 0.5) * CV.PH / CV.nsets; }

function cdraw() {
	var C = CV, g = size(cplot, C.w, C.h), v = cview(), t0 = v[0] * C.per, t1 = v[1] * C.per;
	g.fillStyle = '#fff';
	g.fillRect(0, 0, C.w, C.h);
	g.imageSmoothingEnabled = false;
	g.drawImage(craster, C.PX, C.PY, C.PW, C.PH);
	brushband(g, C.PX, C.PY, C.PW, C.PH, cacheband());
	if (CS >= 0) {	// the sets chosen: a line above and below
		g.fillStyle = '#000';
		g.fillRect(C.PX, Math.round(rowy(CS + 1)) - 1, C.PW, 1);
		g.fillRect(C.PX, Math.round(rowy(CS)), C.PW, 1);
	}
	g.strokeStyle = '#000';
	g.lineWidth = 1;
	g.strokeRect(C.PX - 0.5, C.PY - 0.5, C.PW + 1, C.PH + 1);
	g.fillStyle = '#000';
	g.font = '10px "DejaVu Sans Mono", monospace';
	g.textAlign = 'center';
	ticks(t0, t1, C.PW > 600 ? 11 : C.PW > 250 ? 6 : 3).forEach(function (t) {
		var x = C.PX + (t - t0) / (t1 - t0) * C.PW;
		g.fillRect(Math.round(x), C.PY + C.PH, 1, 4);
		g.fillText(num(t), x, C.PY + C.PH + 14);
	});
	g.fillText('time (first-level block accesses)', C.PX + C.PW / 2, C.PY + C.PH + 30);
	g.textAlign = 'right';
	ticks(0, C.nsets - 1, Math.max(2, Math.floor(C.PH / 24))).forEach(function (s) {
		if (s !== Math.floor(s))
			return;
		g.fillRect(C.PX - 4, Math.round(sety(s)), 4, 1);
		g.fillText(String(s), C.PX - 6, sety(s) + 4);
	});
	g.save();
	g.translate(14, C.PY + C.PH / 2);
	g.rotate(-Math.PI / 2);
	g.textAlign = 'center';
	g.fillText('L1 set', 0, 0);
	g.restore();
	$('ctitle').textContent = 'cache events: where each access was served';
	$('csub').textContent = C.n + ' accesses (first-level blocks), ' + C.per + ' a column; a cell shows the worst in it; ' +
	    C.config.map(function (l, k) { return 'L' + (k + 1) + ' ' + l; }).join(', ');
}

function ckey() {
	var e = $('ckey');
	e.style.left = CV.keyx + 'px';
	e.style.top = CV.PY + 'px';
	e.innerHTML = '<b>served by</b>';
	CV.key.forEach(function (k, j) {
		var d = document.createElement('div'), sw = document.createElement('i');
		if (!CV.used[j])
			return;
		sw.style.background = 'rgb(' + k.slice(1).join(',') + ')';
		sw.style.outline = '1px solid #ccc';
		d.appendChild(sw);
		d.appendChild(document.createTextNode(k[0]));
		e.appendChild(d);
	});
}

// a row's sets: those s with floor(s rows / nsets) = r
function sets(r) {
	var a = Math.ceil(r * CV.nsets / CV.rows), b = Math.ceil((r + 1) * CV.nsets / CV.rows) - 1;
	return a === b ? 'set ' + a : 'sets ' + a + '-' + b;
}
// counts: served by each level and memory, the 3C kinds, evicted
function served(q) {
	var C = CV, s = [], k, t = 0;
	for (k = 0; k <= C.nlev; k++) {
		t += q[k];
		if (q[k])
			s.push((k === 0 ? 'L1 hit' : k < C.nlev ? 'L' + (k + 1) : 'memory') + ' ' + q[k]);
	}
	return plural(t, 'block access', 'block accesses') + (t ? ': ' + s.join(', ') : '') +
	    '\nL1 misses ' + (t - q[0]) + ', evictions ' + q[C.nlev + 4] + (q[C.nlev + 1] + q[C.nlev + 2] + q[C.nlev + 3] ?
	    '\ncompulsory ' + q[C.nlev + 1] + ', capacity ' + q[C.nlev + 2] + ', conflict ' + q[C.nlev + 3] : '');
}
// the counts of row r over columns c0 to c1 - 1
function sum(r, c0, c1) {
	var C = CV, q = new Array(C.K).fill(0), c, k;
	for (c = Math.max(0, c0); c < Math.min(C.cols, c1); c++)
		for (k = 0; k < C.K; k++)
			q[k] += C.cnt[(r * C.cols + c) * C.K + k];
	return q;
}

// what a click on a row shows: its sets' counts over the trace and
// over the brush (the columns it meets), its lines and regions
function setText(r) {
	var C = CV, s, c0 = 0, c1 = 0, list = [[], []];
	s = sets(r) + ' of ' + C.nsets + ' (L1 ' + C.config[0] + ')\n' + served(sum(r, 0, C.cols));
	if (B) {
		c0 = Math.floor(colOf(B[0]));
		c1 = Math.ceil(colOf(B[1]));
		s += '\nbrushed, columns ' + c0 + '-' + (c1 - 1) + ' (accesses ' + C.first[c0] + '-' + (C.first[c1] - 1) +
		    '): ' + served(sum(r, c0, c1)).replace(/\n/g, '; ');
	}
	C.tal.forEach(function (t) {
		if (t[0] === r)
			list[t[1] >= 0x80000000 ? 1 : 0].push([D.names[t[1] % 0x80000000], t[2], t[3]]);
	});
	['source lines', 'regions'].forEach(function (h, k) {
		var l = list[k].sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); });
		s += '\n' + h + ' (block accesses, L1 misses):' + (l.length ? '' : ' -');
		l.slice(0, 10).forEach(function (e) { s += '\n  ' + e[0] + ' ' + e[1] + ' ' + e[2]; });
		if (l.length > 10)
			s += '\n  and ' + (l.length - 10) + ' more';
	});
	if (C.talfull)	// page.c keeps 2^18 pairs of a set and a line or region
		s += '\n(some lines and regions of some sets not counted: too many pairs)';
	return s;
}
function choose(r) {
	CS = Math.max(0, Math.min(CV.rows - 1, r));
	$('set').textContent = setText(CS);
	cdraw();
}

// the cell under x, y of the cache figure, and what its tip says
function ccell(x, y) {
	var C = CV, v = cview(), px = Math.floor(x - C.PX), py = Math.floor(y - C.PY);
	if (px < 0 || py < 0 || px >= C.PW || py >= C.PH)
		return null;
	return { col: Math.floor(v[0] + px * (v[1] - v[0]) / C.plot[2]), row: C.rows - 1 - Math.floor(py * C.rows / C.plot[3]) };
}
function chover(x, y) {
	var C = CV, e = ccell(x, y), g = size(cover, C.w, C.h);
	if (!e || e.col >= C.cols) {
		ctip.style.display = 'none';
		ctip.textContent = '';
		return;
	}
	ctip.textContent = 'time: accesses ' + C.first[e.col] + '-' + Math.max(C.first[e.col], C.first[e.col + 1] - 1) +
	    ' (block accesses ' + e.col * C.per + '-' + ((e.col + 1) * C.per - 1) + ')\n' + sets(e.row) + '\nthe worst: ' +
	    C.key[C.cell[e.row * C.cols + e.col]][0] + '\n' + served(sum(e.row, e.col, e.col + 1));
	ctip.style.display = 'block';
	ctip.style.left = Math.max(0, Math.min(x + 12, C.w - ctip.offsetWidth - 2)) + 'px';
	ctip.style.top = Math.max(0, Math.min(y + 12, C.h - ctip.offsetHeight - 2)) + 'px';
	g.strokeStyle = '#000';
	g.strokeRect(x - 2.5, y - 2.5, 6, 6);
}

function cpt(e) {
	var b = cover.getBoundingClientRect();
	return [e.clientX - b.left, e.clientY - b.top];
}
// the column position under x of the cache figure
function cpos(x) { var v = cview(); return v[0] + (x - CV.PX) / CV.PW * (v[1] - v[0]); }

function cwire() {
	var start = null, moved = false;
	if (!CV)
		return;
	$('cfig').hidden = false;
	$('cside').hidden = false;
	$('cfig').style.width = CV.w + 'px';
	$('cfig').style.height = CV.h + 'px';
	size(cover, CV.w, CV.h);
	ckey();
	// a drag brushes whole columns; a click chooses a set
	cover.onmousedown = function (e) { start = cpt(e)[0]; moved = false; cover.focus(); };
	addEventListener('mouseup', function () { start = null; });
	cover.onmousemove = function (e) {
		var p = cpt(e), a, b;
		if (start !== null && Math.abs(p[0] - start) > 2) {
			moved = true;
			a = Math.min(cpos(start), cpos(p[0]));
			b = Math.max(cpos(start), cpos(p[0]));
			setBrush(accOf(Math.floor(a)), accOf(Math.ceil(b)));
			return;
		}
		chover(p[0], p[1]);
	};
	cover.onclick = function (e) {
		var p = cpt(e), c = ccell(p[0], p[1]);
		if (!moved && c)
			choose(c.row);
	};
	cover.onmouseleave = function () { ctip.style.display = 'none'; size(cover, CV.w, CV.h); };
	cover.addEventListener('wheel', function (e) {
		var c = accOf(cpos(cpt(e)[0])) * C0 / n;
		e.preventDefault();
		zoom(e.deltaY < 0 ? 1.25 : 0.8, 1, c, (V.y0 + V.y1) / 2);
	}, { passive: false });
}

// keys of both views: b and x brush; on the cache view, up and down
// choose a set.  True when the key was theirs.
function ckeys(e) {
	var t = tview(), w = t[1] - t[0];
	switch (e.key) {
	case 'b': setBrush(t[0] + w / 3, t[1] - w / 3); return true;
	case 'x': setBrush(0, 0); return true;
	}
	if (!CV || document.activeElement !== cover)
		return false;
	switch (e.key) {
	case 'ArrowUp': choose(CS < 0 ? CV.rows - 1 : CS + 1); return true;
	case 'ArrowDown': choose(CS < 0 ? 0 : CS - 1); return true;
	case 'Enter': choose(CS < 0 ? 0 : CS); return true;
	}
	return false;
}

// the test hook's actions of the cache view and the brush (x, y of the
// cache figure; brushes from x to x2)
function ctest(kv, v, out) {
	var b, d = function (el, type, x, y, shift) {
		b = el.getBoundingClientRect();
		el.dispatchEvent(new MouseEvent(type, { bubbles: true, shiftKey: !!shift, clientX: b.left + x, clientY: b.top + y }));
	}, f;
	switch (kv[0]) {
	case 'clayout':
		out.push('clayout ' + (CV ? [CV.PX, CV.PY, CV.PW, CV.PH, CV.cols, CV.rows, CV.per, CV.n, CV.nsets, D.h].join(' ') : 'none'));
		break;
	case 'chover':
		d(cover, 'mousemove', v[0], v[1]);
		out.push('chover ' + v[0] + ' ' + v[1] + ': ' + ctip.textContent.replace(/\n/g, ' | '));
		break;
	case 'cclick':
		d(cover, 'mousedown', v[0], v[1]);
		d(cover, 'mouseup', v[0], v[1]);
		d(cover, 'click', v[0], v[1]);
		break;
	case 'cbrush':	// a drag on the cache view, at y
	case 'mbrush':	// a shift-drag on the map
		f = kv[0] === 'cbrush' ? cover : over;
		d(f, 'mousedown', v[0], v[2], kv[0] === 'mbrush');
		d(f, 'mousemove', (v[0] + v[1]) / 2, v[2], kv[0] === 'mbrush');
		d(f, 'mousemove', v[1], v[2], kv[0] === 'mbrush');
		d(f, 'mouseup', v[1], v[2]);
		break;
	case 'brush':	// the brush in accesses, and its edges on each view
		f = mapband();
		b = CV && cacheband();
		out.push('brush ' + (B ? B[0] + ' ' + B[1] + ' map ' + (PX + f[0] * PW).toFixed(2) + ' ' + (PX + f[1] * PW).toFixed(2) +
		    (CV ? ' cache ' + (CV.PX + b[0] * CV.PW).toFixed(2) + ' ' + (CV.PX + b[1] * CV.PW).toFixed(2) : '') : 'none'));
		break;
	case 'cpixel':	// the cache view's colour at x, y of its figure
		b = cplot.getContext('2d').getImageData(Math.round(v[0] * dpr), Math.round(v[1] * dpr), 1, 1).data;
		out.push('cpixel ' + v[0] + ' ' + v[1] + ' ' + b[0] + ' ' + b[1] + ' ' + b[2]);
		break;
	}
}
