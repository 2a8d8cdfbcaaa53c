/* xz.c: the size xz makes of a text, for pli --stats: xz is not a
 * library we link, so the program is asked where there is one. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reftrace.h"
#include "util.h"

int64_t
u_xzsize(FILE *text)
{
	char buf[65536];
	int fd[2], st;
	int64_t n = 0;
	ssize_t k;
	pid_t pid;

	if (text == NULL || pipe(fd))
		return -1;
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		close(fd[0]);
		if (dup2(fileno(text), 0) < 0 || dup2(fd[1], 1) < 0 ||
		    !freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("xz", "xz", "-6", "-c", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while ((k = read(fd[0], buf, sizeof buf)) > 0 || (k < 0 && errno == EINTR))
		n += k > 0 ? k : 0;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 && n > 0 ? n : -1;
}
