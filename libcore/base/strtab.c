/* Interned strings: an array of copies plus an open-addressing hash index. */
#include "tt/strtab.h"

#include "tt/error.h"

#include <stdlib.h>
#include <string.h>

struct tt_strtab {
    char **s;
    int32_t n, cap;
    int32_t *slot;  /* hash slots holding code + 1; 0 = empty */
    uint32_t *hash; /* the full hash of each slot's string: most probes end
                       without touching the string (1M distinct job names) */
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
    free(t->hash);
    free(t);
}

static int rehash(tt_strtab *t, uint32_t nslot)
{
    int32_t *slot = (int32_t *)calloc(nslot, sizeof *slot);
    uint32_t *hash = (uint32_t *)malloc(nslot * sizeof *hash);
    if (!slot || !hash) {
        free(slot);
        free(hash);
        return TT_ENOMEM;
    }
    for (uint32_t k = 0; k < t->nslot; k++) {
        if (!t->slot[k])
            continue;
        uint32_t h = t->hash[k], s = h & (nslot - 1);
        while (slot[s])
            s = (s + 1) & (nslot - 1);
        slot[s] = t->slot[k];
        hash[s] = h;
    }
    free(t->slot);
    free(t->hash);
    t->slot = slot;
    t->hash = hash;
    t->nslot = nslot;
    return 0;
}

/* The slot of s (hash h): where it is, or the empty slot where it goes. */
static uint32_t probe(const tt_strtab *t, const char *s, uint32_t h)
{
    uint32_t k = h & (t->nslot - 1);
    while (t->slot[k] && (t->hash[k] != h || strcmp(t->s[t->slot[k] - 1], s) != 0))
        k = (k + 1) & (t->nslot - 1);
    return k;
}

int32_t tt_strtab_find(const tt_strtab *t, const char *s)
{
    if (!t->nslot)
        return -1;
    return t->slot[probe(t, s, hash_str(s))] - 1;
}

int32_t tt_strtab_intern(tt_strtab *t, const char *s)
{
    uint32_t h = hash_str(s);
    if (t->nslot) {
        uint32_t k = probe(t, s, h);
        if (t->slot[k])
            return t->slot[k] - 1;
    }
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
    int32_t i = t->n++;
    t->s[i] = copy;
    uint32_t k = probe(t, s, h);
    t->slot[k] = i + 1;
    t->hash[k] = h;
    return i;
}

const char *tt_strtab_get(const tt_strtab *t, int32_t i)
{
    return (i >= 0 && i < t->n) ? t->s[i] : NULL;
}

int32_t tt_strtab_count(const tt_strtab *t) { return t->n; }
