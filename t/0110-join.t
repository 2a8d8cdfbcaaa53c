#!/bin/sh
# The similarity join against all pairs, compiled by make check.
exec "$(dirname "$0")/unit/join"
