#!/bin/sh
# Unit tests of the loop-model library (lib/loop.h), compiled by make check.
exec "$(dirname "$0")/unit/loop"
