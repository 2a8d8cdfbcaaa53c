/* crc.c: zlib's CRC-32 (crc32) of the binary trace's blocks, by
 * carry-less multiplication where the processor has it: zlib's tables
 * cost about 4 instructions a byte, and a flat block's record is 12 to 60
 * bytes.  Folding by 4 x 128 bits, then Barrett's reduction, as Gopal et
 * al., "Fast CRC computation for generic polynomials using PCLMULQDQ"
 * (Intel, 2009); the constants are those of Linux's crc32-pclmul_asm.S. */
#include <zlib.h>

#include "rtb.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define LD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
/* x folded by k over 128 bits onto y */
#define FOLD(x, k, y) _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), \
	_mm_clmulepi64_si128(x, k, 0x11)), y)

/* The CRC register (not inverted) after the n bytes at p: n >= 64, a
 * multiple of 16. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
fold(uint32_t crc, const unsigned char *p, size_t n)
{
	const __m128i k12 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i k34 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i pu = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	const __m128i m32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x1 = _mm_xor_si128(LD(p), _mm_cvtsi32_si128((int)crc));
	__m128i x2 = LD(p + 16), x3 = LD(p + 32), x4 = LD(p + 48), t;

	for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
		x1 = FOLD(x1, k12, LD(p));
		x2 = FOLD(x2, k12, LD(p + 16));
		x3 = FOLD(x3, k12, LD(p + 32));
		x4 = FOLD(x4, k12, LD(p + 48));
	}
	x1 = FOLD(x1, k34, x2);
	x1 = FOLD(x1, k34, x3);
	x1 = FOLD(x1, k34, x4);
	for (; n >= 16; p += 16, n -= 16)
		x1 = FOLD(x1, k34, LD(p));
	/* 128 bits to 64, to 32 (with 32 zero bits), then Barrett */
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(k34, x1, 0x01));
	t = _mm_srli_si128(x1, 4);
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, m32), k5, 0x00), t);
	t = x1;
	x1 = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, m32), pu, 0x10), m32);
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, pu, 0x00), t);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

uint32_t
rt_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	size_t m = n & ~(size_t)15;

	if (m >= 64 && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
		crc = ~fold(~crc, p, m);
		p += m;
		n -= m;
	}
	return (uint32_t)crc32(crc, p, (uInt)n);
}
#else
uint32_t
rt_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	return (uint32_t)crc32(crc, p, (uInt)n);
}
#endif
