/* How a recording ended, read from outside it: a recorder that holds it now, a -wal left
 * behind, a file with no tick (replay.c says these at open). */
#include "replayend.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "replaytasks.h"

/* An SQLite file in WAL mode (its header's read and write versions 2) that is no
 * recording yet, with no -wal beside it (or an empty one, which a reader may have made):
 * its recorder never checkpointed (killed before it closed) and it was copied without
 * its -wal, or its recorder was killed before its first commit. */
bool replay_wal_left_behind(const char *path)
{
	unsigned char h[20];
	FILE *f = fopen(path, "rbe");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
	if (f)
		fclose(f);
	if (n != sizeof(h) || memcmp(h, "SQLite format 3", 16) != 0 || h[18] != 2 || h[19] != 2)
		return false;
	size_t len = strlen(path) + 8;
	char *wal = malloc(len);
	if (!wal)
		return false;
	snprintf(wal, len, "%s-wal", path);
	struct stat sb;
	bool none = stat(wal, &sb) != 0 || sb.st_size == 0;
	free(wal);
	return none;
}

/* A recording with no tick: one line, and why when its recorder never closed it (still
 * starting, or stopped before its first tick). */
void replay_say_no_tick(struct replay *p, bool unclosed, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: the recording holds no tick%s", p->path,
		 !unclosed		   ? ""
		 : replay_being_written(p) ? " yet (a pmutop records into it: its first comes "
					     "after one interval)"
					   : " (its recorder stopped before its first: killed, "
					     "or the machine stopped)");
}

/* Whether process pid has a descriptor open on the file sb describes. */
static bool pid_has_open(int pid, const struct stat *sb)
{
	char dir[64], path[96];
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		struct stat fs;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		found = stat(path, &fs) == 0 && fs.st_dev == sb->st_dev && fs.st_ino == sb->st_ino;
	}
	closedir(d);
	return found;
}

bool replay_being_written(const struct replay *p)
{
	struct stat sb;
	FILE *f = stat(p->path, &sb) == 0 ? fopen("/proc/locks", "re") : NULL;
	if (!f)
		return false;
	/* "3: FLOCK  ADVISORY  WRITE 9743 fe:00:11428360 0 EOF": the recorder's flock on the
	 * file's inode (read, not taken: a recorder starting now must get it). The device
	 * there is the superblock's, which stat does not give on btrfs (a subvolume's own):
	 * where it differs, the lock's owner must hold the file open. */
	char line[256], kind[16];
	unsigned maj, min;
	int pid;
	unsigned long long ino;
	bool held = false;
	while (!held && fgets(line, sizeof(line), f))
		held = sscanf(line, "%*[^:]: %15s %*s %*s %d %x:%x:%llu", kind, &pid, &maj, &min,
			      &ino) == 5 &&
		       strcmp(kind, "FLOCK") == 0 && ino == (unsigned long long)sb.st_ino &&
		       (makedev(maj, min) == sb.st_dev || (pid > 0 && pid_has_open(pid, &sb)));
	fclose(f);
	return held;
}
