/* reusedist: reuse (LRU stack) distances, histograms and miss-ratio curves. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reftrace.h"
#include "cache.h"
#include "util.h"

enum { OUT_HIST, OUT_EXACT, OUT_MRC, OUT_RECORDS, OUT_GROUPS, OUT_WINDOW, OUT_SUMMARY };
enum { G_LOC, G_FUNC, G_REGION };

static uint64_t Bflag = 64;
static int Dtime;			/* -D time */
static int out = OUT_HIST;
static int gflag;
static uint64_t wflag;
static double Hflag = 1;
static uint64_t Nflag;			/* fixed-size sample: blocks */
static uint64_t Pk, Pn;
static uint64_t Sflag = 1;
static int Mflag, kflag, Iflag = RT_FMT_AUTO;
static const char *oflag;

static FILE *fo;
static struct rt_reuse *eng;
static struct rt_hist *hist;		/* distance -> weight, RT_COLD too */
static struct rt_regions *regs;
static uint64_t threshold;		/* hash below: sampled */
static double rate = 1;			/* the sampling rate now */
static uint64_t naccess;		/* every block access seen */
static double nsampled;			/* sampled accesses, in sample units */

/* fixed-size sampling: a max-heap of the sampled blocks' hashes */
static struct hb { uint64_t h, block; } *heap;
static size_t nheap;

/* block accesses queued so that the table is prefetched ahead of them */
struct pend { uint64_t seq, addr, block, h; uint32_t loc, var; };
#define NPEND 64
#define AHEAD 8
static struct pend pend[NPEND];
static int npend;

/* per-group statistics (Welford) and the running window */
struct acc { uint64_t n, cold; double mean, m2; };
static struct acc *groups;
static size_t ngroups;
static struct acc win;
static uint64_t winseq, lastseq, followed;

enum { O_EXACT = U_LONG };
static const struct u_opt opts[] = {
	{ 'A', "summary", NULL, "a summary for people, not the table" },
	{ 'B', "block", "bytes", "block size (64)" },
	{ 'C', "mrc", NULL, "the miss-ratio curve of fully associative LRU" },
	{ 'D', "distance", "kind", "reuse (distinct blocks between) or time (accesses)" },
	{ 'd', "records", NULL, "a line per access: its distance" },
	{ 'g', "by", "key", "distance statistics by loc, func or region" },
	{ 'H', "hash", "rate", "spatial sample (SHARDS) at this rate" },
	U_OPT_TRACE,
	U_OPT_KEEP,
	{ 'M', "merge", NULL, "merge the histograms named (of samples or partitions)" },
	{ 'N', "reservoir", "blocks", "spatial sample of at most this many blocks" },
	U_OPT_OUTPUT,
	{ 'P', "partition", "k/n", "the blocks of partition k of n, as a sample" },
	{ 'S', "seed", "seed", "seed of the hash (1)" },
	{ 'w', "window", "n", "the mean distance over every n accesses" },
	{ O_EXACT, "exact", NULL, "a histogram bin per distance, not log2 bins" },
	{ 0 }
};
static const struct u_prog prog = { "reusedist", "[file ...]", opts,
    "-M [-C] [--exact] [-B bytes] [-o file] histogram ..." };

static void
acc_add(struct acc *a, uint64_t d)
{
	double delta;

	a->n++;
	if (d == RT_COLD) {
		a->cold++;
		return;
	}
	delta = (double)d - a->mean;
	a->mean += delta / (double)(a->n - a->cold);
	a->m2 += delta * ((double)d - a->mean);
}

static uint32_t
groupof(const struct pend *p)
{
	switch (gflag) {
	case G_LOC:
		return p->loc;
	case G_FUNC:
		return rt_loc_get(p->loc)->func;
	default:
		return p->var ? p->var : rt_regions_find(regs, p->addr);
	}
}

static void
group_add(uint32_t g, uint64_t d)
{
	size_t n;

	if (g >= ngroups) {
		n = ngroups ? ngroups : 64;
		while (n <= g)
			n *= 2;
		if ((groups = realloc(groups, n * sizeof *groups)) == NULL)
			u_die(1, "out of memory");
		memset(groups + ngroups, 0, (n - ngroups) * sizeof *groups);
		ngroups = n;
	}
	acc_add(&groups[g], d);
}

static void count_flush(void);

static void
heap_push(uint64_t h, uint64_t block)
{
	size_t i = nheap++, p;

	while (i > 0 && heap[p = (i - 1) / 2].h < h) {
		heap[i] = heap[p];
		i = p;
	}
	heap[i].h = h;
	heap[i].block = block;
}

static struct hb
heap_pop(void)
{
	struct hb top = heap[0], last = heap[--nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < nheap) {
		if (c + 1 < nheap && heap[c + 1].h > heap[c].h)
			c++;
		if (heap[c].h <= last.h)
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = last;
	return top;
}

/* SHARDS with a fixed number of blocks (Waldspurger et al., FAST 2015,
 * section 4.2): past the limit, the block of largest hash leaves, the
 * threshold drops to its hash, and the counts so far are rescaled to the
 * new rate. */
static void
shrink(void)
{
	struct hb top;
	double nrate;

	count_flush();	/* counts so far belong to the old rate */
	while (nheap > Nflag) {
		top = heap_pop();
		rt_reuse_remove(eng, top.block);
		threshold = top.h;
		while (nheap > 0 && heap[0].h == threshold)	/* equal hashes go too */
			rt_reuse_remove(eng, heap_pop().block);
		nrate = (double)threshold * 0x1p-64;
		rt_hist_scale(hist, nrate / rate);
		nsampled *= nrate / rate;
		rate = nrate;
	}
}

/* Histogram counts land AHEAD accesses late, their buckets prefetched
 * meanwhile: a random distance is a cache miss in a large histogram. */
static uint64_t late[AHEAD];
static unsigned nlate;

static void
count(uint64_t key)
{
	uint64_t k = late[nlate % AHEAD];

	if (nlate >= AHEAD && rt_hist_add(hist, k, 1))
		u_die(1, "out of memory");
	late[nlate++ % AHEAD] = key;
	rt_hist_prefetch(hist, key);
}

static void
count_flush(void)
{
	unsigned i, n = nlate < AHEAD ? nlate : AHEAD;

	for (i = 0; i < n; i++)
		if (rt_hist_add(hist, late[(nlate - n + i) % AHEAD], 1))
			u_die(1, "out of memory");
	nlate = 0;
}

static void
record(const struct pend *rec, uint64_t block, uint64_t d)
{
	uint64_t key = d == RT_COLD ? RT_COLD : (uint64_t)llround((double)d / rate);

	nsampled += 1;
	count(key);
	switch (out) {
	case OUT_RECORDS:
		if (d == RT_COLD)
			fprintf(fo, "%llu %llu -\n", (unsigned long long)rec->seq,
			    (unsigned long long)block);
		else
			fprintf(fo, "%llu %llu %llu\n", (unsigned long long)rec->seq,
			    (unsigned long long)block, (unsigned long long)key);
		break;
	case OUT_GROUPS:
		group_add(groupof(rec), key);
		break;
	case OUT_WINDOW:
		acc_add(&win, key);
		break;
	}
}

static void
window_flush(uint64_t seq)
{
	if (win.n == 0)
		return;
	if (win.n == win.cold)
		fprintf(fo, "%llu %llu %llu -\n", (unsigned long long)seq,
		    (unsigned long long)win.n, (unsigned long long)win.cold);
	else
		fprintf(fo, "%llu %llu %llu %.3f\n", (unsigned long long)seq,
		    (unsigned long long)win.n, (unsigned long long)win.cold, win.mean);
	memset(&win, 0, sizeof win);
}

static void
access1(const struct pend *p)
{
	uint64_t h = p->h, d, td;

	if (h >= threshold && threshold != UINT64_MAX)
		return;	/* the threshold fell since it was queued */
	if (rt_reuse_access(eng, p->block, &d, &td))
		u_die(1, "out of memory at %llu distinct blocks",
		    (unsigned long long)rt_reuse_blocks(eng));
	if (Nflag && d == RT_COLD) {
		heap_push(h, p->block);
		if (nheap > Nflag) {
			shrink();
			if (h >= threshold)
				return;	/* this very block left */
		}
	}
	record(p, p->block, Dtime ? td : d);
	if (out == OUT_WINDOW && ++followed - winseq >= wflag) {
		window_flush(p->seq);
		winseq = followed;
	}
}

static void
drain(void)
{
	int i;

	for (i = 0; i < npend; i++) {
		if (i + AHEAD < npend)
			rt_reuse_prefetch(eng, pend[i + AHEAD].block);
		if (i + AHEAD / 2 < npend)
			rt_reuse_prefetch2(eng, pend[i + AHEAD / 2].block);
		access1(&pend[i]);
	}
	npend = 0;
}

static int
item(void *ctx, struct rt_rec *rec)
{
	uint64_t b, first, last;
	struct pend *p;

	(void)ctx;
	if (rec->kind != RT_ACCESS) {
		drain();	/* regions apply from here on */
		if (rec->kind == RT_REGION && rt_regions_add(regs, rec))
			u_die(1, "out of memory");
		return 0;
	}
	lastseq = rec->seq;
	first = rec->addr / Bflag;
	last = (rec->addr + (rec->size ? rec->size - 1 : 0)) / Bflag;
	for (b = first; b <= last; b++) {	/* every block it covers */
		uint64_t h = 0;

		naccess++;
		if (Pn && b % Pn != Pk)
			continue;
		if (threshold != UINT64_MAX && (h = rt_hash64(b ^ Sflag)) >= threshold)
			continue;	/* not sampled: nothing to queue */
		if (npend == NPEND)
			drain();
		p = &pend[npend++];
		p->h = h;
		p->seq = rec->seq;
		p->addr = rec->addr;
		p->block = b;
		p->loc = rec->loc;
		p->var = rec->var;
		if (npend <= AHEAD)
			rt_reuse_prefetch(eng, b);
	}
	return 0;
}

/* The histogram in full-trace units: SHARDS_adj puts the difference
 * between the expected and the actual sample count at distance 0, then
 * weights are scaled by 1/rate. */
static struct rt_bin *
finish(size_t *n, double *total)
{
	double expect = (double)naccess * rate;

	if (rate < 1 && rt_hist_add(hist, 0, expect - nsampled))
		u_die(1, "out of memory");
	if (rate < 1)
		rt_hist_scale(hist, 1 / rate);
	*total = 0;
	{
		struct rt_bin *v = rt_hist_sorted(hist, n);
		size_t i;

		if (v == NULL)
			u_die(1, "out of memory");
		for (i = 0; i < *n; i++) {
			if (v[i].w < 0)	/* a short sample can overshoot */
				v[i].w = 0;
			*total += v[i].w;
		}
		return v;
	}
}

static void
header(const char *kind, const char *cols, double total)
{
	fprintf(fo, "#reftrace %s 1 %s\n", kind, cols);
	fprintf(fo, "#block %llu\n#accesses %.0f\n#rate %.17g\n",
	    (unsigned long long)Bflag, total, rate);
}

static void
write_hist(struct rt_bin *v, size_t n, double total, int exact)
{
	double cum = 0, c;
	size_t i = 0;
	uint64_t lo, hi;

	header("hist", "lo hi count fraction cumulative", total);
	while (i < n && v[i].key != RT_COLD) {
		lo = v[i].key;
		hi = lo;
		if (!exact && lo > 0) {	/* log2 bins: [2^(k-1), 2^k - 1] */
			int k = 64 - __builtin_clzll(lo);

			lo = 1ULL << (k - 1);
			hi = k == 64 ? UINT64_MAX : (1ULL << k) - 1;
		}
		for (c = 0; i < n && v[i].key != RT_COLD && v[i].key <= hi; i++)
			c += v[i].w;
		cum += c;
		fprintf(fo, "%llu %llu %.17g %.6g %.6g\n", (unsigned long long)lo,
		    (unsigned long long)hi, c, total ? c / total : 0, total ? cum / total : 0);
	}
	if (i < n)
		fprintf(fo, "cold cold %.17g %.6g 1\n", v[i].w, total ? v[i].w / total : 0);
}

/* A fully associative LRU cache of C blocks misses on the cold accesses
 * and on every distance >= C (Mattson et al., 1970). */
static void
write_mrc(struct rt_bin *v, size_t n, double total)
{
	double miss = 0;
	size_t i;

	header("mrc", "blocks bytes misses ratio", total);
	for (i = 0; i < n; i++)
		miss += v[i].w;
	fprintf(fo, "0 0 %.17g %.6g\n", miss, total ? miss / total : 0);
	for (i = 0; i < n && v[i].key != RT_COLD; i++) {
		miss -= v[i].w;
		if (i + 1 < n && v[i + 1].key == v[i].key)
			continue;
		fprintf(fo, "%llu %llu %.17g %.6g\n", (unsigned long long)v[i].key + 1,
		    (unsigned long long)(v[i].key + 1) * Bflag, fabs(miss) < 1e-9 ? 0 : miss,
		    total ? (fabs(miss) < 1e-9 ? 0 : miss) / total : 0);
	}
}

static void
write_groups(void)
{
	size_t g;
	const struct rt_loc *l;
	const char *kind = gflag == G_LOC ? "loc" : gflag == G_FUNC ? "func" : "region";
	double sd;

	fprintf(fo, "#reftrace reuse-by-%s 1 %s count cold mean sd\n", kind, kind);
	for (g = 0; g < ngroups; g++) {
		struct acc *a = &groups[g];

		if (a->n == 0)
			continue;
		if (gflag == G_LOC) {
			l = rt_loc_get((uint32_t)g);
			if (l->file || l->line)
				fprintf(fo, "%s:%u", *rt_str(l->file) ? rt_str(l->file) : "?", l->line);
			else if (l->func)
				fprintf(fo, "%s", rt_str(l->func));
			else
				fputc('-', fo);
		} else
			fprintf(fo, "%s", g ? rt_str((uint32_t)g) : "-");
		fprintf(fo, " %llu %llu", (unsigned long long)a->n, (unsigned long long)a->cold);
		if (a->n == a->cold)
			fprintf(fo, " - -\n");
		else {
			sd = a->n - a->cold > 1 ? sqrt(a->m2 / (double)(a->n - a->cold - 1)) : 0;
			fprintf(fo, " %.3f %.3f\n", a->mean, sd);
		}
	}
}

static void
write_summary(struct rt_bin *v, size_t n, double total)
{
	static const uint64_t sizes[] = { 32 << 10, 256 << 10, 8 << 20 };
	double cold = 0, sum = 0, fin = 0, miss, med = -1, run = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (v[i].key == RT_COLD)
			cold = v[i].w;
		else {
			sum += v[i].w * (double)v[i].key;
			fin += v[i].w;
		}
	}
	for (i = 0; i < n && v[i].key != RT_COLD && med < 0; i++)
		if ((run += v[i].w) >= fin / 2)
			med = (double)v[i].key;
	fprintf(fo, "accesses            %.0f (%llu-byte blocks)%s\n", total,
	    (unsigned long long)Bflag, rate < 1 ? ", estimated from a sample" : "");
	fprintf(fo, "distinct blocks     %.0f (cold accesses)\n", cold);
	if (fin > 0)
		fprintf(fo, "%s distance   mean %.1f, median %.0f\n",
		    Dtime ? "time " : "reuse", sum / fin, med);
	if (Dtime)
		return;
	for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
		uint64_t c = sizes[j] / Bflag;

		for (miss = cold, i = 0; i < n; i++)
			if (v[i].key != RT_COLD && v[i].key >= c)
				miss += v[i].w;
		fprintf(fo, "LRU %5lluK fully associative: miss ratio %.4f\n",
		    (unsigned long long)(sizes[j] >> 10), total ? miss / total : 0);
	}
}

/* -M: histograms of samples or partitions, weighted by their rates. */
static void
merge(char **files, int n)
{
	char line[512], *f;
	double r, sumr = 0, total = 0, c;
	unsigned long long lo, hi, blk;
	int i, ln;
	FILE *in;

	for (i = 0; i < n; i++) {
		f = files[i];
		if ((in = strcmp(f, "-") == 0 ? stdin : fopen(f, "r")) == NULL) {
			u_warn("%s:", f);
			u_status = 1;
			continue;
		}
		r = 1;
		blk = Bflag;
		for (ln = 1; fgets(line, sizeof line, in) != NULL; ln++) {
			if (ln == 1 && strncmp(line, "#reftrace hist 1 ", 17) != 0) {
				u_warn("%s:1: not a reusedist histogram", f);
				u_status = 1;
				break;
			}
			if (line[0] == '#') {
				sscanf(line, "#rate %lf", &r);
				if (sscanf(line, "#block %llu", &blk) == 1 && blk != Bflag)
					u_die(1, "%s: %llu-byte blocks, not %llu (-B)", f, blk,
					    (unsigned long long)Bflag);
				continue;
			}
			if (sscanf(line, "%llu %llu %lf", &lo, &hi, &c) == 3) {
				if (lo != hi)
					u_die(1, "%s:%d: log2 bins do not merge: write "
					    "histograms with --exact", f, ln);
				rt_hist_add(hist, lo, c * r);
			} else if (sscanf(line, "cold cold %lf", &c) == 1)
				rt_hist_add(hist, RT_COLD, c * r);
			else {
				u_warn("%s:%d: bad histogram line", f, ln);
				u_status = 1;
				break;
			}
		}
		sumr += r;
		if (in != stdin)
			fclose(in);
	}
	if (sumr > 0)
		rt_hist_scale(hist, 1 / sumr);
	{
		size_t nb, k;
		struct rt_bin *v = rt_hist_sorted(hist, &nb);

		for (k = 0; k < nb; k++)
			total += v[k].w;
		rate = 1;
		if (out == OUT_MRC)
			write_mrc(v, nb, total);
		else
			write_hist(v, nb, total, 1);
		free(v);
	}
}

int
main(int argc, char *argv[])
{
	int c, k;
	size_t n;
	double total;
	struct rt_bin *v;

	while ((c = u_getopt(argc, argv, &prog)) != -1) {
		switch (c) {
		case 'A': out = OUT_SUMMARY; break;
		case 'B':
			if (rt_parse_size(optarg, &Bflag) || Bflag == 0)
				u_bad("-B %s: bad block size", optarg);
			break;
		case 'C': out = OUT_MRC; break;
		case 'D':
			if (strcmp(optarg, "time") == 0)
				Dtime = 1;
			else if (strcmp(optarg, "reuse") != 0)
				u_bad("-D %s: want reuse or time", optarg);
			break;
		case 'd': out = OUT_RECORDS; break;
		case 'g':
			out = OUT_GROUPS;
			if (strcmp(optarg, "loc") == 0)
				gflag = G_LOC;
			else if (strcmp(optarg, "func") == 0)
				gflag = G_FUNC;
			else if (strcmp(optarg, "region") == 0)
				gflag = G_REGION;
			else
				u_bad("-g %s: want loc, func or region", optarg);
			break;
		case 'H':
			if (rt_parse_double(optarg, &Hflag) || Hflag <= 0 || Hflag > 1)
				u_bad("-H %s: want a rate in (0, 1]", optarg);
			break;
		case 'I':
			if ((Iflag = rt_fmt_parse(optarg)) < 0)
				u_bad("-I %s: unknown format", optarg);
			break;
		case 'k': kflag = 1; break;
		case 'M': Mflag = 1; break;
		case 'N':
			if (rt_parse_size(optarg, &Nflag) || Nflag == 0)
				u_bad("-N %s: bad sample size", optarg);
			break;
		case 'o': oflag = optarg; break;
		case 'P':
			if (rt_parse_part(optarg, &Pk, &Pn, NULL))
				u_bad("-P %s: want k/n with 0 <= k < n", optarg);
			break;
		case 'S':
			if (rt_parse_u64(optarg, &Sflag))
				u_bad("-S %s: bad seed", optarg);
			break;
		case 'w':
			if (rt_parse_size(optarg, &wflag) || wflag == 0)
				u_bad("-w %s: bad window", optarg);
			out = OUT_WINDOW;
			break;
		case O_EXACT: out = OUT_EXACT; break;
		default: u_usage(&prog);
		}
	}
	argc -= optind;
	argv += optind;
	if (Pn && (Hflag < 1 || Nflag))
		u_bad("-P samples by partition: not with -H or -N");
	if (Mflag && (out != OUT_HIST && out != OUT_EXACT && out != OUT_MRC))
		u_bad("-M writes histograms (--exact) or curves (-C)");
	if (Dtime && (out == OUT_MRC || out == OUT_SUMMARY))
		u_bad("-D time: miss-ratio curves come from reuse distances");
	if (Mflag && argc == 0)
		u_bad("-M: name the histograms to merge");
	fo = u_open(oflag);
	if ((hist = rt_hist_new()) == NULL || (regs = rt_regions_new()) == NULL)
		u_die(1, "out of memory");
	if (Mflag) {
		merge(argv, argc);
		goto done;
	}
	rate = Pn ? 1.0 / (double)Pn : Hflag;	/* a partition is a sample */
	threshold = Hflag >= 1 && !Nflag ? UINT64_MAX : Hflag >= 1 ? UINT64_MAX - 1 :
	    (uint64_t)(Hflag * 0x1p64);
	if (Nflag && (heap = malloc((Nflag + 1) * sizeof *heap)) == NULL)
		u_die(1, "out of memory");
	if ((eng = rt_reuse_new(Dtime)) == NULL)
		u_die(1, "out of memory");
	if (out == OUT_HIST && isatty(fileno(fo)))
		out = OUT_SUMMARY;
	if (out == OUT_RECORDS)
		fprintf(fo, "#reftrace reuse 1 seq block %s\n", Dtime ? "time" : "distance");
	if (out == OUT_WINDOW)
		fprintf(fo, "#reftrace reuse-window 1 seq accesses cold mean\n");
	k = rt_foreach(argv, argc, Iflag, kflag, item, NULL, u_diag);
	if (k)
		u_status = 1;
	drain();
	count_flush();
	if (out == OUT_WINDOW)
		window_flush(lastseq);
	v = finish(&n, &total);
	switch (out) {
	case OUT_HIST: write_hist(v, n, total, 0); break;
	case OUT_EXACT: write_hist(v, n, total, 1); break;
	case OUT_MRC: write_mrc(v, n, total); break;
	case OUT_GROUPS: write_groups(); break;
	case OUT_SUMMARY: write_summary(v, n, total); break;
	}
	free(v);
done:
	u_close(fo, oflag);
	rt_reuse_free(eng);
	rt_hist_free(hist);
	rt_regions_free(regs);
	free(heap);
	free(groups);
	return u_status;
}
