"""topo.py: independent models for the topology tests (python3, stdlib only).

  topo.py lower POINTS           naive edit/Hamming distances -> Ripser lower matrix
  topo.py bars PERSISTENCE       "dim birth death" of persist's bars, sorted
  topo.py ripbars RIPSER_OUT     the same from ripser's output
  topo.py same PERSISTENCE RIPSER_OUT   the same bars, values within 1e-5
                                 (a first argument in ripser's text form is
                                 read as such: another Ripser's output)
  topo.py cocycle PERSISTENCE P  check every class: a cocycle on the triangles
                                 at its scale, and not a coboundary
  topo.py circle N NOISE SEED    points on a noisy circle (points stream)
  topo.py periodic Q REPS        a strictly periodic symbol trace (addr format)
  topo.py iid N ALPHABET SEED    i.i.d. symbols (addr format)
  topo.py random N SEED          a random lower distance matrix, values 1..10
  topo.py sphere N SEED          N random points of the 3-sphere, their lower matrix
  topo.py enclosing MATRIX       a lower matrix's enclosing radius, the pairs within it
  topo.py circerr COORDS N       largest error of theta1 against the angle i/N of
                                 point i, after the best rotation and direction
  topo.py rotinv A B             largest difference of theta1 by seq, A against B,
                                 after the best rotation and direction
  topo.py shuffle POINTS SEED    the points in a random order
  topo.py png FILE               decode a PNG (CRCs, inflate, row filters): WxH
  topo.py svg FILE               parse an SVG as XML: the number of paths
  topo.py samepix A B X Y W H [BX BY]
                                 two 8-bit PNGs (RGB, RGBA or palette) in the box
                                 X Y W H (in B at BX BY, else the same): its
                                 pixels, those not white in A, the share of
                                 pixels of the same colour in both
  topo.py inkmatch A B X Y W     two 8-bit RGB(A) PNGs in the box X Y W W: the
                                 share of A's ink (non-white) with B's ink
                                 within 2 pixels, the same of B's, the share
                                 of pixels inked in both alike in colour
"""
import bisect
import math
import random
import struct
import sys


def points(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            rows.append(line.split()[4:])
    return rows


def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def lower(path, metric='levenshtein'):
    rows = []
    seen = set()
    for r in points(path):          # identical windows are one vertex
        if tuple(r) not in seen:
            seen.add(tuple(r))
            rows.append(r)
    for j, b in enumerate(rows):
        if metric == 'hamming':
            d = [sum(x != y for x, y in zip(a, b)) for a in rows[:j]]
        else:
            d = [edit(a, b) for a in rows[:j]]
        print(','.join(str(x) for x in d))


def num(s):
    return math.inf if s == 'inf' else float(s)


def tables(path):
    """Each table of a stream by its kind: the first view's where persist
    wrote several (ripser is given the first view's distances)."""
    t, name = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith('#reftrace '):
                name = line.split()[1]
                if name in t:	# a later view's table
                    name = None
                else:
                    t[name] = []
            elif line.startswith('#') or not line.strip():
                continue
            elif name:
                t[name].append(line.split())
    return t


def fmt(x):
    return 'inf' if x == math.inf else '%g' % x


def ourbars(path):
    return sorted((int(r[0]), num(r[2]), num(r[3])) for r in tables(path)['bars'])


def bars(path):
    for d, b, e in ourbars(path):
        print(d, fmt(b), fmt(e))


def same(ours, theirs):
    with open(ours) as f:
        rip = any('persistence intervals in dim' in line for line in f)
    a, b = (readrip if rip else ourbars)(ours), readrip(theirs)

    def close(x, y):
        return x == y or abs(x - y) <= 1e-5 * max(abs(x), abs(y))
    # matched as multisets: two bars whose births are within the
    # tolerance may sort either way (o3_2048's 0.936870873 and 0.936871409
    # are both 0.936871 in ripser's output)
    bad = len(a) != len(b)
    # nxt: the first bar of b at or after j not used yet (a used bar points
    # past itself), so that many equal bars (40000 born at 0) match in
    # linear time, not by walking past every used one
    nxt = list(range(len(b) + 1))

    def unused(j):
        while nxt[j] != j:
            nxt[j] = nxt[nxt[j]]
            j = nxt[j]
        return j
    for x in a:
        tol = 2e-5 * abs(x[1])	# a window holding every birth close to x's
        j = unused(bisect.bisect_left(b, (x[0], x[1] - tol)))
        while j < len(b) and b[j][0] == x[0] and b[j][1] <= x[1] + tol and \
                (not close(x[1], b[j][1]) or not close(x[2], b[j][2])):
            j = unused(j + 1)
        if j == len(b) or b[j][0] != x[0] or b[j][1] > x[1] + tol:
            print('# differ: %s has no match in ripser\'s' % (x,))
            bad = True
            break
        nxt[j] = j + 1
    print('# %d bars here, %d from ripser' % (len(a), len(b)))
    sys.exit(1 if bad else 0)


def readrip(path):
    out, dim = [], None
    with open(path) as f:
        for line in f:
            if 'persistence intervals in dim' in line:
                dim = int(line.split()[-1].rstrip(':'))
            elif line.strip().startswith('['):
                b, e = line.strip()[1:-1].split(',')
                out.append((dim, float(b), math.inf if e.strip() == '' else float(e)))
    return sorted(out)


def ripbars(path):
    for d, b, e in readrip(path):
        print(d, fmt(b), fmt(e))


def cocycle(path, p):
    p = int(p)
    t = tables(path)
    edges = {}
    for i, j, d in t['edges']:
        edges[(int(i), int(j))] = float(d)
    bad = 0
    for rank, birth, death, scale, n, *more in t['classes']:
        eps = float(scale)
        z = {}
        for r, i, j, c in t['cocycles']:
            if r == rank:
                z[(int(i), int(j))] = int(c) % p
        if len(z) != int(n):
            print('class %s: %d entries, the table says %s' % (rank, len(z), n))
            bad += 1
        adj = {}
        for (i, j), d in edges.items():
            if d <= eps:
                adj.setdefault(i, set()).add(j)
                adj.setdefault(j, set()).add(i)
        for (i, j) in z:
            if j not in adj.get(i, ()):
                print('class %s: cocycle edge %d-%d beyond the scale' % (rank, i, j))
                bad += 1

        def zv(a, b):
            return z.get((a, b), 0) if a < b else (-z.get((b, a), 0)) % p
        tri = 0
        for i in adj:                   # every triangle i < j < k
            for j in adj[i]:
                if j <= i:
                    continue
                for k in adj[i] & adj[j]:
                    if k <= j:
                        continue
                    tri += 1
                    if (zv(i, j) + zv(j, k) - zv(i, k)) % p:
                        print('class %s: coboundary %d-%d-%d nonzero' % (rank, i, j, k))
                        bad += 1
        # a coboundary is a difference of potentials: try a spanning forest
        pot = {}
        for s in adj:
            if s in pot:
                continue
            pot[s] = 0
            todo = [s]
            while todo:
                a = todo.pop()
                for b in adj[a]:
                    if b not in pot:
                        pot[b] = (pot[a] + zv(a, b)) % p
                        todo.append(b)
        exact = all((pot[j] - pot[i] - zv(i, j)) % p == 0
                    for i in adj for j in adj[i] if i < j)
        if exact:
            print('class %s: a coboundary' % rank)
            bad += 1
        print('# class %s: %d entries, %d triangles checked at scale %g'
              % (rank, len(z), tri, eps))
    sys.exit(1 if bad else 0)


def circle(n, noise, seed):
    rnd = random.Random(int(seed))
    print('#reftrace points 1 seq loc func region x1 x2')
    for i in range(int(n)):
        a = 2 * math.pi * i / int(n)
        print(i, '- - -', '%.9f %.9f' % (math.cos(a) + rnd.gauss(0, float(noise)),
                                         math.sin(a) + rnd.gauss(0, float(noise))))


def periodic(q, reps):
    for r in range(int(reps)):
        for i in range(int(q)):
            print('0x%x' % (0x1000 + 8 * i))


def iid(n, alphabet, seed):
    rnd = random.Random(int(seed))
    for _ in range(int(n)):
        print('0x%x' % (0x1000 + 8 * rnd.randrange(int(alphabet))))


def randmatrix(n, seed):
    rnd = random.Random(int(seed))
    for j in range(int(n)):
        print(','.join(str(rnd.randint(1, 10)) for _ in range(j)))


def sphere(n, seed):
    """n points of the 3-sphere (as Ripser's sphere_3_192), their lower
    distance matrix with 6 decimals"""
    rnd = random.Random(int(seed))
    pts = []
    for _ in range(int(n)):
        v = [rnd.gauss(0, 1) for _ in range(4)]
        r = math.sqrt(sum(x * x for x in v))
        pts.append([x / r for x in v])
    for j in range(int(n)):
        print(','.join('%.6f' % math.dist(pts[j], pts[i]) for i in range(j)))


def enclosing(path):
    """a lower distance matrix's enclosing radius (as a float, printed
    %g) and how many pairs are within it"""
    rows = [[float(x) for x in l.split(',')] if l.strip() else []
            for l in open(path)]
    n = len(rows)
    far = [0.0] * n
    for j in range(n):
        for i, d in enumerate(rows[j]):
            far[i] = max(far[i], d)
            far[j] = max(far[j], d)
    r = min(far)
    print('%g %d' % (struct.unpack('f', struct.pack('f', r))[0],
                     sum(d <= r for row in rows for d in row)))


def wrap(d):
    return d - math.floor(d + 0.5)


def theta(path):
    t = tables(path)['theta']
    return [(int(r[2]), float(r[6])) for r in t]


def besterr(pairs):
    best = 1.0
    for sgn in (1, -1):
        # rotation: the circular mean of the differences
        sx = sum(math.cos(2 * math.pi * (a - sgn * b)) for a, b in pairs)
        sy = sum(math.sin(2 * math.pi * (a - sgn * b)) for a, b in pairs)
        c = math.atan2(sy, sx) / (2 * math.pi)
        err = max(abs(wrap(a - sgn * b - c)) for a, b in pairs)
        best = min(best, err)
    return best


def circerr(path, n):
    pairs = [(th, s / float(n)) for s, th in theta(path) if not math.isnan(th)]
    print('%.6f' % besterr(pairs))


def rotinv(a, b):
    tb = dict(theta(b))
    pairs = [(th, tb[s]) for s, th in theta(a)]
    print('%.6f' % besterr(pairs))


def shuffle(path, seed):
    lines = open(path).read().splitlines()
    head = [x for x in lines if x.startswith('#')]
    body = [x for x in lines if not x.startswith('#')]
    random.Random(int(seed)).shuffle(body)
    print('\n'.join(head + body))


def png(path):
    import struct
    import zlib
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) & 0xffffffff == crc, 'crc'
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    bpp = 3 if ctype == 2 else 1
    assert len(raw) == h * (1 + w * bpp), 'size'
    assert all(raw[r * (1 + w * bpp)] <= 4 for r in range(h)), 'filter'
    print('%dx%d' % (w, h))


def blends(path):
    """Colours of a palette PNG (filter 0 rows) that mix white and another
    colour of the picture in quarters, as a line's edge pixels do when it
    is drawn anti-aliased on white: how many."""
    import struct
    import zlib
    data = open(path, 'rb').read()
    pos, idat, pal = 8, b'', []
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h = struct.unpack('>II', body[:8])
        elif kind == b'PLTE':
            pal = [tuple(body[i:i + 3]) for i in range(0, n, 3)]
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    used = set()
    for r in range(h):
        used.update(raw[r * (w + 1) + 1:(r + 1) * (w + 1)])
    cols = set(pal[i] for i in used)
    mixed = set()
    for c in cols:
        for q in (1, 2, 3):
            m = tuple((255 * (4 - q) + v * q + 2) // 4 for v in c)
            if m != c and m in cols and c != (255, 255, 255):
                mixed.add(m)
    print(len(mixed))


def rgb(path):
    """An 8-bit RGB, RGBA or palette PNG (any row filter): w, h, rows of RGB."""
    import struct
    import zlib
    data = open(path, 'rb').read()
    pos, idat, pal = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 3, 6), 'RGB(A) or palette, 8 bits'
        elif kind == b'PLTE':
            pal = [tuple(body[i:i + 3]) for i in range(0, n, 3)]
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, bpp = zlib.decompress(idat), 3 if ctype == 2 else 1 if ctype == 3 else 4
    stride, prev, rows = w * bpp, bytearray(w * bpp), []
    for r in range(h):
        f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if ctype == 3:
            rows.append([pal[line[x]] for x in range(w)])
            prev = line
            continue
        rows.append([tuple(line[x * bpp:x * bpp + 3]) if bpp == 3 or line[x * bpp + 3] else
                     (255, 255, 255) for x in range(w)])
        prev = line
    return w, h, rows


def inkmatch(a, b, x0, y0, side):
    x0, y0, side = int(float(x0)), int(float(y0)), int(float(side))
    pa, pb = rgb(a)[2], rgb(b)[2]
    ink = lambda p: min(p) < 200
    box = [(x, y) for y in range(y0, y0 + side) for x in range(x0, x0 + side)]
    ia = set(q for q in box if ink(pa[q[1]][q[0]]))
    ib = set(q for q in box if ink(pb[q[1]][q[0]]))
    near = lambda q, s: any((q[0] + dx, q[1] + dy) in s for dx in range(-2, 3) for dy in range(-2, 3))
    both = ia & ib
    alike = sum(max(abs(u - v) for u, v in zip(pa[y][x], pb[y][x])) < 80 for x, y in both)
    print('%d %d %.3f %.3f %.3f' % (len(ia), len(ib), sum(near(q, ib) for q in ia) / max(1, len(ia)),
          sum(near(q, ia) for q in ib) / max(1, len(ib)), alike / max(1, len(both))))


def samepix(a, b, x0, y0, w, h, bx=None, by=None):
    x0, y0, w, h = int(float(x0)), int(float(y0)), int(float(w)), int(float(h))
    dx = 0 if bx is None else int(float(bx)) - x0
    dy = 0 if by is None else int(float(by)) - y0
    pa, pb = rgb(a)[2], rgb(b)[2]
    box = [(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)]
    ink = sum(pa[y][x] != (255, 255, 255) for x, y in box)
    same = sum(pa[y][x] == pb[y + dy][x + dx] for x, y in box)
    print('%d %d %.4f' % (len(box), ink, same / max(1, len(box))))


def svg(path):
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    print(len(root.findall('.//{http://www.w3.org/2000/svg}path')))


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    {'lower': lower, 'bars': bars, 'same': same, 'ripbars': ripbars, 'cocycle': cocycle,
     'circle': circle, 'periodic': periodic, 'iid': iid,
     'random': randmatrix, 'sphere': sphere, 'enclosing': enclosing, 'circerr': circerr, 'rotinv': rotinv,
     'shuffle': shuffle, 'png': png, 'svg': svg, 'blends': blends,
     'inkmatch': inkmatch, 'samepix': samepix}[cmd](*args)
