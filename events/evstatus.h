/* Why an event did or did not open, kept per event so one failure never hides another. */
#ifndef PMUTOP_EVSTATUS_H
#define PMUTOP_EVSTATUS_H

enum ev_status {
	EVS_OK = 0,
	EVS_UNOPENED,	 /* not tried yet (or closed) */
	EVS_UNSUPPORTED, /* ENOENT, EOPNOTSUPP, ENODEV: this machine cannot count it */
	EVS_NOPERM,	 /* EACCES, EPERM: perf_event_paranoid or capabilities */
	EVS_NOFD,	 /* EMFILE, ENFILE: out of file descriptors */
	EVS_NOTASK,	 /* ESRCH: the task is gone */
	EVS_INVALID,	 /* EINVAL: bad attr, or a group the PMU cannot hold */
	EVS_BUSY,	 /* EBUSY: taken by someone else (exclusive PMU) */
	EVS_NOFIT,	 /* opens alone, but its group cannot be scheduled as a whole */
	EVS_KERNEL_ONLY, /* happens only in kernel mode, asked for in user mode (:u) */
	EVS_ERROR,	 /* anything else */
};

enum ev_status ev_status_from_errno(int err);
/* Short text for cells and notices ("unsupported", "no permission", ...). */
const char *ev_status_str(enum ev_status st);

#endif
