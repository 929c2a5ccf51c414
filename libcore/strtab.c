/* Interned strings: an array of copies plus an open-addressing hash index. */
#include "tt/trace.h"

#include <stdlib.h>
#include <string.h>

struct tt_strtab {
    char **s;
    int32_t n, cap;
    int32_t *slot; /* hash slots holding code + 1; 0 = empty */
    uint32_t nslot; /* power of two, at least 2 * n */
};

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

tt_strtab *tt_strtab_create(void)
{
    tt_strtab *t = (tt_strtab *)calloc(1, sizeof *t);
    return t;
}

void tt_strtab_free(tt_strtab *t)
{
    if (!t)
        return;
    for (int32_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->slot);
    free(t);
}

static int rehash(tt_strtab *t, uint32_t nslot)
{
    int32_t *slot = (int32_t *)calloc(nslot, sizeof *slot);
    if (!slot)
        return TT_ENOMEM;
    for (int32_t i = 0; i < t->n; i++) {
        uint32_t h = hash_str(t->s[i]) & (nslot - 1);
        while (slot[h])
            h = (h + 1) & (nslot - 1);
        slot[h] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = nslot;
    return 0;
}

int32_t tt_strtab_find(const tt_strtab *t, const char *s)
{
    if (!t->nslot)
        return -1;
    uint32_t h = hash_str(s) & (t->nslot - 1);
    while (t->slot[h]) {
        int32_t i = t->slot[h] - 1;
        if (strcmp(t->s[i], s) == 0)
            return i;
        h = (h + 1) & (t->nslot - 1);
    }
    return -1;
}

int32_t tt_strtab_intern(tt_strtab *t, const char *s)
{
    int32_t i = tt_strtab_find(t, s);
    if (i >= 0)
        return i;
    if (t->n == INT32_MAX - 1)
        return TT_ENOMEM;
    if ((uint32_t)(t->n + 1) * 2u > t->nslot &&
        rehash(t, t->nslot ? t->nslot * 2u : 64u))
        return TT_ENOMEM;
    if (t->n == t->cap) {
        int32_t cap = t->cap ? t->cap * 2 : 64;
        char **ns = (char **)realloc(t->s, (size_t)cap * sizeof *ns);
        if (!ns)
            return TT_ENOMEM;
        t->s = ns;
        t->cap = cap;
    }
    size_t len = strlen(s);
    char *copy = (char *)malloc(len + 1);
    if (!copy)
        return TT_ENOMEM;
    memcpy(copy, s, len + 1);
    i = t->n++;
    t->s[i] = copy;
    uint32_t h = hash_str(s) & (t->nslot - 1);
    while (t->slot[h])
        h = (h + 1) & (t->nslot - 1);
    t->slot[h] = i + 1;
    return i;
}

const char *tt_strtab_get(const tt_strtab *t, int32_t i)
{
    return (i >= 0 && i < t->n) ? t->s[i] : NULL;
}

int32_t tt_strtab_count(const tt_strtab *t) { return t->n; }
