# hotsweep.awk: 1.1 M text records (5 blocks of a binary trace), a hot
# set of 3000 words and a sweep, so that reuses reach across the edges of
# a trace's time slices (t/1415, t/1416).
BEGIN {
	srand(17)
	for (i = 0; i < 1100000; i++) {
		a = rand() < 0.7 ? int(rand() * 3000) * 8 : int(i / 3) * 8
		printf "%s 0x%x %d\n", rand() < 0.2 ? "M" : "R", a, rand() < 0.05 ? 16 : 8
	}
}
