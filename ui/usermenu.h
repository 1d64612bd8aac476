/* The 'u' menu: the users who own rows in the model, and "all users". */
#ifndef PMUTOP_USERMENU_H
#define PMUTOP_USERMENU_H

#include <stdbool.h>
#include <sys/types.h>

#include "menu.h"
#include "model.h"

#define USERMENU_ALL (-1L)

/* Values are uids, or USERMENU_ALL. The current choice is selected. */
void usermenu_fill(struct menu *mn, const struct model *m, bool have_uid, uid_t current);
/* The sanitised name of uid as the model has it, into buf ("" if no row has it). */
void usermenu_name(const struct model *m, uid_t uid, char *buf, size_t len);

#endif
