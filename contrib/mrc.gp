# mrc.gp: plot miss-ratio curves written by reusedist -C, as PNG on stdout.
#   gnuplot -e "file='mrc.tsv'" contrib/mrc.gp > mrc.png
#   gnuplot -e "file='a.tsv b.tsv'" contrib/mrc.gp > both.png
if (!exists("file")) file = "mrc.tsv"
set terminal pngcairo size 800,500
set logscale x 2
set format x "%.0b%BB"
set xlabel "cache size (bytes, fully associative LRU)"
set ylabel "miss ratio"
set yrange [0:*]
set grid
set key top right noenhanced
plot for [f in file] f using ($2 > 0 ? $2 : 1/0):4 with steps lw 2 title f
