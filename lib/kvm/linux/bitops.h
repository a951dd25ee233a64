/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux/bitops.h - The kernel's bit and bitmap operations, and atomic64_*(), on the one u64
 * that holds each of KVM's X86_PMC_IDX_MAX-bit PMU bitmaps (@nbits is always that). One thread
 * drives a vCPU, so none of them needs to be atomic.
 */
#ifndef VPMC_LINUX_BITOPS_H
#define VPMC_LINUX_BITOPS_H

#include <stdbool.h>
#include <stdint.h>

static inline bool test_bit(int nr, const uint64_t *addr)
{
	return (*addr >> nr) & 1;
}

static inline void set_bit(int nr, uint64_t *addr)
{
	*addr |= 1ULL << nr;
}

static inline void __set_bit(int nr, uint64_t *addr)
{
	*addr |= 1ULL << nr;
}

static inline bool test_and_set_bit(int nr, uint64_t *addr)
{
	bool old = test_bit(nr, addr);

	*addr |= 1ULL << nr;
	return old;
}

static inline bool __test_and_set_bit(int nr, uint64_t *addr)
{
	return test_and_set_bit(nr, addr);
}

static inline void bitmap_copy(uint64_t *dst, const uint64_t *src, unsigned int nbits)
{
	(void)nbits;
	*dst = *src;
}

/* Return: true if the result is not empty. */
static inline bool bitmap_and(uint64_t *dst, const uint64_t *src1, const uint64_t *src2,
			      unsigned int nbits)
{
	(void)nbits;
	*dst = *src1 & *src2;
	return *dst != 0;
}

/* Return: true if the result is not empty. */
static inline bool bitmap_andnot(uint64_t *dst, const uint64_t *src1, const uint64_t *src2,
				 unsigned int nbits)
{
	(void)nbits;
	*dst = *src1 & ~*src2;
	return *dst != 0;
}

static inline bool bitmap_empty(const uint64_t *src, unsigned int nbits)
{
	(void)nbits;
	return !*src;
}

static inline void bitmap_zero(uint64_t *dst, unsigned int nbits)
{
	(void)nbits;
	*dst = 0;
}

/* linux/atomic.h, on a plain u64 */
static inline void atomic64_or(uint64_t i, uint64_t *v)
{
	*v |= i;
}

static inline void atomic64_andnot(uint64_t i, uint64_t *v)
{
	*v &= ~i;
}

static inline void atomic64_set(uint64_t *v, uint64_t i)
{
	*v = i;
}

#endif /* VPMC_LINUX_BITOPS_H */
