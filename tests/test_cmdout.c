/* The watched command's own terminal: what it prints becomes lines (escape sequences and
 * progress-bar rewrites resolved, nothing that could steer pmutop's terminal), the last
 * CMDOUT_LINES of them kept; and a real command on the pty, its stdin that pty. */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmdout.h"
#include "startup.h"

/* Everything printed from seq on, as one string (the caller frees it). */
static char *printed(const struct cmdout *c, unsigned long seq, unsigned long *next)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	unsigned long n = cmdout_print(c, f, seq, true);
	if (next)
		*next = n;
	fclose(f);
	return buf;
}

static struct cmdout *fed(const char *text)
{
	int err;
	struct cmdout *c = cmdout_new(80, 24, &err);
	assert_non_null(c);
	cmdout_feed(c, text, strlen(text));
	return c;
}

static void test_lines(void **state)
{
	(void)state;
	/* A pty turns \n into \r\n; colours, a title (OSC), a progress bar, a backspace. */
	struct cmdout *c = fed("hello\r\n\033[1;31mred\033[0m\r\n\033]0;title\aplain\r\n"
			       "10%\r55%\r100%\r\nab\bc\na\tb\nName: ");
	assert_int_equal(cmdout_seq(c), 6);
	char *s = printed(c, 0, NULL);
	assert_string_equal(s, "hello\nred\nplain\n100%\nac\na       b\n");
	free(s);
	char part[64];
	cmdout_partial(c, part, sizeof(part), true);
	assert_string_equal(part, "Name: ");
	/* The rest of the prompt's line arrives: a line, no partial left. */
	assert_int_equal(cmdout_feed(c, "bob\r\n", 5), 1);
	cmdout_partial(c, part, sizeof(part), true);
	assert_string_equal(part, "");
	unsigned long next;
	s = printed(c, 6, &next);
	assert_string_equal(s, "Name: bob\n");
	assert_int_equal(next, 7);
	free(s);
	cmdout_free(c);
}

/* No byte the command wrote reaches pmutop's terminal as a control: C0, DEL, a lone C1
 * CSI byte, invalid UTF-8. */
static void test_hostile_bytes(void **state)
{
	(void)state;
	struct cmdout *c = fed("a\x9b"
			       "2Jb\x07\x7f\xff\n");
	char *s = printed(c, 0, NULL);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
	assert_string_equal(s, "a?2Jb???\n");
	free(s);
	cmdout_free(c);
}

/* The last CMDOUT_LINES lines stay; asking for older ones gives those. A line longer
 * than CMDOUT_LINE_MAX keeps its start. */
static void test_ring(void **state)
{
	(void)state;
	int err;
	struct cmdout *c = cmdout_new(0, 0, &err);
	assert_non_null(c);
	char line[32];
	for (unsigned i = 0; i < CMDOUT_LINES + 50; i++) {
		int n = snprintf(line, sizeof(line), "line %u\n", i);
		cmdout_feed(c, line, (size_t)n);
	}
	assert_int_equal(cmdout_seq(c), CMDOUT_LINES + 50);
	unsigned long next;
	char *s = printed(c, 0, &next);
	assert_int_equal(next, CMDOUT_LINES + 50);
	assert_true(strncmp(s, "line 50\n", 8) == 0);
	assert_non_null(strstr(s, "\nline 249\n"));
	assert_null(strstr(s, "line 49\n"));
	unsigned lines = 0;
	for (const char *p = s; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, CMDOUT_LINES);
	free(s);
	char big[3 * CMDOUT_LINE_MAX];
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	assert_int_equal(cmdout_feed(c, big, sizeof(big)), 1);
	s = printed(c, CMDOUT_LINES + 50, NULL);
	assert_int_equal(strlen(s), CMDOUT_LINE_MAX - 1 + 1);
	free(s);
	cmdout_free(c);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A real command on the pty: stdin, stdout and stderr all that pty, in a session of its
 * own (its session id its pid); everything it printed is read, and the master closes once
 * it has ended. */
static void test_command_on_pty(void **state)
{
	(void)state;
	int err;
	struct cmdout *c = cmdout_new(100, 30, &err);
	assert_non_null(c);
	char *argv[] = {"/bin/sh", "-c",
			"readlink /proc/self/fd/0; stty size; echo err >&2; "
			"echo sid=$(cut -d' ' -f6 /proc/$$/stat) pid=$$",
			NULL};
	pid_t pid;
	int go, errfd;
	char copy[] = "/tmp/pmutop-cmdout-XXXXXX";
	int fd = mkstemp(copy);
	assert_true(fd >= 0);
	cmdout_copy_to(c, fd);
	assert_int_equal(startup_spawn(argv, cmdout_slave(c), -1, &pid, &go, &errfd), 0);
	assert_int_equal(startup_release(go, errfd), 0);
	for (double end = now() + 20; cmdout_fd(c) >= 0 && now() < end;) {
		struct pollfd p = {.fd = cmdout_fd(c), .events = POLLIN};
		poll(&p, 1, 100);
		cmdout_drain(c);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(cmdout_fd(c), -1);
	char want[256];
	snprintf(want, sizeof(want), "%s\n30 100\nerr\nsid=%d pid=%d\n", cmdout_slave(c), (int)pid,
		 (int)pid);
	char *s = printed(c, 0, NULL);
	assert_string_equal(s, want);
	free(s);
	assert_int_equal(cmdout_copy_error(c), 0);
	cmdout_free(c);
	/* --command-output: the bytes as the command's terminal had them (CR LF). */
	char raw[512] = "", *w = want, *o = raw;
	for (; *w && o + 2 < raw + sizeof(raw); w++) {
		if (*w == '\n')
			*o++ = '\r';
		*o++ = *w;
	}
	*o = '\0';
	char got[512];
	FILE *f = fopen(copy, "r");
	assert_non_null(f);
	size_t n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	unlink(copy);
	assert_string_equal(got, raw);
}

/* A copy that cannot be written (a full disk): said, and copying stops; the lines stay. */
static void test_copy_fails(void **state)
{
	(void)state;
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (full < 0)
		skip();
	int err;
	struct cmdout *c = cmdout_new(80, 24, &err);
	assert_non_null(c);
	cmdout_copy_to(c, full);
	/* The command's side, written and closed here. */
	int slave = open(cmdout_slave(c), O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(slave >= 0);
	assert_int_equal(write(slave, "kept\n", 5), 5);
	close(slave);
	for (double end = now() + 20; cmdout_fd(c) >= 0 && now() < end;) {
		struct pollfd p = {.fd = cmdout_fd(c), .events = POLLIN};
		poll(&p, 1, 100);
		cmdout_drain(c);
	}
	assert_int_equal(cmdout_copy_error(c), -ENOSPC);
	char *s = printed(c, 0, NULL);
	assert_string_equal(s, "kept\n");
	free(s);
	cmdout_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),	   cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_ring),	   cmocka_unit_test(test_command_on_pty),
		cmocka_unit_test(test_copy_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
