// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dat.c - libFuzzer target: trace.dat through the layout walk, the direct reader (or
 * libtracecmd) and the importer.
 *
 * What one input cost, and how it is kept small (issue 16):
 * - libtracecmd reads files only: the input goes to one memfd for the whole process, opened by
 *   its /proc path (no disk, nothing to remove at exit);
 * - libtraceevent's parsing of the event formats was most of an input's time, and the same
 *   for every input whose metadata (header_page and header_event, the ftrace and event
 *   formats, byte order, long and page size) the mutation left alone. This target is linked
 *   with --wrap=dat_direct_tep and --wrap=tep_free: the last handles parsed are kept and given
 *   again for the same metadata bytes (what libtraceevent would parse from them);
 * - trace_dat_open()'s isolating probe (a fork, and the formats parsed again in the child)
 *   guards against a crash in libtraceevent or libtracecmd on what they read at open: the
 *   metadata of a direct file, all but the uncompressed pages for libtracecmd (open_key()).
 *   An input whose key (a hash of those bytes) went through the probe once is opened without
 *   it; an input with a new key is opened first in a child that stays (the probe server,
 *   server_opens()), not in a fork per input;
 * - 31 mutations in 32 change only the ring-buffer pages (LLVMFuzzerCustomMutator()):
 *   a metadata mutation costs a parse and a probe, and exercises libtraceevent more than us;
 * - the input's layout is walked once (file_key(), then handed to trace_dat_open(): --wrap=
 *   dat_layout_read), its keys hashed from memory;
 * - scripts/fuzz.sh seeds small files with the few formats the importer reads (bench/mkdat.py
 *   --strip --events), with empty print fmts (--bare: most of libtraceevent's parse, which the
 *   readers do not use), not whole recordings with kallsyms; runs this target without libFuzzer's
 *   leak check per input (libtraceevent leaks at every parse: each would scan the heap;
 *   LeakSanitizer still runs at exit, and make check replays the corpus under it); and without
 *   libFuzzer's RSS thread (-rss_limit_mb=0; -malloc_limit_mb bounds memory instead): a fork
 *   while a second thread holds an allocator lock leaves the probe's child hung in malloc().
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "import.h"
#include "dat.h"
#include "dat_direct.h"
#include "dat_layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
/* libFuzzer's; absent (weak) in the plain test build (tests/fuzz/regress.c), which only runs */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
/* the sanitizers' (weak: the same) */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

#define PROBED_MAX 4096 /* metadata keys remembered (a power of two) */

static char path[64];
static uint64_t cur_meta; /* meta_key() of the input being run, if dat_direct reads it */
static uint64_t probed[PROBED_MAX]; /* keys of metadata the probe passed; 0: empty */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 31);
}

/* The harness's own bookkeeping (keys, the caches) gives no coverage feedback: its edges say
 * what ran before (a cache hit, a key seen), not where an input went in the readers; counted,
 * they made the fuzzer keep inputs for them. (clang: no edges, no trace-cmp calls; not inlined,
 * or the caller's instrumentation, which runs after inlining, would count them again.) */
#ifdef __clang__
#define NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define NO_COVERAGE
#endif

/* A hash of @n bytes of the input (@size bytes at @data) at @pos into @h, 8 at a time; false if
 * they run past its end. (From memory: the file in the memfd is the same bytes.) */
static NO_COVERAGE bool hash_bytes(const uint8_t *data, size_t size, uint64_t pos, uint64_t n,
				   uint64_t *h)
{
	uint64_t w, k;

	if (pos > size || n > size - pos)
		return false;
	data += pos;
	for (k = 0; k + 8 <= n; k += 8) {
		memcpy(&w, data + k, 8);
		*h = mix(*h, w);
	}
	for (; k < n; k++)
		*h = mix(*h, data[k]);
	return true;
}

/* A hash of what libtraceevent parses from @l's file (dat_direct_tep()), never 0; 0 if the
 * metadata cannot be read. */
static NO_COVERAGE uint64_t meta_key(const struct dat_layout *l, const uint8_t *data)
{
	const struct dat_meta *meta[3] = { &l->header_info, &l->ftrace_formats,
					   &l->event_formats };
	uint64_t h = 0;
	unsigned int i;

	h = mix(h, (uint64_t)l->version << 32 | (uint64_t)l->long_size << 8 | l->big_endian);
	h = mix(h, l->page_size);
	for (i = 0; i < sizeof(l->compression) && l->compression[i]; i++)
		h = mix(h, (unsigned char)l->compression[i]);
	for (i = 0; i < 3; i++) {
		h = mix(h, (uint64_t)meta[i]->found << 1 | meta[i]->compressed);
		h = mix(h, meta[i]->size);
		if (meta[i]->found &&
		    !hash_bytes(data, l->file_size, meta[i]->off, meta[i]->size, &h))
			return 0;
	}
	return h | 1;
}

/* The end of the CPU data that covers @pos in @l's file (or @pos, if none does), and in *@next
 * where the next CPU's data after @pos begins (the file's size if none). */
static NO_COVERAGE uint64_t cpu_data_end(const struct dat_layout *l, uint64_t pos, uint64_t *next)
{
	uint64_t end = pos;
	int i;

	*next = l->file_size;
	for (i = 0; i < l->nr_cpus; i++) {
		const struct dat_cpu_data *c = &l->cpu[i];
		uint64_t size = c->file_off < l->file_size ? l->file_size - c->file_off : 0;

		if (c->file_size < size)
			size = c->file_size;
		if (!size || c->file_off + size <= pos)
			continue;
		if (c->file_off <= pos && c->file_off + size > end)
			end = c->file_off + size;
		else if (c->file_off > pos && c->file_off < *next)
			*next = c->file_off;
	}
	return end;
}

/*
 * What libtracecmd reads at tracecmd_open() of @l's file, and may crash on: all of it but its
 * uncompressed ring-buffer pages (compressed CPU data it inflates at open: all of it). Its open
 * reads the first page of each CPU too, but as it reads every later page, in the parent with no
 * probe: after dat_layout_check_pages() has passed each of them (trace_dat_open()). So a
 * mutation of the pages (31 in 32) leaves the key alone and needs no probe.
 * Return: a hash, never 0; 0 if the file cannot be read.
 */
static NO_COVERAGE uint64_t open_key(const struct dat_layout *l, const uint8_t *data)
{
	uint64_t h = mix(0x5a5a, l->file_size), pos = 0, end, next;

	if (l->compressed || !l->nr_cpus)
		return hash_bytes(data, l->file_size, 0, l->file_size, &h) ? h | 1 : 0;
	while (pos < l->file_size) {
		end = cpu_data_end(l, pos, &next);
		if (end > pos) { /* pages: where they are, not what */
			h = mix(mix(h, pos), end);
			pos = end;
			continue;
		}
		if (!hash_bytes(data, l->file_size, pos, next - pos, &h))
			return 0;
		pos = next;
	}
	return h | 1;
}

/* Where the CPU data of @l's file begins (0: it has none). */
static NO_COVERAGE size_t layout_start(const struct dat_layout *l)
{
	uint64_t start = l->file_size;
	int i;

	for (i = 0; i < l->nr_cpus; i++) {
		if (l->cpu[i].file_size && l->cpu[i].file_off < start)
			start = l->cpu[i].file_off;
	}
	return start < l->file_size ? (size_t)start : 0;
}

/*
 * The input's layout, walked once: file_key() walks it, and trace_dat_open()'s walk of the same
 * file takes it over (--wrap=dat_layout_read: a second walk was 3% of the time). Not in the
 * probe server, whose copy is of the input run when it was forked.
 */
static struct {
	bool valid;
	int ret;
	struct dat_layout l;
	struct vpmc__errbuf err;
} walked = { .l.fd = -1 };

int __real_dat_layout_read(struct dat_layout *l, const char *file, struct vpmc__errbuf *err);
int __wrap_dat_layout_read(struct dat_layout *l, const char *file, struct vpmc__errbuf *err);

/* dat_layout_read() of the input being run: the walk file_key() made of it (@l then owns it). */
NO_COVERAGE int __wrap_dat_layout_read(struct dat_layout *l, const char *file,
				       struct vpmc__errbuf *err)
{
	if (!walked.valid || strcmp(file, path))
		return __real_dat_layout_read(l, file, err);
	walked.valid = false;
	*l = walked.l;
	if (walked.ret)
		*err = walked.err;
	return walked.ret;
}

/*
 * The key of the input (@data) in the memfd for the probe: what the parent's trace_dat_open() may
 * crash on (a direct file: its metadata; else what tracecmd_open() reads), or 0 if its layout is
 * refused (trace_dat_open() then fails before it parses anything); *@start: layout_start().
 */
static NO_COVERAGE uint64_t file_key(const uint8_t *data, size_t *start)
{
	struct dat_layout *l = &walked.l;
	uint64_t key = 0;

	if (walked.valid) /* not taken: trace_dat_open() did not run */
		dat_layout_free(l);
	walked.valid = true;
	cur_meta = 0;
	*start = 0;
	walked.ret = __real_dat_layout_read(l, path, &walked.err);
	if (!walked.ret) {
		*start = layout_start(l);
		if (dat_direct_usable(l))
			key = cur_meta = meta_key(l, data);
		else
			key = open_key(l, data);
	}
	return key;
}

/* The tep handles parsed last (the corpus's inputs have a few distinct metadata), by key. */
#define PARSED_MAX 256

static struct {
	uint64_t key;
	struct tep_handle *tep;
} parsed[PARSED_MAX];
static unsigned int parsed_next; /* the entry to replace next */

int __real_dat_direct_tep(const struct dat_layout *l, const char *file, struct tep_handle **out,
			  struct vpmc__errbuf *err);
int __wrap_dat_direct_tep(const struct dat_layout *l, const char *file, struct tep_handle **out,
			  struct vpmc__errbuf *err);
void __real_tep_free(struct tep_handle *tep);
void __wrap_tep_free(struct tep_handle *tep);

/* dat_direct_tep() of the input being run (its layout @l), parsing only new metadata. */
NO_COVERAGE int __wrap_dat_direct_tep(const struct dat_layout *l, const char *file,
				      struct tep_handle **out, struct vpmc__errbuf *err)
{
	unsigned int i;
	int ret;

	for (i = 0; cur_meta && i < PARSED_MAX; i++) {
		if (parsed[i].key == cur_meta) {
			tep_set_cpus(parsed[i].tep, l->nr_cpus); /* from the layout */
			*out = parsed[i].tep;
			return 0;
		}
	}
	ret = __real_dat_direct_tep(l, file, out, err);
	if (ret || !cur_meta)
		return ret;
	i = parsed_next++ % PARSED_MAX;
	__real_tep_free(parsed[i].tep);
	parsed[i].key = cur_meta;
	parsed[i].tep = *out;
	return 0;
}

/* tep_free(), except of the handles kept. */
NO_COVERAGE void __wrap_tep_free(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < PARSED_MAX; i++) {
		if (tep && parsed[i].tep == tep)
			return;
	}
	__real_tep_free(tep);
}

/* No handle parked by the previous input: the memfd is one file for every input, and its
 * times move by the clock's tick, so the next input, of the same size, could pass for it; the
 * handles kept above are given by the metadata's bytes instead. */
struct tep_handle *__wrap_dat_parked_take(int fd);
NO_COVERAGE struct tep_handle *__wrap_dat_parked_take(int fd)
{
	(void)fd;
	return NULL;
}

/* Nor a file the probe passed (dat_checked.c: by device, inode, size and times): on the one
 * memfd, an input of the previous one's size written in the same clock tick would pass for it,
 * and the product would skip the probe the harness asked for (needs_probe()). */
bool __wrap_dat_checked(int fd);
NO_COVERAGE bool __wrap_dat_checked(int fd)
{
	(void)fd;
	return false;
}

static void free_parsed(void)
{
	unsigned int i;

	for (i = 0; i < PARSED_MAX; i++)
		__real_tep_free(parsed[i].tep);
}

/*
 * In the probe's child (a fork of this process): a crash it absorbs (libtraceevent's, in the
 * formats) must not look like ours, so the sanitizers' report no longer calls libFuzzer's death
 * callback, which would write the input as a crash-* artifact of a run that found none.
 */
static void quiet_child(void)
{
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
}

static NO_COVERAGE int input_file(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("vpmc-fuzz-dat", 0);
		if (fd < 0)
			return -1;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		atexit(free_parsed);
		pthread_atfork(NULL, NULL, quiet_child);
	}
	/* over the last input, then cut to its size: no page of the memfd freed and allocated
	 * again (truncating to 0 first took 4% of the time) */
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size))
		return -1;
	return 0;
}

/*
 * libtracecmd 1.3.1 leaves one map per CPU of the file mapped after tracecmd_close() (the map
 * of the page its open reads: the count of its users is one too high at the close; a program
 * that only opens and closes a file leaks them too). vpmcsim opens one file per process; here
 * they are maps of the memfd, two more per input libtracecmd reads (vm.max_map_count: 65530),
 * and each shrinking ftruncate() zaps them all. Nothing maps the memfd once the input is
 * closed: unmap what still does (close_input()).
 */
static NO_COVERAGE void unmap_input(void)
{
	unsigned long lo[16], hi[16];
	char line[512];
	FILE *maps;
	int n, i;

	do {
		maps = fopen("/proc/self/maps", "re");
		if (!maps)
			return;
		for (n = 0; n < 16 && fgets(line, sizeof(line), maps);) {
			if (!strstr(line, "/memfd:vpmc-fuzz-dat") ||
			    sscanf(line, "%lx-%lx", &lo[n], &hi[n]) != 2)
				continue;
			if (n && lo[n] == hi[n - 1]) /* one munmap (a TLB flush each) for both */
				hi[n - 1] = hi[n];
			else
				n++;
		}
		fclose(maps);
		for (i = 0; i < n; i++)
			munmap((void *)lo[i], hi[i] - lo[i]);
	} while (n == 16);
}

/* Inputs libtracecmd may read between two unmap_input() (reading /proc/self/maps after each
 * doubled the system time of a run of the OFFSET seed; a few hundred maps left cost nothing) */
#define UNMAP_EVERY 256

/* trace_dat_close() of @d (NULL: none), and in time what libtracecmd left mapped of inputs. */
static NO_COVERAGE void close_input(struct trace_dat *d)
{
	static unsigned int unswept;

	trace_dat_close(d);
	if (!cur_meta && ++unswept == UNMAP_EVERY) { /* not read by dat_direct */
		unswept = 0;
		unmap_input();
	}
}

/* Whether @key's input went through the probe; with @add, remember that it did. */
static NO_COVERAGE bool probed_key(uint64_t key, bool add)
{
	unsigned int i, slot = (unsigned int)(key >> 40) & (PROBED_MAX - 1);

	for (i = 0; i < PROBED_MAX; i++, slot = (slot + 1) & (PROBED_MAX - 1)) {
		if (probed[slot] == key)
			return true;
		if (!probed[slot])
			break;
	}
	if (!add)
		return false;
	if (i == PROBED_MAX) { /* full: forget them all */
		memset(probed, 0, sizeof(probed));
		slot = (unsigned int)(key >> 40) & (PROBED_MAX - 1);
	}
	probed[slot] = key;
	return true;
}

/*
 * The probe server: a child forked once (again after it crashed, and after SERVER_MAX inputs:
 * libtraceevent leaks at each parse) that opens each input with a new key as the parent will
 * (trace_dat_open() without a probe: a superset of the probe's work), in its own process, and
 * answers if it did not crash. trace_dat_open()'s probe forks per file, which vpmcsim does
 * once per trace; here a fork per new key (3-5% of the inputs) took a third of the CPU: the
 * fork itself, copy-on-write faults in both processes after it, the child's lazy binding. An
 * input the server crashed on goes through trace_dat_open()'s own probe, which absorbs the
 * crash as vpmcsim would (the server's crash writes no artifact: quiet_child()).
 */
#define SERVER_MAX 512

static struct {
	pid_t pid;
	int fd;              /* a socket to it: a byte asks, a byte answers */
	unsigned int served; /* inputs since it was forked */
	bool product_probed; /* the product's probe ran once on an input it passed: its edges */
} server = { -1, -1, 0, false };

static void __attribute__((noreturn)) serve(int fd)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	int null = open("/dev/null", O_RDWR);
	struct vpmc__errbuf err;
	struct trace_dat *d;
	size_t i;
	char c;

	if (null >= 0) { /* libtracecmd prints on both */
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) /* die by it, unreported */
		signal(fatal[i], SIG_DFL);
	cur_meta = 0; /* no tep from the cache (the parent's, copied): parse each file */
	walked.valid = false; /* nor its layout: walk each file */
	while (recv(fd, &c, 1, 0) == 1) {
		if (!trace_dat_open(&d, path, false, &err))
			trace_dat_close(d);
		if (send(fd, "y", 1, MSG_NOSIGNAL) != 1)
			break;
	}
	_exit(0);
}

static NO_COVERAGE void server_stop(void)
{
	if (server.pid < 0)
		return;
	close(server.fd); /* it reads the end, and exits */
	while (waitpid(server.pid, NULL, 0) < 0 && errno == EINTR)
		;
	server.pid = -1;
}

static NO_COVERAGE bool server_start(void)
{
	static bool once;
	int sv[2];

	if (!once) {
		once = true;
		atexit(server_stop); /* its CPU time is counted in ours once reaped */
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return false;
	server.pid = fork();
	if (server.pid == 0) {
		close(sv[0]);
		serve(sv[1]);
	}
	close(sv[1]);
	if (server.pid < 0) {
		close(sv[0]);
		return false;
	}
	server.fd = sv[0];
	server.served = 0;
	return true;
}

/* Whether the input in the memfd opens in the server without a crash. */
static NO_COVERAGE bool server_opens(void)
{
	char c;

	if (server.pid >= 0 && server.served == SERVER_MAX)
		server_stop();
	if (server.pid < 0 && !server_start())
		return false;
	server.served++;
	if (send(server.fd, "p", 1, MSG_NOSIGNAL) == 1 && recv(server.fd, &c, 1, 0) == 1)
		return true;
	server_stop(); /* it crashed */
	return false;
}

/* Whether trace_dat_open() must probe the input in the memfd, whose key is @key (0: none). The
 * first input it passes goes through its probe, so that the probe's own edges count. */
static NO_COVERAGE bool needs_probe(uint64_t key)
{
	if (key && probed_key(key, false))
		return false;
	if (!key || !server.product_probed)
		return true;
	return !server_opens();
}

/* The input run last and layout_start() of it: libFuzzer mutates that input again, four times
 * in five (-mutate_depth=5, until one finds something new). */
static struct {
	uint8_t *data;
	size_t size, cap, start;
} last;

static NO_COVERAGE void keep_last(const uint8_t *data, size_t size, size_t start)
{
	if (size > last.cap) {
		uint8_t *p = realloc(last.data, size);

		if (!p) {
			last.size = 0;
			return;
		}
		last.data = p;
		last.cap = size;
	}
	if (size)
		memcpy(last.data, data, size);
	last.size = size;
	last.start = start;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct trace_import_opts o = {
		.guest_ips = TRACE_IMPORT_DEFAULT_GUEST_IPS,
		.guest_branch_permille = TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE,
		.host_kernel = VPMC_KERNEL_LATEST,
	};
	struct vpmc__errbuf err;
	struct trace_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	struct vpmc_event ev;
	uint64_t key;
	size_t start;
	bool isolate;
	int ret;

	if (input_file(data, size))
		return 0;
	key = file_key(data, &start);
	keep_last(data, size, start);
	isolate = needs_probe(key);
	if (trace_dat_open(&d, path, isolate, &err)) {
		/* the server opened it without a crash, and refused it as here: so will the next
		 * input with its key (a mutation of its pages), without asking the server again.
		 * A direct file only: a libtracecmd file may have been refused for a page
		 * (check_pages(), before libtracecmd opens it), which its key leaves out, and the
		 * next one, its pages mended, opened unprobed (fuzz/crashes/dat/probe-key-*) */
		if (key && !isolate && cur_meta)
			probed_key(key, true);
		close_input(NULL); /* libtracecmd's open failed: it closed what it had */
		return 0;
	}
	if (key)
		probed_key(key, true);
	server.product_probed |= isolate;
	if (trace_import_new(&im, &o)) {
		close_input(d);
		return 0;
	}
	/* on past a CPU that stops early and a record that cannot be read, as the reader does */
	while ((ret = trace_dat_next(d, &r, &err)) > 0) {
		if (ret != 1)
			continue;
		if (trace_import_push(im, &r))
			break;
		while (trace_import_pop(im, &ev) == 1)
			;
	}
	trace_import_finish(im);
	while (trace_import_pop(im, &ev) == 1)
		;
	trace_import_free(im);
	close_input(d);
	return 0;
}

/* Where the CPU data of @data begins (0: unknown): the input run last's, if @data is that input
 * (no layout walk), else from the layout of a copy in the memfd. */
static size_t data_start(const uint8_t *data, size_t size)
{
	struct vpmc__errbuf err;
	struct dat_layout l;
	size_t start = 0;

	if (size && size == last.size && !memcmp(data, last.data, size))
		return last.start;
	l.fd = -1;
	if (!input_file(data, size) && !__real_dat_layout_read(&l, path, &err))
		start = layout_start(&l);
	dat_layout_free(&l);
	return start;
}

/*
 * 31 mutations in 32 change only the ring-buffer pages, in place (the file keeps its size, so
 * every CPU's data stays where the layout says): a mutation of the metadata that the layout
 * walk takes costs a new parse of the formats and a probe (see the top), a fork that took most
 * of the time with one in eight, and exercises libtraceevent more than us. (A file the layout
 * walk refuses has no pages to mutate: all of it is.)
 */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	size_t start = seed % 32 ? data_start(data, size) : 0, n;

	if (!start)
		return LLVMFuzzerMutate(data, size, max_size);
	n = LLVMFuzzerMutate(data + start, size - start, size - start);
	memset(data + start + n, 0, size - start - n);
	return size;
}
