#!/bin/sh
# Unit tests of the library, compiled by make check.
exec "$(dirname "$0")/unit/lib"
