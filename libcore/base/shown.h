/* A user's text quoted in a message, cut to a readable length. */
#ifndef TT_BASE_SHOWN_H
#define TT_BASE_SHOWN_H

#include <stdio.h>
#include <string.h>

/* text itself when it fits size - 4 bytes, else its first size - 4 bytes
 * and "..." written to buf */
static inline const char *tt_shown(const char *text, char *buf, size_t size)
{
    if (strlen(text) < size - 4)
        return text;
    snprintf(buf, size, "%.*s...", (int)(size - 4), text);
    return buf;
}

#endif
