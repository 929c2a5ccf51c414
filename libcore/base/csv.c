/* In-place field splitting. */
#include "base/csv.h"

#include <string.h>

int tt_csv_split(char *line, char delim, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *start = p;
        if (*p == '"') { /* quoted field: copy down, turning "" into " */
            char *w = p;
            p++;
            for (;;) {
                if (*p == '\0')
                    return -1;
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            /* text after the closing quote up to the delimiter is kept */
            while (*p && *p != delim)
                *w++ = *p++;
            char end = *p;
            *w = '\0';
            if (n < max)
                fields[n] = start;
            n++;
            if (end == '\0')
                return n;
            p++;
            continue;
        }
        while (*p && *p != delim)
            p++;
        char end = *p;
        *p = '\0';
        if (n < max)
            fields[n] = start;
        n++;
        if (end == '\0')
            return n;
        p++;
    }
}

int tt_tab_split(char *line, char **fields, int max)
{
    int n = 0;
    for (char *p = line;;) {
        char *tab = strchr(p, '\t');
        if (n < max)
            fields[n] = p;
        n++;
        if (!tab)
            return n;
        *tab = '\0';
        p = tab + 1;
    }
}

int tt_ws_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n < max)
            fields[n] = p;
        n++;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (!*p)
            return n;
        *p++ = '\0';
    }
}

char *tt_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}
