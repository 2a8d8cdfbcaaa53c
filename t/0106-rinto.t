#!/bin/sh
# Items decoded into the caller's buffer (rt_rinto) are those decoded into the
# reader's own array, in every format with a queue.
exec "$(dirname "$0")/unit/rinto"
