#!/bin/sh
# Slices of a binary trace, concatenated, are the trace (rt_rslice).
exec "$(dirname "$0")/unit/slice"
