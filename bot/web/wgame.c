/*
 * wgame.c — a game replayed for its page (wgame.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "wgame.h"

/* Whether the reader's string is s (its text is not NUL-terminated). */
static bool is(const pzj_reader *r, const char *s)
{
    return r->str_len == strlen(s) && memcmp(r->str, s, r->str_len) == 0;
}

int wg_parse_action(const char *json, pz_action *a)
{
    pzj_reader r;
    pzj_init(&r, json, strlen(json));
    memset(a, 0, sizeof *a);
    a->seat = -1;
    a->kind = (pz_action_kind)-1;
    a->mode = PZ_MODE_ANY;
    int nrow = 0;
    char key[16] = "";
    if (pzj_next(&r) != PZJ_OBJECT)
        return -1;
    for (;;) {
        pzj_token t = pzj_next(&r);
        if (t == PZJ_OBJECT_END)
            break;
        if (t != PZJ_KEY || r.str_len >= sizeof key)
            return -1;
        memcpy(key, r.str, r.str_len);
        key[r.str_len] = '\0';
        t = pzj_next(&r);
        if (strcmp(key, "seat") == 0 && t == PZJ_NUMBER && r.num_kind == PZJ_NUM_INT &&
            r.num >= 0 && r.num < PZ_MAX_PLAYERS) {
            a->seat = (int)r.num;
        } else if (strcmp(key, "play") == 0 && t == PZJ_STRING) {
            a->kind = PZ_ACT_PLAY;
            if (pz_card_parse(r.str, r.str_len, &a->card) != 0)
                return -1;
        } else if (strcmp(key, "mode") == 0 && t == PZJ_STRING) {
            a->mode = is(&r, "capture") ? PZ_MODE_CAPTURE
                      : is(&r, "place") ? PZ_MODE_PLACE
                                        : PZ_MODE_ANY;
        } else if (strcmp(key, "tendido") == 0 && t == PZJ_STRING) {
            a->kind = PZ_ACT_TENDIDO;
            a->now = is(&r, "now");
        } else if (strcmp(key, "arrange") == 0 && t == PZJ_STRING) {
            a->kind = PZ_ACT_ARRANGE;
            a->best = true;
        } else if (strcmp(key, "arrange") == 0 && t == PZJ_ARRAY) {
            a->kind = PZ_ACT_ARRANGE;
            while ((t = pzj_next(&r)) == PZJ_STRING && nrow < 4)
                if (pz_card_parse(r.str, r.str_len, &a->row[nrow++]) != 0)
                    return -1;
            if (t != PZJ_ARRAY_END || nrow != 4)
                return -1;
        } else if (strcmp(key, "direction") == 0 && t == PZJ_STRING) {
            a->direction = is(&r, "rtl") ? PZ_RTL : PZ_LTR;
        } else if (strcmp(key, "declare") == 0 && t == PZJ_TRUE) {
            a->kind = PZ_ACT_DECLARE;
        } else if (strcmp(key, "claim") == 0 && t == PZJ_NUMBER && r.num_kind == PZJ_NUM_INT &&
                   r.num >= 0 && r.num < PZ_MAX_PLAYERS) {
            a->kind = PZ_ACT_CLAIM;
            a->claimed = (int)r.num;
        } else if (strcmp(key, "next_hand") == 0 && t == PZJ_TRUE) {
            a->kind = PZ_ACT_NEXT_HAND;
        } else {
            return -1;
        }
    }
    return pzj_next(&r) == PZJ_END && (int)a->kind >= 0 ? 0 : -1;
}

render_names wg_names(const wgame *w)
{
    render_names n = {.players = w->nseats, .prefix = ""}; /* no chat commands */
    for (int i = 0; i < w->nseats; i++)
        n.nick[i] = w->mark[i];
    return n;
}

bool wg_shown(const wgame *w, const wg_line *l)
{
    return w->ended || l->board || l->hand == w->hand;
}

/* ---- the replay --------------------------------------------------------- */

typedef struct replay {
    wgame *w;
    int score[PZ_MAX_SIDES];
    int hand, deal; /* the deal under way */
    bool failed;
} replay;

static void add_line(replay *r, bool board, const char *text)
{
    wgame *w = r->w;
    if (w->nlines == w->nlines_cap) {
        int cap = w->nlines_cap ? 2 * w->nlines_cap : 64;
        wg_line *l = realloc(w->line, (size_t)cap * sizeof *l);
        if (l == NULL) {
            r->failed = true;
            return;
        }
        w->line = l;
        w->nlines_cap = cap;
    }
    wg_line *l = &w->line[w->nlines++];
    l->hand = r->hand;
    l->deal = r->deal;
    l->board = board;
    snprintf(l->text, sizeof l->text, "%s", text);
}

/* The scores at the end of the deal under way. */
static void add_point(replay *r)
{
    wgame *w = r->w;
    if (r->hand == 0)
        return;
    if (w->npoints == w->npoints_cap) {
        int cap = w->npoints_cap ? 2 * w->npoints_cap : 32;
        wg_point *p = realloc(w->point, (size_t)cap * sizeof *p);
        if (p == NULL) {
            r->failed = true;
            return;
        }
        w->point = p;
        w->npoints_cap = cap;
    }
    wg_point *p = &w->point[w->npoints++];
    p->hand = r->hand;
    p->deal = r->deal;
    memcpy(p->score, r->score, sizeof p->score);
}

/* Renders events [from, to) of ev as the room read them. */
static void add_events(replay *r, const pz_events *ev, int from, int to)
{
    if (from >= to)
        return;
    pz_events *part = malloc(sizeof *part);
    render_lines *out = malloc(sizeof *out);
    if (part == NULL || out == NULL) {
        free(part);
        free(out);
        r->failed = true;
        return;
    }
    part->n = to - from;
    memcpy(part->ev, &ev->ev[from], (size_t)part->n * sizeof part->ev[0]);
    out->n = 0;
    render_names names = wg_names(r->w);
    render_events(r->w->g, &names, part, out);
    for (int i = 0; i < out->n; i++)
        add_line(r, false, out->line[i]);
    free(part);
    free(out);
}

/* One action's events: split at each deal (a new deal's lines are its
   own), scores followed, the board added at a hand's end. */
static void take_events(replay *r, const pz_events *ev)
{
    int from = 0;
    bool hand_over = false;
    for (int i = 0; i < ev->n; i++) {
        const pz_event *e = &ev->ev[i];
        if (e->kind == PZ_EV_DEAL) {
            add_events(r, ev, from, i);
            from = i;
            add_point(r);
            if (e->deal == 1)
                r->hand++;
            r->deal = e->deal;
        } else if (e->kind == PZ_EV_SCORE && e->side >= 0 && e->side < PZ_MAX_SIDES) {
            r->score[e->side] = e->total;
        } else if (e->kind == PZ_EV_HAND_END || e->kind == PZ_EV_GAME_END) {
            hand_over = true;
            if (e->kind == PZ_EV_GAME_END)
                r->w->end_reason = e->reason;
        }
    }
    add_events(r, ev, from, ev->n);
    if (hand_over) {
        render_lines *out = malloc(sizeof *out);
        if (out == NULL) {
            r->failed = true;
            return;
        }
        out->n = 0;
        render_names names = wg_names(r->w);
        render_board(r->w->g, &names, out);
        for (int i = 0; i < out->n; i++)
            add_line(r, true, out->line[i]);
        free(out);
    }
}

/* The options and first dealer from the game's settings words (the host's
   "key=value" words, then the engine's options). */
static void read_settings(wgame *w)
{
    pz_options_default(&w->opt);
    w->dealer = 0;
    for (const char *p = w->row.settings; *p != '\0'; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        char word[96];
        if (len < sizeof word) {
            memcpy(word, p, len);
            word[len] = '\0';
            char *eq = strchr(word, '=');
            if (eq != NULL) {
                *eq = '\0';
                if (strcmp(word, "dealer") == 0)
                    w->dealer = atoi(eq + 1);
                else
                    (void)pz_options_set(&w->opt, word, eq + 1, NULL, 0);
            }
        }
        p += len;
    }
}

typedef struct act_walk {
    replay *r;
    int seq;
    int next_hands; /* next_hand actions applied so far */
} act_walk;

/* Keeps a hand's seed and commitment (store_hand_each's callback), in
   order, with the server's check of one against the other. */
static int keep_hand(void *arg, int hand, uint64_t seed, const char *digest)
{
    wgame *w = arg;
    if (hand != w->nhands + 1)
        return -1; /* a gap in the hands: the replay would deal wrong */
    if (w->nhands == w->nhands_cap) {
        int cap = w->nhands_cap ? 2 * w->nhands_cap : 16;
        wg_hand *more = realloc(w->fair_hand, (size_t)cap * sizeof *more);
        if (more == NULL)
            return -1;
        w->fair_hand = more;
        w->nhands_cap = cap;
    }
    wg_hand *h = &w->fair_hand[w->nhands++];
    h->seed = seed;
    if (pzf_commit(seed, w->salt, h->commit) != 0)
        return -1;
    h->checked = digest[0] != '\0';
    /* hand 1 was dealt from the game's seed: the seed shown must be it */
    h->verified =
        (!h->checked || strcmp(h->commit, digest) == 0) && (hand != 1 || seed == w->row.seed);
    if (h->checked)
        snprintf(h->commit, sizeof h->commit, "%s", digest); /* what was sealed */
    return 0;
}

static int on_action(void *arg, int seq, const char *json)
{
    act_walk *aw = arg;
    replay *r = aw->r;
    pz_action a;
    pz_events *ev = malloc(sizeof *ev);
    char why[PZ_WHY_MAX];
    if (ev == NULL || seq != aw->seq || wg_parse_action(json, &a) != 0) {
        free(ev);
        return -1;
    }
    ev->n = 0;
    pz_card pack[PZ_CARDS];
    if (a.kind == PZ_ACT_NEXT_HAND && ++aw->next_hands < r->w->nhands) {
        /* dealt from a seed of its own, as the host dealt it (act.c);
           a game from before fair deals has none */
        pz_shuffle(r->w->fair_hand[aw->next_hands].seed, pack);
        a = pz_act_next_hand(pack);
    }
    int rc = pz_apply(r->w->g, &a, ev, why, sizeof why);
    if (rc == 0)
        take_events(r, ev);
    free(ev);
    aw->seq++;
    return rc == 0 ? 0 : -1;
}

int wg_load(store *st, int64_t id, wgame *w)
{
    memset(w, 0, sizeof *w);
    if (store_game_get(st, id, &w->row) != 0)
        return -1;
    if (w->row.status == STORE_LOBBY || w->row.state == NULL ||
        store_seats_get(st, id, w->seat, PZ_MAX_PLAYERS, &w->nseats) != 0 || w->nseats < 2) {
        wg_free(w);
        return -1;
    }
    for (int i = 0; i < w->nseats; i++)
        wb_mark(w->seat[i].nick, w->mark[i], sizeof w->mark[i]);
    w->end_reason = -1;
    read_settings(w);
    w->ended = w->row.status == STORE_FINISHED || w->row.status == STORE_STOPPED;
    pz_setup s;
    pz_setup_default(&s);
    s.players = w->nseats;
    s.options = w->opt;
    s.dealer = w->dealer;
    s.seed = w->row.seed;
    pz_events *ev = malloc(sizeof *ev);
    replay r = {.w = w};
    char why[PZ_WHY_MAX];
    if (ev == NULL || (ev->n = 0, pz_new(&w->g, &s, ev, why, sizeof why)) != 0) {
        free(ev);
        wg_free(w);
        return -1;
    }
    w->sides = pz_get_sides(w->g);
    take_events(&r, ev);
    free(ev);
    act_walk aw = {.r = &r};
    bool sealed = false;
    int rc = store_fair_get(st, id, w->salt, &sealed);
    w->fair = rc == 0;
    if (rc == STORE_NOT_FOUND) /* from before fair deals */
        rc = 0;
    if (rc == 0 && w->fair)
        rc = store_hand_each(st, id, keep_hand, w);
    if (rc == 0)
        rc = store_action_each(st, id, on_action, &aw);
    if (rc != 0 || r.failed) {
        wg_free(w);
        return -1;
    }
    add_point(&r); /* the last deal, or the one under way */
    w->actions = aw.seq;
    w->hand = r.hand;
    render_names names = wg_names(w);
    for (int side = 0; side < w->sides; side++)
        render_side(w->g, &names, side, w->side_name[side], sizeof w->side_name[side]);
    return r.failed ? (wg_free(w), -1) : 0;
}

void wg_free(wgame *w)
{
    store_game_fini(&w->row);
    pz_free(w->g);
    free(w->line);
    free(w->point);
    free(w->fair_hand);
    memset(w, 0, sizeof *w);
}
