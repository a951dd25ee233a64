/* SPDX-License-Identifier: GPL-2.0-only */
/* dat_inflate.h - A v7 trace.dat's compressed blocks inflated with libzstd or zlib, as
 * libtracecmd 1.3.1's zstd and zlib plugins inflate them: the CPU data's chunks (dat_direct.c)
 * and compressed sections (metadata in dat_direct.c, options in dat_layout.c).
 */
#ifndef VPMC_TRACE_DAT_INFLATE_H
#define VPMC_TRACE_DAT_INFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dat_algo { DAT_ALGO_NONE, DAT_ALGO_ZSTD, DAT_ALGO_ZLIB, DAT_ALGO_OTHER };

/**
 * dat_algo_of() - The algorithm of a v7 header's compression name.
 * @name: "zstd", "zlib", "none" or "" (v6), or another libtracecmd may know
 *
 * Return: its algorithm; DAT_ALGO_OTHER for one not inflated here.
 */
enum dat_algo dat_algo_of(const char *name);

/**
 * dat_inflate() - Inflate one block, as libtracecmd's tracecmd_uncompress_chunk() does.
 * @algo: DAT_ALGO_ZSTD or DAT_ALGO_ZLIB
 * @src: the compressed bytes
 * @n: their number
 * @dst: where the inflated bytes go
 * @cap: @dst's size in bytes (what the block inflates to may fall short of the size its
 *       header gives)
 *
 * Return: the bytes inflated, or -1 (corrupt data, more than @cap, another algorithm).
 */
int64_t dat_inflate(enum dat_algo algo, const void *src, size_t n, void *dst, size_t cap);

/**
 * dat_inflate_bound() - What @n bytes of @algo's data can inflate to, at most @claim.
 * @algo: the data's algorithm
 * @src: the compressed bytes
 * @n: their number
 * @claim: the size a header gives, in bytes
 *
 * A buffer this size gets all that dat_inflate() with @claim would write, and a corrupt
 * header's huge size is not allocated (ASan writes shadow memory for each byte of it).
 * Return: zstd: the frames' content sizes or (trace-cmd writes none) their blocks of at most
 * 128 KiB each; zlib: deflate's largest ratio, 1032:1; either at most @claim, in bytes.
 */
uint64_t dat_inflate_bound(enum dat_algo algo, const uint8_t *src, size_t n, uint64_t claim);

/**
 * dat_inflate_section() - A compressed section's data inflated (tracecmd_uncompress_block()).
 * @algo: the file's algorithm
 * @raw: the section's data: compressed size (4 bytes), size inflated (4), the compressed bytes
 * @n: @raw's size in bytes
 * @big_endian: the file's byte order
 * @max: the largest size inflated taken, in bytes
 * @len: set to the size inflated, in bytes
 *
 * Only a block that inflates to exactly the size it gives is taken (libtracecmd reads what
 * inflates; a reader that takes less leaves such a file to libtracecmd).
 * Return: the inflated bytes and a 0 byte after them (free() them), or NULL: the block does not
 * fit @raw, gives more than @max, does not inflate to its size, or no memory.
 */
uint8_t *dat_inflate_section(enum dat_algo algo, const uint8_t *raw, size_t n, bool big_endian,
			     uint64_t max, size_t *len);

#endif
