/* libpfm4 wrapper: initialisation, perf_event_attr encoding, PMU and event enumeration. */
#include "evpfm.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
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

int evpfm_for_each_event(int pmu_id, evpfm_event_cb cb, void *ctx)
{
	pfm_pmu_info_t info;
	int idx, ret = evpfm_init();

	if (ret < 0)
		return ret;
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (pmu_id < 0 || pfm_get_pmu_info((pfm_pmu_t)pmu_id, &info) != PFM_SUCCESS)
		return -ENOENT;
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
