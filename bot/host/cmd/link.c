/*
 * link.c — one person's ids on several networks, tied together by that
 * person, so that "games" lists every game they sit in, whichever network
 * they ask from.
 *
 * A player id is only ever known on its own network (an IRC nick or
 * account, a Matrix user id): nothing says that "ann" on IRC is
 * "@ann:example.org". The person proves it from both sides: "link" on one
 * network sends them a code privately, and "link CODE" said from the other
 * within LINK_CODE_SECS ties the two ids. "link" alone also says what is
 * tied; "link off" unties the sender.
 *
 * Kept in the store's kv:
 *   scope "link", key "network\x1fplayer": the group, every id of it as
 *   "network\x1fplayer\x1fnick" lines (the key's own included; the nick as
 *   it was when tied, to name the id to its person: an id may be an
 *   adapter's "n:ann"), the same value under each member's key; "" once
 *   untied;
 *   scope "linkcode", key the code: "EXPIRES network\x1fplayer\x1fnick";
 *   scope "linkcode_of", key "network\x1fplayer": their latest code, so a
 *   new one voids it (one pending code a person).
 * Not here: the listing itself (games.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "hctx.h"
#include "hprefs.h"
#include "hverbs.h"

#define CODE_SCOPE "linkcode"
#define CODE_OF_SCOPE "linkcode_of"
#define LINK_CODE_SECS 600
#define LINK_CODE_LEN 8
/* letters and digits that cannot be mistaken for one another */
#define LINK_ALPHABET "abcdefghjkmnpqrstuvwxyz23456789"

/* Writes group g under every member's key (the value "" when alone). */
static int link_save(ctx *c, const link_ids *g)
{
    char value[LINK_MAX * LINK_ID_LEN + 1] = "", id[LINK_ID_LEN];
    size_t used = 0;
    for (int i = 0; g->n > 1 && i < g->n; i++) {
        int w = snprintf(value + used, sizeof value - used, "%s%s\x1f%s\x1f%s", i > 0 ? "\n" : "",
                         g->network[i], g->player[i], g->nick[i]);
        if (w < 0 || (size_t)w >= sizeof value - used)
            return STORE_TOO_BIG;
        used += (size_t)w;
    }
    for (int i = 0; i < g->n; i++) {
        host__link_key(g->network[i], g->player[i], id, sizeof id);
        int err = id[0] == '\0' ? STORE_TOO_BIG : store_kv_set(c->h->st, LINK_SCOPE, id, value);
        if (err != 0)
            return err;
    }
    return 0;
}

/* "ann on irc, @ann:example.org on matrix": the ids of g after the first. */
static void link_names(const link_ids *g, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 1; i < g->n && used < cap; i++) {
        /* TRANSLATORS: an id and its network, "ann on irc" */
        int w = snprintf(out + used, cap - used, _("%s%s on %s"), i > 1 ? ", " : "", g->nick[i],
                         g->network[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* A new code for the sender, told privately; their previous one is void. */
static void link_offer(ctx *c)
{
    unsigned char raw[LINK_CODE_LEN];
    char code[LINK_CODE_LEN + 1], me[LINK_ID_LEN], value[LINK_ID_LEN + STORE_ID_MAX + 32],
        old[LINK_CODE_LEN + 1];
    if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
        host__reply(c, N_("no code can be made just now: try again in a moment"));
        return;
    }
    for (int i = 0; i < LINK_CODE_LEN; i++)
        code[i] = LINK_ALPHABET[raw[i] % (sizeof LINK_ALPHABET - 1)];
    code[LINK_CODE_LEN] = '\0';
    host__link_key(c->network, c->m->sender, me, sizeof me);
    if (snprintf(value, sizeof value, "%lld %s\x1f%s", (long long)(c->now + LINK_CODE_SECS), me,
                 c->m->nick) >= (int)sizeof value)
        me[0] = '\0'; /* cannot be kept whole */
    int err = me[0] == '\0' ? STORE_TOO_BIG : 0;
    if (err == 0 && store_kv_get(c->h->st, CODE_OF_SCOPE, me, old, sizeof old) == 0 &&
        old[0] != '\0')
        err = store_kv_set(c->h->st, CODE_SCOPE, old, "");
    if (err == 0)
        err = store_kv_set(c->h->st, CODE_SCOPE, code, value);
    if (err == 0)
        err = store_kv_set(c->h->st, CODE_OF_SCOPE, me, code);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    host__say_private(
        c, c->m->sender, 0,
        N_("to see your games on another network here too, say link %s to me there, "
           "privately, within %d minutes (this code is yours alone: keep it private)"),
        code, LINK_CODE_SECS / 60);
}

/* "link CODE": the sender's id joins the group of the id that asked for it. */
static void link_claim(ctx *c, const char *code)
{
    char value[LINK_ID_LEN + STORE_ID_MAX + 32], names[LINK_MAX * LINK_ID_LEN],
        owner[3][STORE_ID_MAX];
    int err = store_kv_get(c->h->st, CODE_SCOPE, code, value, sizeof value);
    if (err != 0 && err != STORE_NOT_FOUND) {
        host__failed(c, err);
        return;
    }
    char *end = NULL;
    long long expires = err == 0 ? strtoll(value, &end, 10) : 0;
    if (end == NULL || *end != ' ' || host__link_split(end + 1, strlen(end + 1), owner) != 0 ||
        expires < c->now) {
        host__reply(c,
                    N_("%s is not a code I gave, or it is more than %d minutes old: say %slink on "
                       "your other network for a new one"),
                    code, LINK_CODE_SECS / 60, host__prompt_prefix(c));
        return;
    }
    const char *net = owner[0], *who = owner[1];
    if (strcmp(net, c->network) == 0 && strcmp(who, c->m->sender) == 0) {
        host__reply(c, N_("that code is for your other network: say link %s to me there"), code);
        return;
    }
    link_ids a, b;
    if ((err = host__link_group(c, net, who, owner[2], &a)) != 0 ||
        (err = host__link_group(c, c->network, c->m->sender, c->m->nick, &b)) != 0) {
        host__failed(c, err);
        return;
    }
    for (int i = 0; i < b.n; i++) { /* the union, each id once */
        bool known = false;
        for (int j = 0; j < a.n && !known; j++)
            known =
                strcmp(a.network[j], b.network[i]) == 0 && strcmp(a.player[j], b.player[i]) == 0;
        if (known)
            continue;
        if (a.n == LINK_MAX) {
            host__reply(
                c, N_("at most %d ids can be tied together: say %slink off on one of them first"),
                LINK_MAX, host__prompt_prefix(c));
            return;
        }
        memcpy(a.network[a.n], b.network[i], STORE_ID_MAX);
        memcpy(a.player[a.n], b.player[i], STORE_ID_MAX);
        memcpy(a.nick[a.n], b.nick[i], STORE_ID_MAX);
        a.n++;
    }
    char owner_id[LINK_ID_LEN]; /* the code is used up */
    host__link_key(net, who, owner_id, sizeof owner_id);
    if ((err = link_save(c, &a)) != 0 ||
        (err = store_kv_set(c->h->st, CODE_SCOPE, code, "")) != 0 ||
        (err = store_kv_set(c->h->st, CODE_OF_SCOPE, owner_id, "")) != 0) {
        host__failed(c, err);
        return;
    }
    if ((err = host__link_group(c, c->network, c->m->sender, c->m->nick, &b)) != 0) {
        host__failed(c, err);
        return;
    }
    link_names(&b, names, sizeof names);
    host__reply(c, N_("tied to %s: games lists them all, from any of them; %slink off unties you"),
                names, host__prompt_prefix(c));
}

/* "link off": the sender leaves their group. */
static void link_off(ctx *c)
{
    link_ids g;
    int err = host__link_group(c, c->network, c->m->sender, c->m->nick, &g);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (g.n <= 1) {
        host__reply(c, N_("your id here is tied to no other"));
        return;
    }
    link_ids alone = g, rest = g;
    alone.n = 1; /* g's first is the sender */
    rest.n = g.n - 1;
    for (int i = 1; i < g.n; i++) {
        memcpy(rest.network[i - 1], g.network[i], STORE_ID_MAX);
        memcpy(rest.player[i - 1], g.player[i], STORE_ID_MAX);
        memcpy(rest.nick[i - 1], g.nick[i], STORE_ID_MAX);
    }
    if ((err = link_save(c, &alone)) != 0 || (err = link_save(c, &rest)) != 0) {
        host__failed(c, err);
        return;
    }
    host__reply(c, N_("your id here is tied to no other now"));
}

void host__verb_link(ctx *c, const cmd *k)
{
    if (k->off) {
        link_off(c);
        return;
    }
    if (k->name[0] != '\0') {
        link_claim(c, k->name);
        return;
    }
    link_ids g;
    char names[LINK_MAX * LINK_ID_LEN];
    int err = host__link_group(c, c->network, c->m->sender, c->m->nick, &g);
    if (err != 0) {
        host__failed(c, err);
        return;
    }
    if (g.n > 1) {
        link_names(&g, names, sizeof names);
        host__say_private(c, c->m->sender, 0, N_("your id here is tied to %s"), names);
    }
    link_offer(c);
}
