// lib/fig/page.js, in each page's script (at @PAGEJS@): what the pages
// share, the data unpacked and the test hook's driver; the page has $,
// D, dpr, the figure's canvas over and its tip.
function b64(s) {
	var bin = atob(s), u = new Uint8Array(bin.length), i;
	for (i = 0; i < bin.length; i++)
		u[i] = bin.charCodeAt(i);
	return u;
}

async function inflate(u) {
	var r = new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream('deflate')));
	return new Uint8Array(await r.arrayBuffer());
}

function size(c, w, h) {
	c.width = Math.round(w * dpr);
	c.height = Math.round(h * dpr);
	c.style.width = w + 'px';
	c.style.height = h + 'px';
	var g = c.getContext('2d');
	g.setTransform(dpr, 0, 0, dpr, 0, 0);
	return g;
}

// the test hook: #test:ACTION;ACTION... runs each as a user would and
// writes what the page shows into #rt-test (t/1920-html.t and
// t/1960-maphtml.t read it); act(kv, v, out) runs the page's own
async function rtTest(spec, act) {
	var out = [], b;
	for (var a of spec.split(';')) {
		var kv = a.split(':'), v = (kv[1] || '').split(',').map(Number);
		switch (kv[0]) {
		case 'hover':	// the pointer at x, y of the figure
			b = over.getBoundingClientRect();
			over.dispatchEvent(new MouseEvent('mousemove', { bubbles: true,
			    clientX: b.left + v[0], clientY: b.top + v[1] }));
			out.push('hover ' + v[0] + ' ' + v[1] + ': ' + tip.textContent.replace(/\n/g, ' | '));
			break;
		case 'text':
			out.push('text ' + $(kv[1]).textContent.replace(/\n/g, ' | '));
			break;
		case 'log':	// a mark on the console, timed by the browser's log (bench/html)
			console.log(kv[1]);
			break;
		default:
			await act(kv, v, out);
		}
	}
	out.push('errors ' + rtErrors.length + (rtErrors.length ? ': ' + rtErrors.join(' / ') : ''));
	out.push('done');
	$('rt-test').textContent = out.join('\n') + '\n';
}

// the data unpacked, the figure sized, the page's init; then the test
// hook's actions, if the address has them
async function rtMain(unpack, init, act) {
	var spec = location.hash.indexOf('#test:') === 0 ? decodeURIComponent(location.hash.slice(6)) : null;
	if (spec !== null && /(^|;)log:/.test(spec))
		console.log('start');
	unpack(await inflate(b64(D.data)));
	size(over, D.w, D.h);
	$('fig').style.width = D.w + 'px';
	$('fig').style.height = D.h + 'px';
	init();
	if (spec !== null)
		await rtTest(spec, act);
}
