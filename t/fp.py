# fp.py: a trace's fingerprint, as reftrace(5) defines it, computed apart
# from the library: FNV-1a (64 bits) of the op (1 byte), address and size
# (8 bytes little-endian each) of the accesses among the first 65536 items
# (records and events) of the text trace on standard input.
import sys

EVENTS = ("#mark ", "#region ", "#object ", "#flush ", "#inval ")
OPS = {"R": 0, "W": 1, "M": 2, "I": 3}
h, items = 0xcbf29ce484222325, 0
for line in sys.stdin:
    if items == 65536:
        break
    if line.startswith("#"):
        items += line.startswith(EVENTS)
        continue
    f = line.split()
    items += 1
    for b in bytes([OPS[f[1]]]) + int(f[2], 16).to_bytes(8, "little") + int(f[3]).to_bytes(8, "little"):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
print("%016x" % (h or 1))
