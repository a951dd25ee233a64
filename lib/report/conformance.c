// SPDX-License-Identifier: GPL-2.0-only
/* conformance.c - vpmcsim conformance: upstream PMU tests as .vtr scenarios whose "!expect"
 * lines are the tests' own assertions, each run on one modeled vCPU per policy. Only the public
 * API: the reader (with "!expect" events) and vpmc_vcpu_*. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "vpmc.h"

#define CONF_MAX_VCPUS 8     /* scenarios use vCPU 0; a few more are allowed */
#define CONF_MAX_ACCESSES 256 /* distinct (target, index) pairs one scenario touches */
#define CONF_NAME_MAX 96
#define CONF_FAIL_MAX 384

struct conf_result {
	char suite[CONF_NAME_MAX], test[CONF_NAME_MAX], variant[CONF_NAME_MAX];
	char policy[VPMC_POLICY_NAME_MAX];
	bool pass;
	char failure[CONF_FAIL_MAX]; /* "" when passed */
	char later[CONF_NAME_MAX * 2]; /* the messages of the assertions that failed after it */
};

/* The most recent access of one target (enum vpmc_expect_target, index). */
struct conf_access {
	unsigned int target;
	uint32_t index;
	bool gp;
	uint64_t value;
};

/* One scenario under one policy. */
struct conf_run {
	struct vpmc_vcpu *vcpu[CONF_MAX_VCPUS];
	struct conf_access acc[CONF_MAX_ACCESSES];
	unsigned int nr_acc;
	uint64_t pmis;
};

struct vpmc_conformance {
	struct vpmc_policy policies[VPMC_CONFORMANCE_MAX_POLICIES];
	unsigned int nr_policies;
	unsigned int host_kernel;
	int vendor;
	struct conf_result *res;
	size_t nr_res, cap_res;
	struct vpmc__errbuf err;
	char *text;
};

int vpmc_conformance_new(struct vpmc_conformance **out)
{
	struct vpmc_conformance *c = calloc(1, sizeof(*c));

	if (!c)
		return VPMC_ERR_NOMEM;
	c->vendor = -1;
	*out = c;
	return 0;
}

void vpmc_conformance_free(struct vpmc_conformance *c)
{
	if (!c)
		return;
	free(c->res);
	free(c->text);
	free(c);
}

int vpmc_conformance_add_policy(struct vpmc_conformance *c, const struct vpmc_policy *p)
{
	char buf[VPMC_POLICY_NAME_MAX];
	unsigned int i;

	if (c->nr_policies == VPMC_CONFORMANCE_MAX_POLICIES || vpmc_policy_format(p, buf,
										  sizeof(buf)))
		return VPMC_ERR_INVAL;
	for (i = 0; i < c->nr_policies; i++)
		if (c->policies[i].kind == p->kind && c->policies[i].arg == p->arg)
			return VPMC_ERR_INVAL;
	c->policies[c->nr_policies++] = *p;
	return 0;
}

void vpmc_conformance_set_host(struct vpmc_conformance *c, unsigned int host_kernel)
{
	c->host_kernel = host_kernel;
}

void vpmc_conformance_set_vendor(struct vpmc_conformance *c, int vendor)
{
	c->vendor = vendor;
}

const char *vpmc_conformance_error(const struct vpmc_conformance *c)
{
	return c->err.msg;
}

/* ---------------------------------------------------------------------------------------------
 * One run.
 */

static void conf_observe(void *data, const struct vpmc_obs *obs)
{
	struct conf_run *run = data;

	if (obs->kind == VPMC_OBS_PMI && obs->delivered)
		run->pmis++;
}

static struct conf_access *conf_find(struct conf_run *run, unsigned int target, uint32_t index)
{
	unsigned int i;

	for (i = 0; i < run->nr_acc; i++)
		if (run->acc[i].target == target && run->acc[i].index == index)
			return &run->acc[i];
	return NULL;
}

/* Remember an access; Return: 0, or -1 when the table is full. */
static int conf_note(struct conf_run *run, unsigned int target, uint32_t index, int gp,
		     uint64_t value)
{
	struct conf_access *a = conf_find(run, target, index);

	if (!a) {
		if (run->nr_acc == CONF_MAX_ACCESSES)
			return -1;
		a = &run->acc[run->nr_acc++];
		a->target = target;
		a->index = index;
	}
	a->gp = gp == VPMC_GP;
	a->value = gp == VPMC_GP ? 0 : value;
	return 0;
}

/* The accesses an expectation can be about go through the calls that return them. */
static int conf_event(struct conf_run *run, struct vpmc_vcpu *v, const struct vpmc_event *ev)
{
	uint64_t val = 0;
	int gp;

	switch (ev->type) {
	case VPMC_EV_WRMSR:
		gp = vpmc_vcpu_wrmsr(v, ev->time_ns, ev->index, ev->value);
		return conf_note(run, VPMC_EXPECT_WRMSR, ev->index, gp, ev->value);
	case VPMC_EV_RDMSR:
		gp = vpmc_vcpu_rdmsr(v, ev->time_ns, ev->index, &val);
		return conf_note(run, VPMC_EXPECT_RDMSR, ev->index, gp, val);
	case VPMC_EV_RDPMC:
		gp = vpmc_vcpu_rdpmc(v, ev->time_ns, ev->index, &val);
		return conf_note(run, VPMC_EXPECT_RDPMC, ev->index, gp, val);
	default:
		return vpmc_vcpu_event(v, ev) ? -2 : 0;
	}
}

static const char *const target_names[VPMC_EXPECT_TARGET_NR] = {
	"rdmsr", "rdpmc", "wrmsr", "pmis",
};

static const char *const op_names[VPMC_EXPECT_OP_NR] = {
	"==", "!=", "<", "<=", ">", ">=", "==", "!=",
};

/* Whether @got satisfies @ev; @gp: the access raised #GP. */
static bool conf_holds(const struct vpmc_event *ev, bool gp, uint64_t got)
{
	uint64_t want = ev->value;

	if (ev->cpl == VPMC_EXPECT_IS_GP || ev->cpl == VPMC_EXPECT_NOT_GP)
		return gp == (ev->cpl == VPMC_EXPECT_IS_GP);
	if (gp)
		return false;
	got &= ev->br;
	switch (ev->cpl) {
	case VPMC_EXPECT_EQ: return got == want;
	case VPMC_EXPECT_NE: return got != want;
	case VPMC_EXPECT_LT: return got < want;
	case VPMC_EXPECT_LE: return got <= want;
	case VPMC_EXPECT_GT: return got > want;
	default: return got >= want;
	}
}

/* "FILE:LINE: MESSAGE: rdmsr 0x38e & 0x2 == 0x2, got 0x0 (reprogram_counter)" into @buf
 * (@len >= 4). */
static void conf_describe(char *buf, size_t len, const char *where, const struct vpmc_event *ev,
			  bool gp, uint64_t got)
{
	char target[96], want[32], val[32];
	const char *fn = vpmc_expect_decider(ev->vcpu);

	if (ev->insn == VPMC_EXPECT_PMIS)
		snprintf(target, sizeof(target), "pmis");
	else if (ev->br != UINT64_MAX)
		snprintf(target, sizeof(target), "%s 0x%" PRIx32 " & 0x%" PRIx64,
			 target_names[ev->insn], ev->index, ev->br);
	else
		snprintf(target, sizeof(target), "%s 0x%" PRIx32, target_names[ev->insn], ev->index);
	if (ev->cpl >= VPMC_EXPECT_IS_GP)
		snprintf(want, sizeof(want), "GP");
	else
		snprintf(want, sizeof(want), "0x%" PRIx64, ev->value);
	if (gp)
		snprintf(val, sizeof(val), "GP");
	else if (ev->cpl >= VPMC_EXPECT_IS_GP)
		snprintf(val, sizeof(val), "no GP");
	else
		snprintf(val, sizeof(val), "0x%" PRIx64, ev->br == UINT64_MAX ? got : got & ev->br);
	if (snprintf(buf, len, "%s: %s: %s %s %s, got %s (%s)", where, ev->reason, target,
		     op_names[ev->cpl], want, val, fn ? fn : "?") >= (int)len)
		strcpy(buf + len - 4, "..."); /* a long file name: say that it was cut */
}

/* Append @msg to the later failures of @res, as far as it fits. */
static void conf_later(struct conf_result *res, const char *msg)
{
	size_t n = strlen(res->later);

	snprintf(res->later + n, sizeof(res->later) - n, "%s\"%s\"", n ? ", " : "", msg);
}

/* Check one expectation: the first that fails is described in @res, the messages of the
 * later ones listed. Return: 0, or an error. */
static int conf_expect(struct vpmc_conformance *c, struct conf_run *run, struct vpmc_reader *r,
		       const struct vpmc_event *ev, struct conf_result *res)
{
	const struct conf_access *a = NULL;
	char where[256];
	uint64_t got;
	bool gp = false;

	vpmc_reader_where(r, where, sizeof(where));
	if (ev->insn == VPMC_EXPECT_PMIS) {
		got = run->pmis;
	} else {
		a = conf_find(run, (unsigned int)ev->insn, ev->index);
		if (!a)
			return vpmc__set_error(&c->err, VPMC_ERR_PARSE, "%s: !expect %s 0x%" PRIx32
					       ": no such access before it", where,
					       target_names[ev->insn], ev->index);
		got = a->value;
		gp = a->gp;
	}
	if (conf_holds(ev, gp, got))
		return 0;
	if (!res->failure[0])
		conf_describe(res->failure, sizeof(res->failure), where, ev, gp, got);
	else
		conf_later(res, ev->reason);
	return 0;
}

static void conf_run_free(struct conf_run *run)
{
	unsigned int i;

	for (i = 0; i < CONF_MAX_VCPUS; i++)
		vpmc_vcpu_free(run->vcpu[i]);
}

/* The vCPU of @ev, created on first use with @cfg under @p. */
static int conf_vcpu(struct vpmc_conformance *c, struct conf_run *run, const char *where,
		     const struct vpmc_event *ev, const struct vpmc_pmu_config *cfg,
		     const struct vpmc_policy *p, struct vpmc_vcpu **v)
{
	struct vpmc_observer obs = { conf_observe, run, 0 };

	if (ev->vcpu >= CONF_MAX_VCPUS)
		return vpmc__set_error(&c->err, VPMC_ERR_PARSE, "%s: vcpu %" PRIu32 ": a scenario "
				       "has vCPUs 0..%d", where, ev->vcpu, CONF_MAX_VCPUS - 1);
	if (!run->vcpu[ev->vcpu] && vpmc_vcpu_new(&run->vcpu[ev->vcpu], cfg, p, ev->vcpu, &obs))
		return vpmc__set_error(&c->err, VPMC_ERR_NOMEM, "%s: out of memory", where);
	*v = run->vcpu[ev->vcpu];
	return 0;
}

static int conf_open(struct vpmc_conformance *c, struct vpmc_reader **r, const char *name,
		     const void *data, size_t len)
{
	struct vpmc_reader_opts o;
	int err;

	vpmc_reader_opts_default(&o);
	o.format = VPMC_FORMAT_VTR;
	o.expect = true;
	if (vpmc_reader_new(r, &o))
		return vpmc__set_error(&c->err, VPMC_ERR_NOMEM, "out of memory");
	err = data ? vpmc_reader_open_mem(*r, name, data, len) : vpmc_reader_open(*r, name);
	if (err)
		return vpmc__set_error(&c->err, err, "%s", vpmc_reader_error(*r));
	return 0;
}

/* Run @name under @p; the failing expectations into @res (failure "" if all hold). */
static int conf_run_one(struct vpmc_conformance *c, const char *name, const void *data,
			size_t len, const struct vpmc_policy *p, struct conf_result *res)
{
	struct conf_run *run = calloc(1, sizeof(*run));
	struct vpmc_pmu_config cfg;
	struct vpmc_reader *r = NULL;
	struct vpmc_event ev;
	struct vpmc_vcpu *v = NULL;
	char where[256];
	int ret;

	if (!run)
		return vpmc__set_error(&c->err, VPMC_ERR_NOMEM, "out of memory");
	res->failure[0] = res->later[0] = '\0';
	ret = conf_open(c, &r, name, data, len);
	if (ret)
		goto out;
	cfg = *vpmc_reader_pmu(r);
	if (c->host_kernel)
		cfg.host_kernel = c->host_kernel;
	while ((ret = vpmc_reader_next(r, &ev)) == 1) {
		vpmc_reader_where(r, where, sizeof(where));
		if (ev.type == VPMC_EV_EXPECT) {
			ret = conf_expect(c, run, r, &ev, res);
		} else {
			ret = conf_vcpu(c, run, where, &ev, &cfg, p, &v);
			if (!ret && conf_event(run, v, &ev))
				ret = vpmc__set_error(&c->err, VPMC_ERR_PARSE, "%s: more than %d "
						      "registers read or written, or an event "
						      "the model refuses", where,
						      CONF_MAX_ACCESSES);
		}
		if (ret)
			goto out;
	}
	if (ret < 0)
		vpmc__set_error(&c->err, ret, "%s", vpmc_reader_error(r));
out:
	vpmc_reader_free(r);
	conf_run_free(run);
	free(run);
	return ret < 0 ? ret : 0;
}

/* ---------------------------------------------------------------------------------------------
 * Scenarios and results.
 */

/* Copy [@p, @p + @n) into @dst (CONF_NAME_MAX). Return: 0, or -1 if empty or too long. */
static int conf_part(char *dst, const char *p, size_t n)
{
	if (!n || n >= CONF_NAME_MAX)
		return -1;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

/* SUITE/TEST.VARIANT.vtr (the last two components of @name) into @r. */
static int conf_names(struct vpmc_conformance *c, const char *name, struct conf_result *r)
{
	const char *base = strrchr(name, '/'), *suite = name, *dot, *ext;
	size_t n = strlen(name);

	if (!base || n < 4 || strcmp(name + n - 4, ".vtr"))
		goto bad;
	ext = name + n - 4;
	for (suite = base; suite > name && suite[-1] != '/'; suite--)
		;
	base++;
	dot = memchr(base, '.', (size_t)(ext - base));
	if (!dot)
		dot = ext;
	if (conf_part(r->suite, suite, (size_t)(base - 1 - suite)) ||
	    conf_part(r->test, base, (size_t)(dot - base)))
		goto bad;
	if (dot == ext)
		r->variant[0] = '\0';
	else if (conf_part(r->variant, dot + 1, (size_t)(ext - dot - 1)))
		goto bad;
	return 0;
bad:
	return vpmc__set_error(&c->err, VPMC_ERR_INVAL, "%s: expected a scenario named "
			       "SUITE/TEST.VARIANT.vtr", name);
}

static struct conf_result *conf_new_result(struct vpmc_conformance *c)
{
	if (c->nr_res == c->cap_res) {
		size_t cap = c->cap_res ? 2 * c->cap_res : 64;
		struct conf_result *res = realloc(c->res, cap * sizeof(*res));

		if (!res)
			return NULL;
		c->res = res;
		c->cap_res = cap;
	}
	return &c->res[c->nr_res];
}

/* The vendor of scenario @name. Return: 0 or an error. */
static int conf_vendor(struct vpmc_conformance *c, const char *name, const void *data,
		       size_t len, enum vpmc_vendor *vendor)
{
	struct vpmc_reader *r = NULL;
	int ret = conf_open(c, &r, name, data, len);

	if (!ret)
		*vendor = vpmc_reader_pmu(r)->vendor;
	vpmc_reader_free(r);
	return ret;
}

int vpmc_conformance_run(struct vpmc_conformance *c, const char *name, const void *data,
			 size_t len)
{
	struct conf_result names, *r;
	enum vpmc_vendor vendor;
	unsigned int i;
	int ret;

	vpmc__clear_error(&c->err);
	ret = conf_names(c, name, &names);
	if (!ret)
		ret = conf_vendor(c, name, data, len, &vendor);
	if (ret || (c->vendor >= 0 && (int)vendor != c->vendor))
		return ret;
	for (i = 0; i < c->nr_policies; i++) {
		r = conf_new_result(c);
		if (!r)
			return vpmc__set_error(&c->err, VPMC_ERR_NOMEM, "out of memory");
		*r = names;
		vpmc_policy_format(&c->policies[i], r->policy, sizeof(r->policy));
		ret = conf_run_one(c, name, data, len, &c->policies[i], r);
		if (ret)
			return ret;
		r->pass = !r->failure[0];
		c->nr_res++;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Report.
 */

static void conf_count(const struct vpmc_conformance *c, unsigned int pi, size_t *passed,
		       size_t *failed)
{
	char name[VPMC_POLICY_NAME_MAX];
	size_t i;

	vpmc_policy_format(&c->policies[pi], name, sizeof(name));
	*passed = *failed = 0;
	for (i = 0; i < c->nr_res; i++) {
		if (strcmp(c->res[i].policy, name))
			continue;
		if (c->res[i].pass)
			++*passed;
		else
			++*failed;
	}
}

static int width(const struct vpmc_conformance *c, size_t off, int min)
{
	size_t i;
	int w = min, n;

	for (i = 0; i < c->nr_res; i++) {
		n = (int)strlen((const char *)&c->res[i] + off);
		if (n > w)
			w = n;
	}
	return w;
}

static void conf_text(const struct vpmc_conformance *c, FILE *f)
{
	int ws = width(c, offsetof(struct conf_result, suite), 5);
	int wt = width(c, offsetof(struct conf_result, test), 4);
	int wv = width(c, offsetof(struct conf_result, variant), 7);
	int wp = width(c, offsetof(struct conf_result, policy), 6);
	size_t i, passed, failed;
	unsigned int k;

	fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-6s  %s\n", ws, "suite", wt, "test", wv, "variant",
		wp, "policy", "result", "first failure");
	for (i = 0; i < c->nr_res; i++) {
		const struct conf_result *r = &c->res[i];

		fprintf(f, "%-*s  %-*s  %-*s  %-*s  %-6s  %s%s%s%s\n", ws, r->suite, wt, r->test,
			wv, r->variant, wp, r->policy, r->pass ? "pass" : "FAIL", r->failure,
			r->later[0] ? "; later: " : "", r->later, r->later[0] ? " too" : "");
	}
	fputc('\n', f);
	for (k = 0; k < c->nr_policies; k++) {
		char name[VPMC_POLICY_NAME_MAX];

		vpmc_policy_format(&c->policies[k], name, sizeof(name));
		conf_count(c, k, &passed, &failed);
		fprintf(f, "%-*s  %zu passed, %zu failed\n", wp, name, passed, failed);
	}
}

static void conf_csv(const struct vpmc_conformance *c, FILE *f)
{
	size_t i;

	fputs("suite,test,variant,policy,pass,first_failure\n", f);
	for (i = 0; i < c->nr_res; i++) {
		const struct conf_result *r = &c->res[i];

		out_csv_field(f, r->suite);
		fputc(',', f);
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->variant);
		fputc(',', f);
		out_csv_field(f, r->policy);
		fputs(r->pass ? ",true," : ",false,", f);
		out_csv_field(f, r->failure);
		fputc('\n', f);
	}
}

static int conf_json(const struct vpmc_conformance *c, char **text)
{
	json_t *root = json_object(), *res = json_array(), *sum = json_array(), *o;
	size_t i, passed, failed;
	unsigned int k;
	int err = 0;

	if (!root || !res || !sum) {
		json_decref(res);
		json_decref(sum);
		return out_json_finish(root, VPMC_ERR_NOMEM, text);
	}
	out_json_set(root, "results", res, &err);
	out_json_set(root, "summary", sum, &err);
	for (i = 0; !err && i < c->nr_res; i++) {
		const struct conf_result *r = &c->res[i];

		o = json_object();
		if (!o || json_array_append_new(res, o)) {
			err = VPMC_ERR_NOMEM;
			break;
		}
		out_json_set(o, "suite", json_string(r->suite), &err);
		out_json_set(o, "test", json_string(r->test), &err);
		out_json_set(o, "variant", json_string(r->variant), &err);
		out_json_set(o, "policy", json_string(r->policy), &err);
		out_json_set(o, "pass", json_boolean(r->pass), &err);
		out_json_set(o, "first_failure", r->pass ? json_null() : json_string(r->failure),
			     &err);
	}
	for (k = 0; !err && k < c->nr_policies; k++) {
		char name[VPMC_POLICY_NAME_MAX];

		o = json_object();
		if (!o || json_array_append_new(sum, o)) {
			err = VPMC_ERR_NOMEM;
			break;
		}
		vpmc_policy_format(&c->policies[k], name, sizeof(name));
		conf_count(c, k, &passed, &failed);
		out_json_set(o, "policy", json_string(name), &err);
		out_json_set(o, "passed", json_integer((json_int_t)passed), &err);
		out_json_set(o, "failed", json_integer((json_int_t)failed), &err);
	}
	return out_json_finish(root, err, text);
}

int vpmc_conformance_report(struct vpmc_conformance *c, enum vpmc_output fmt, const char **out)
{
	struct outbuf b;
	int err;

	if (fmt == VPMC_OUTPUT_JSON) {
		char *text = NULL;

		err = conf_json(c, &text);
		if (err)
			return err;
		free(c->text);
		c->text = text;
		*out = text;
		return 0;
	}
	err = outbuf_open(&b);
	if (err)
		return err;
	if (fmt == VPMC_OUTPUT_CSV)
		conf_csv(c, b.f);
	else
		conf_text(c, b.f);
	err = outbuf_close(&b, &c->text);
	if (!err)
		*out = c->text;
	return err;
}
