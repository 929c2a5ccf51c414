/* Running gnuplot on a script tt/plot.h wrote (tt-plot's figures): found
 * on PATH or by $GNUPLOT, its messages kept in a file for the caller. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tt/plot.h"

extern char **environ;

int tt_plot_find_gnuplot(char *buf, size_t size)
{
    const char *g = getenv("GNUPLOT");
    if (!g || !*g)
        g = "gnuplot";
    if (strchr(g, '/')) {
        snprintf(buf, size, "%s", g);
        return access(buf, X_OK);
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        const char *colon = strchr(p, ':');
        int n = colon ? (int)(colon - p) : (int)strlen(p);
        snprintf(buf, size, "%.*s/%s", n, n ? p : ".", g);
        if (access(buf, X_OK) == 0)
            return 0;
        p += n + (colon ? 1 : 0);
    }
    return -1;
}

int tt_plot_run(tt_ctx *ctx, const char *gnuplot, const char *script, const char *log,
                volatile pid_t *pid, int *status)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[] = {(char *)gnuplot, (char *)script, NULL};
    pid_t child;
    int rc = posix_spawn(&child, gnuplot, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return tt_err(ctx, TT_EIO, "cannot run '%s': %s", gnuplot, strerror(rc));
    *pid = child;
    while (waitpid(child, status, 0) < 0)
        if (errno != EINTR) {
            *pid = 0;
            return tt_err(ctx, TT_EIO, "cannot wait for '%s': %s", gnuplot, strerror(errno));
        }
    *pid = 0;
    return 0;
}
