/* libpfm4 wrapper: initialisation, perf_event_attr encoding, PMU and event enumeration. */
#include "evpfm.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The one piece of global state: libpfm4 keeps its own tables per process and reads
 * LIBPFM_FORCE_PMU only on the first pfm_initialize(), so remember the outcome. */
static int evpfm_state; /* 0 not tried, 1 ready, -ENODEV unusable */

int evpfm_init(void)
{
	if (evpfm_state == 0)
		evpfm_state = pfm_initialize() == PFM_SUCCESS ? 1 : -ENODEV;
	return evpfm_state > 0 ? 0 : evpfm_state;
}

static int evpfm_errno(int ret)
{
	switch (ret) {
	case PFM_SUCCESS:
		return 0;
	case PFM_ERR_NOMEM:
		return -ENOMEM;
	case PFM_ERR_NOINIT:
		return -ENODEV;
	case PFM_ERR_NOTFOUND:
	case PFM_ERR_NOTSUPP: /* no perf_events encoding for it: as good as unknown */
		return -ENOENT;
	default: /* bad unit mask, attribute, value or combination */
		return -EINVAL;
	}
}

/* True when one of the attributes after the event name selects privilege levels:
 * then the user chose them and the K toggle must leave them alone. */
static bool evpfm_plm_modifier(const char *name)
{
	const char *p = strstr(name, "::");

	p = strchr(p ? p + 2 : name, ':'); /* skip the event name itself */
	while (p) {
		const char *t = p + 1;
		size_t n = strcspn(t, ":=");

		if (n == 1 && strchr("ukhUKH", t[0]))
			return true;
		if (n == 2 && strncasecmp(t, "hv", 2) == 0)
			return true;
		p = strchr(t, ':');
	}
	return false;
}

int evpfm_encode(const char *name, struct perf_event_attr *attr, bool *explicit_plm)
{
	struct perf_event_attr tmp;
	pfm_perf_encode_arg_t arg;
	int ret = evpfm_init();

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	*explicit_plm = false;
	if (ret < 0)
		return ret;
	memset(&tmp, 0, sizeof(tmp));
	tmp.size = sizeof(tmp);
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &tmp;
	/* PLM0|PLM3: user and kernel. PLM3 alone would set exclude_kernel and silently
	 * drop the kernel half of every count. */
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS)
		return evpfm_errno(ret);
	/* EXT may also fill sampling fields (period, precise_ip): counting wants none. */
	attr->type = tmp.type;
	attr->config = tmp.config;
	attr->config1 = tmp.config1;
	attr->config2 = tmp.config2;
	attr->exclude_user = tmp.exclude_user;
	attr->exclude_kernel = tmp.exclude_kernel;
	attr->exclude_hv = tmp.exclude_hv;
	attr->exclude_idle = tmp.exclude_idle;
	attr->exclude_host = tmp.exclude_host;
	attr->exclude_guest = tmp.exclude_guest;
	*explicit_plm = evpfm_plm_modifier(name);
	return 0;
}

int evpfm_for_each_pmu(evpfm_pmu_cb cb, void *ctx)
{
	pfm_pmu_t p;
	int ret = evpfm_init();

	if (ret < 0)
		return ret;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t info;
		struct evpfm_pmu e;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.name)
			continue; /* not compiled in for this architecture */
		e = (struct evpfm_pmu){
			.id = (int)p,
			.name = info.name,
			.desc = info.desc,
			.present = info.is_present,
			.core = info.type == PFM_PMU_TYPE_CORE,
			.os_generic = info.type == PFM_PMU_TYPE_OS_GENERIC,
			.nr_events = info.nevents,
			.nr_counters = info.num_cntrs,
			.nr_fixed = info.num_fixed_cntrs,
		};
		ret = cb(ctx, &e);
		if (ret)
			return ret;
	}
	return 0;
}

/* libpfm4's description of PMU pmu_id (initialising the library first): 0, or -errno. */
static int pmu_info(int pmu_id, pfm_pmu_info_t *info)
{
	int ret = evpfm_init();
	if (ret < 0)
		return ret;
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (pmu_id < 0 || pfm_get_pmu_info((pfm_pmu_t)pmu_id, info) != PFM_SUCCESS)
		return -ENOENT;
	return 0;
}

int evpfm_for_each_event(int pmu_id, evpfm_event_cb cb, void *ctx)
{
	pfm_pmu_info_t info;
	int idx, ret = pmu_info(pmu_id, &info);

	if (ret < 0)
		return ret;
	for (idx = info.first_event; idx >= 0; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ev;

		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS || !ev.name)
			continue;
		ret = cb(ctx, ev.name, ev.desc ? ev.desc : "");
		if (ret)
			return ret;
	}
	return 0;
}

/* Perf-event attributes that only matter for sampling or placement: pmutop counts, and
 * evpfm_encode copies none of them into the attr. */
static bool evpfm_attr_hidden(const pfm_event_attr_info_t *a)
{
	static const char *const hide[] = {"period", "freq",	"excl",	  "cpu",
					   "pinned", "precise", "hw_smpl"};

	if (a->ctrl != PFM_ATTR_CTRL_PERF_EVENT)
		return false;
	for (size_t i = 0; i < sizeof(hide) / sizeof(hide[0]); i++)
		if (strcmp(a->name, hide[i]) == 0)
			return true;
	return false;
}

static int evpfm_attrs_of(int idx, evpfm_attr_cb cb, void *ctx)
{
	pfm_event_info_t ev;
	int ret;

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ev) != PFM_SUCCESS)
		return -ENOENT;
	/* umasks first, then the modifiers, each in libpfm4's order */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < ev.nattrs; i++) {
			pfm_event_attr_info_t a;
			struct evpfm_attr e;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			if (pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, &a) !=
				    PFM_SUCCESS ||
			    !a.name || (a.type == PFM_ATTR_UMASK) != (pass == 0) ||
			    evpfm_attr_hidden(&a))
				continue;
			e = (struct evpfm_attr){
				.name = a.name,
				.desc = a.desc ? a.desc : "",
				.umask = a.type == PFM_ATTR_UMASK,
				.dfl = a.type == PFM_ATTR_UMASK && a.is_dfl,
				.value = a.type == PFM_ATTR_MOD_INTEGER,
			};
			ret = cb(ctx, &e);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Cut "pmu::EVENT:UMASK:u" (or "EVENT:UMASK") after the event name, in place. */
static void evpfm_cut_attrs(char *name)
{
	char *p = strstr(name, "::");
	char *c = strchr(p ? p + 2 : name, ':');

	if (c)
		*c = '\0';
}

int evpfm_for_each_attr(const char *event, evpfm_attr_cb cb, void *ctx)
{
	char base[256];
	int idx, ret = evpfm_init();

	if (ret < 0)
		return ret;
	/* pfm_find_event takes the event alone */
	snprintf(base, sizeof(base), "%s", event);
	evpfm_cut_attrs(base);
	idx = pfm_find_event(base);
	if (idx < 0)
		return -ENOENT;
	return evpfm_attrs_of(idx, cb, ctx);
}

/* A list of attribute names, ", " between them, cut with "..." when it does not fit. */
struct evpfm_names {
	char *buf;
	size_t len, used;
	bool umask;
	unsigned n;
	const char *first;
};

static int evpfm_name_add(void *ctx, const struct evpfm_attr *a)
{
	struct evpfm_names *l = ctx;
	int w;

	if (a->umask != l->umask)
		return 0;
	if (!l->first)
		l->first = a->name;
	w = snprintf(l->buf + l->used, l->len - l->used, "%s%s%s", l->n ? ", " : "", a->name,
		     a->value ? "=N" : "");
	if (w < 0 || (size_t)w >= l->len - l->used) {
		l->buf[l->used] = '\0';
		if (l->len - l->used > 5)
			strcpy(l->buf + l->used, ", ...");
		return 1;
	}
	l->used += (size_t)w;
	l->n++;
	return 0;
}

/* The names into buf; returns the first one ("" when none). */
static const char *evpfm_names_of(int idx, bool umask, char *buf, size_t len)
{
	struct evpfm_names l = {.buf = buf, .len = len, .umask = umask};

	buf[0] = '\0';
	evpfm_attrs_of(idx, evpfm_name_add, &l);
	return l.first ? l.first : "";
}

/* The first attribute of name that event idx does not have, into out. */
static bool evpfm_unknown_attr(int idx, const char *name, char *out, size_t len)
{
	const char *p = strstr(name, "::");
	pfm_event_info_t ev;

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &ev) != PFM_SUCCESS)
		return false;
	for (p = strchr(p ? p + 2 : name, ':'); p; p = strchr(p + 1, ':')) {
		size_t n = strcspn(p + 1, ":=");
		bool known = false;

		for (int i = 0; i < ev.nattrs && !known; i++) {
			pfm_event_attr_info_t a;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			known = pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, &a) ==
					PFM_SUCCESS &&
				a.name && strlen(a.name) == n && strncasecmp(a.name, p + 1, n) == 0;
		}
		if (!known) {
			snprintf(out, len, "%.*s", (int)n, p + 1);
			return true;
		}
	}
	return false;
}

/* libpfm4's PMU called name[0..n): 1 present, 0 known but absent, -1 unknown. */
static int evpfm_pmu_state(const char *name, size_t n, const char **desc)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.name ||
		    strlen(info.name) != n || strncmp(info.name, name, n) != 0)
			continue;
		*desc = info.desc ? info.desc : "";
		return info.is_present ? 1 : 0;
	}
	return -1;
}

static int evpfm_try(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = attr;
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
}

int evpfm_explain(const char *name, char *buf, size_t len)
{
	char base[256], list[200], mods[200], bad[64];
	const char *sep = strstr(name, "::"), *pdesc = "", *first;
	struct perf_event_attr attr;
	pfm_event_info_t ev;
	pfm_pmu_info_t pi;
	int r, idx;

	if (len)
		buf[0] = '\0';
	if (!len || evpfm_init() < 0 || (r = evpfm_try(name, &attr)) == PFM_SUCCESS)
		return 0;
	if (sep) {
		size_t n = (size_t)(sep - name);
		int st = evpfm_pmu_state(name, n, &pdesc);

		if (st < 0) {
			snprintf(buf, len, "no PMU called '%.*s' (pmutop --list shows the PMUs)",
				 (int)n, name);
			return 1;
		}
		if (st == 0) {
			snprintf(buf, len, "PMU %.*s (%s) is not on this machine", (int)n, name,
				 pdesc);
			return 1;
		}
	}
	snprintf(base, sizeof(base), "%s", name);
	evpfm_cut_attrs(base);
	idx = pfm_find_event(base);
	if (idx < 0)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	memset(&pi, 0, sizeof(pi));
	pi.size = sizeof(pi);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ev.pmu, &pi) != PFM_SUCCESS)
		return 0;
	first = evpfm_names_of(idx, true, list, sizeof(list));
	evpfm_names_of(idx, false, mods, sizeof(mods));
	switch (r) {
	case PFM_ERR_UMASK:
		if (strcmp(base, name) == 0)
			snprintf(buf, len, "%s needs a umask: one of %s (e.g. %s:%s)", name, list,
				 name, first);
		else
			snprintf(buf, len,
				 "%s: a umask is missing or these cannot go together: %s has %s",
				 name, base, list);
		return 1;
	case PFM_ERR_ATTR:
		if (!evpfm_unknown_attr(idx, name, bad, sizeof(bad)))
			snprintf(bad, sizeof(bad), "?");
		snprintf(buf, len, "%s has no umask or modifier '%s': umasks %s; modifiers %s",
			 base, bad, list[0] ? list : "none", mods[0] ? mods : "none");
		return 1;
	case PFM_ERR_ATTR_VAL:
		snprintf(buf, len, "%s: a modifier has a bad value (modifiers %s)", name, mods);
		return 1;
	case PFM_ERR_ATTR_SET:
		snprintf(buf, len, "%s: a modifier is given twice", name);
		return 1;
	case PFM_ERR_FEATCOMB:
		snprintf(buf, len, "%s: these umasks or modifiers cannot be combined", name);
		return 1;
	case PFM_ERR_NOTSUPP:
		snprintf(buf, len,
			 "%s cannot be counted here: PMU %s is detected by libpfm4 but not "
			 "available "
			 "in the kernel (no sysfs PMU for it), or the event cannot be counted per "
			 "task",
			 base, pi.name);
		return 1;
	default:
		snprintf(buf, len, "%s: %s", name, pfm_strerror(r));
		return 1;
	}
}

int evpfm_pmu_perf_type(int pmu_id)
{
	pfm_pmu_info_t info;
	char name[256];
	int idx, tries = 0, ret = pmu_info(pmu_id, &info);

	if (ret < 0)
		return ret;
	for (idx = info.first_event; idx >= 0 && tries < 16; idx = pfm_get_event_next(idx)) {
		struct perf_event_attr attr;
		pfm_event_info_t ev;

		memset(&ev, 0, sizeof(ev));
		ev.size = sizeof(ev);
		if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS || !ev.name)
			continue;
		tries++;
		snprintf(name, sizeof(name), "%s::%s", info.name, ev.name);
		ret = evpfm_try(name, &attr);
		if (ret == PFM_SUCCESS)
			return (int)attr.type;
		if (ret == PFM_ERR_NOTSUPP)
			return -EOPNOTSUPP;
	}
	return -ENOENT;
}
