/* spiralfig.c: the spiral's page (plotspiral): the title and what is
 * drawn how above, the spiral's square in the plot area, its legend or
 * colour key to the right of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reftrace.h"
#include "draw.h"

void
rt_spiral_page_free(struct rt_spiral_page *pg)
{
	size_t i;

	for (i = 0; i < pg->rows; i++)
		free(pg->legend[i]);
	free(pg->legend);
	free(pg->legendrgb);
	pg->legend = NULL;
	pg->legendrgb = NULL;
	pg->rows = 0;
}

int
rt_spiral_place(struct rt_spiral_page *pg, struct rt_spiral *s, const struct rt_layer *lay)
{
	double keyw = 0, side;
	char buf[300];
	size_t i;

	pg->rows = pg->key == RT_SPKEY_LEGEND ? pg->ncat : 0;
	if ((pg->legend = calloc(pg->rows + 1, sizeof *pg->legend)) == NULL ||
	    (pg->legendrgb = calloc(pg->rows + 1, sizeof *pg->legendrgb)) == NULL) {
		pg->rows = 0;
		rt_spiral_page_free(pg);
		return RT_ENOMEM;
	}
	for (i = 0; i < pg->rows; i++) {
		snprintf(buf, sizeof buf, "%s (%zu)", pg->names[i], pg->counts[i]);
		if ((pg->legend[i] = strdup(buf)) == NULL) {
			pg->rows = i;
			rt_spiral_page_free(pg);
			return RT_ENOMEM;
		}
		memcpy(pg->legendrgb[i], lay[i].rgb, 3);
	}
	if (pg->rows)
		keyw = rt_legend_width(pg->what, (const char *const *)pg->legend, pg->rows);
	else if (pg->key != RT_SPKEY_NONE)
		keyw = 80;
	rt_plot_layout(&pg->area, pg->w, pg->h, keyw, 2);
	pg->area.x = pg->margin;	/* no axes to the left: the spiral is polar */
	pg->area.y = pg->margin > pg->area.y ? pg->margin : pg->area.y;
	pg->area.w = pg->area.keyx - 16 - pg->area.x;
	pg->area.h = pg->h - pg->margin - pg->area.y;
	side = pg->area.w < pg->area.h ? pg->area.w : pg->area.h;
	if (side < 20)
		return 1;
	s->w = s->h = side;
	s->x = pg->area.x + (pg->area.w - side) / 2;
	s->y = pg->area.y + (pg->area.h - side) / 2;
	return 0;
}

struct rt_fig *
rt_spiral_figure(const struct rt_spiral_page *pg, const struct rt_spiral *s,
    const struct rt_layer *lay, size_t nlay)
{
	char sub[2][200];
	const char *subp[3] = { sub[0], sub[1], pg->note };
	struct rt_fig *f = rt_fig_new(pg->w, pg->h);
	double keyh = pg->area.h < 300 ? pg->area.h : 300;

	if (f == NULL)
		return NULL;
	if (s->circle)
		snprintf(sub[0], sizeof sub[0], "%zu points at angle theta%zu; on the circle the "
		    "cycle, inside it before (%zu), outside after (%zu)", s->n, s->from + 1,
		    s->npre, s->npost);
	else
		snprintf(sub[0], sizeof sub[0], "%zu points at angle theta%zu (turns); "
		    "time runs outwards, from the centre to the rim", s->n, s->from + 1);
	snprintf(sub[1], sizeof sub[1], "colour: %s", pg->what);
	rt_plot_title(f, pg->w, pg->title, subp, pg->note ? 3 : 2);
	if (lay != NULL)
		rt_fig_layers(f, lay, nlay);
	if (pg->rows)
		rt_legend(f, pg->area.keyx, pg->area.y, pg->h - pg->area.y - 8, pg->what,
		    (const char *const *)pg->legend, (const unsigned char (*)[3])pg->legendrgb,
		    pg->rows);
	else if (pg->key == RT_SPKEY_RAMP)
		rt_key_ramp(f, pg->area.keyx, pg->area.y, keyh, pg->lo, pg->hi, RT_AX_NUM,
		    pg->label, rt_colour_ramp);
	else if (pg->key != RT_SPKEY_NONE)
		rt_key_ramp(f, pg->area.keyx, pg->area.y, keyh, 0, 1, RT_AX_NUM, "turns",
		    rt_colour_cyclic);
	return f;
}

int
rt_spiral_anim(FILE *f, const struct rt_spiral_page *pg, struct rt_spiral *s,
    struct rt_layer *lay, size_t nlay, int nfr, const char *style)
{
	struct rt_fig *fig = rt_spiral_figure(pg, s, NULL, 0);
	int k, m = nfr + 1, rc = -1;

	if (fig == NULL)
		return RT_ENOMEM;
	rt_svg_head(f, pg->w, pg->h, style);
	if (rt_fig_svg_body(fig, f))
		goto out;
	for (k = 0; k < m; k++) {
		if (rt_spiral_build(s, lay, nlay, (double)k / nfr)) {
			rc = RT_ENOMEM;
			goto out;
		}
		fprintf(f, "<g visibility=\"%s\"><animate attributeName=\"visibility\" "
		    "calcMode=\"discrete\" dur=\"%.2fs\" repeatCount=\"indefinite\" ",
		    k ? "hidden" : "visible", 0.15 * m);
		if (k == 0)
			fprintf(f, "values=\"visible;hidden\" keyTimes=\"0;%.6f\"/>\n", 1.0 / m);
		else if (k == m - 1)
			fprintf(f, "values=\"hidden;visible\" keyTimes=\"0;%.6f\"/>\n", (double)k / m);
		else
			fprintf(f, "values=\"hidden;visible;hidden\" keyTimes=\"0;%.6f;%.6f\"/>\n",
			    (double)k / m, (double)(k + 1) / m);
		rt_svg_layers(f, lay, nlay, " ");
		fprintf(f, "</g>\n");
	}
	rt_svg_end(f);
	rc = 0;
out:
	rt_fig_free(fig);
	return rc;
}
