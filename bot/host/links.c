/*
 * links.c — one person's ids on several networks as the store keeps them
 * (scope LINK_SCOPE: every id of a group as "network\x1fplayer\x1fnick"
 * lines under each member's key): reading a group. Prefix host__link_.
 *
 * Not here: tying and untying ids (cmd/link.c).
 */
#include <stdio.h>
#include <string.h>

#include "hctx.h"
#include "hprefs.h"

/* "network\x1fplayer" into id; "" when it does not fit. */
void host__link_key(const char *network, const char *player, char *id, size_t cap)
{
    if (snprintf(id, cap, "%s\x1f%s", network, player) >= (int)cap)
        id[0] = '\0';
}

/* "network\x1fplayer\x1fnick" (s[0..len)) into its three parts, each
   under STORE_ID_MAX bytes: 0, or -1 for anything else. */
int host__link_split(const char *s, size_t len, char part[3][STORE_ID_MAX])
{
    for (int i = 0; i < 3; i++) {
        const char *sep = memchr(s, '\x1f', len);
        size_t n = i < 2 ? (sep != NULL ? (size_t)(sep - s) : len + 1) : len;
        if (n >= STORE_ID_MAX || (i < 2 && sep == NULL) || (i == 2 && sep != NULL))
            return -1;
        memcpy(part[i], s, n);
        part[i][n] = '\0';
        if (i < 2) {
            len -= n + 1;
            s = sep + 1;
        }
    }
    return 0;
}

int host__link_group(ctx *c, const char *network, const char *player, const char *nick,
                     link_ids *out)
{
    char value[LINK_MAX * LINK_ID_LEN + 1];
    char id[LINK_ID_LEN];
    out->n = 0;
    host__link_key(network, player, id, sizeof id);
    if (id[0] == '\0')
        return 0;
    int err = store_kv_get(c->h->st, LINK_SCOPE, id, value, sizeof value);
    if (err == STORE_NOT_FOUND || (err == 0 && value[0] == '\0')) {
        value[0] = '\0';
    } else if (err != 0) {
        return err;
    }
    /* the id itself first, then the others in the order they were tied */
    snprintf(out->network[0], sizeof out->network[0], "%s", network);
    snprintf(out->player[0], sizeof out->player[0], "%s", player);
    snprintf(out->nick[0], sizeof out->nick[0], "%s", nick);
    out->n = 1;
    for (char *line = value; *line != '\0' && out->n < LINK_MAX;) {
        size_t len = strcspn(line, "\n");
        char one[3][STORE_ID_MAX];
        if (host__link_split(line, len, one) == 0 &&
            (strcmp(one[0], network) != 0 || strcmp(one[1], player) != 0)) {
            memcpy(out->network[out->n], one[0], STORE_ID_MAX);
            memcpy(out->player[out->n], one[1], STORE_ID_MAX);
            memcpy(out->nick[out->n], one[2], STORE_ID_MAX);
            out->n++;
        }
        line += len + (line[len] == '\n');
    }
    return 0;
}
