// bench/gph.cc: giotto-ph's C++ core as a command, for bench/giotto only
// (see its header for the build); not part of reftrace, never built by make.
// It does what gph.ripser_parallel(X, maxdim, thresh, n_threads=t) does with
// a finite threshold: the pairs within it as a sparse (COO) matrix, distances
// in double cast to float (sklearn then .astype(float32)), then the core.
// Reads what ripser reads (point-cloud or lower-distance, numbers split by
// anything else), writes the barcode in ripser's text form.
//   gph [-f point-cloud|lower-distance] [-d dim] [-t thr] [-j threads] [file]
#include <ripser.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

// the numbers of a line, whatever is between them; plain decimals parsed
// here (a 4000-window matrix is 8 M of them), the rest by strtod
template <typename F> static void numbers(const char *s, const char *end, F put)
{
	while (s < end) {
		const char *p = s;
		bool neg = *p == '-';
		p += neg || *p == '+';
		uint64_t m = 0;
		int digits = 0, frac = 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
			m = m * 10 + (*p - '0');
		if (p < end && *p == '.')
			for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++, frac++)
				m = m * 10 + (*p - '0');
		if (!digits) {
			s++;
			continue;
		}
		if (digits > 18 || (p < end && (*p == 'e' || *p == 'E'))) {
			char *e;
			put(strtod(s, &e));
			s = e;
			continue;
		}
		static const double ten[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
		    1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
		double x = (double)m / ten[frac];
		put(neg ? -x : x);
		s = p;
	}
}

int main(int argc, char **argv)
{
	const char *fmt = "point-cloud";
	int dim = 1, threads = 1, c;
	double thr = INFINITY;
	while ((c = getopt(argc, argv, "f:d:t:j:")) != -1)
		switch (c) {
		case 'f': fmt = optarg; break;
		case 'd': dim = atoi(optarg); break;
		case 't': thr = atof(optarg); break;
		case 'j': threads = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: gph [-f point-cloud|lower-distance] [-d dim] [-t thr] [-j threads] [file]\n");
			return 2;
		}
	std::ifstream file;
	if (optind < argc) {
		file.open(argv[optind]);
		if (!file) {
			fprintf(stderr, "gph: %s: cannot open\n", argv[optind]);
			return 1;
		}
	}
	std::istream &in = optind < argc ? file : std::cin;
	auto t0 = std::chrono::steady_clock::now();
	std::vector<index_t> I, J;
	std::vector<value_t> V;
	index_t n = 0;
	std::string line;
	if (!strcmp(fmt, "point-cloud")) {
		std::vector<std::vector<double>> pts;
		while (std::getline(in, line)) {
			std::vector<double> v;
			numbers(line.data(), line.data() + line.size(),
			    [&](double x) { v.push_back(x); });
			if (!v.empty())
				pts.push_back(v);
		}
		n = pts.size();
		for (index_t i = 0; i < n; i++)
			for (index_t j = i + 1; j < n; j++) {
				double s = 0;
				for (size_t k = 0; k < pts[i].size(); k++) {
					double d = pts[i][k] - pts[j][k];
					s += d * d;
				}
				value_t d = (value_t)std::sqrt(s);
				if (d <= thr)
					I.push_back(i), J.push_back(j), V.push_back(d);
			}
	} else if (!strcmp(fmt, "lower-distance")) {
		std::vector<char> text(1 << 20);
		size_t len = 0;
		while (in.read(text.data() + len, text.size() - len), len += in.gcount(), in)
			text.resize(2 * text.size());
		// row i holds d(i, 0) ... d(i, i - 1), rows from 1
		index_t i = 1, j = 0;
		numbers(text.data(), text.data() + len, [&](double x) {
			if ((value_t)x <= thr)
				I.push_back(j), J.push_back(i), V.push_back((value_t)x);
			if (++j == i)
				i++, j = 0;
		});
		n = j ? i + 1 : i;
	} else {
		fprintf(stderr, "gph: %s: not a format (point-cloud, lower-distance)\n", fmt);
		return 2;
	}
	auto t1 = std::chrono::steady_clock::now();
	ripserResults res;
	{
		ripser<sparse_distance_matrix> r(
		    sparse_distance_matrix(I.data(), J.data(), V.data(), (int)I.size(),
		                           (int)n, (value_t)thr),
		    dim, (value_t)thr, 2, threads, false);
		r.compute_barcodes();
		r.copy_results(res);
	}
	auto t2 = std::chrono::steady_clock::now();
	for (int d = 0; d <= dim; d++) {
		printf("persistence intervals in dim %d:\n", d);
		const auto &b = res.births_and_deaths_by_dim[d];
		for (size_t i = 0; i + 1 < b.size(); i += 2)
			if (std::isinf(b[i + 1]))
				printf(" [%.9g, )\n", b[i]);
			else
				printf(" [%.9g,%.9g)\n", b[i], b[i + 1]);
	}
	fprintf(stderr, "gph: %lld points, %zu edges, read and pairs %.3f s, core %.3f s wall\n",
	    (long long)n, I.size(), std::chrono::duration<double>(t1 - t0).count(),
	    std::chrono::duration<double>(t2 - t1).count());
	return fflush(stdout) || ferror(stdout);
}
