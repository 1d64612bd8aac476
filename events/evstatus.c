/* Mapping from open(2)-style errno values to event statuses. */
#include "evstatus.h"

#include <errno.h>

enum ev_status ev_status_from_errno(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return EVS_OK;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENOSYS:
		return EVS_UNSUPPORTED;
	case EACCES:
	case EPERM:
		return EVS_NOPERM;
	case EMFILE:
	case ENFILE:
		return EVS_NOFD;
	case ESRCH:
		return EVS_NOTASK;
	case EINVAL:
	case E2BIG:
		return EVS_INVALID;
	case EBUSY:
		return EVS_BUSY;
	default:
		return EVS_ERROR;
	}
}

const char *ev_status_str(enum ev_status st)
{
	switch (st) {
	case EVS_OK:
		return "ok";
	case EVS_UNOPENED:
		return "not opened";
	case EVS_UNSUPPORTED:
		return "unsupported";
	case EVS_NOPERM:
		return "no permission";
	case EVS_NOFD:
		return "fd limit";
	case EVS_NOTASK:
		return "task gone";
	case EVS_INVALID:
		return "invalid";
	case EVS_BUSY:
		return "busy";
	case EVS_NOFIT:
		return "group too large";
	case EVS_KERNEL_ONLY:
		return "kernel-mode event in user mode";
	case EVS_ERROR:
		break;
	}
	return "error";
}
