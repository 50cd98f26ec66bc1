/*
 * scenario.c — porrazo-replay's run: read, check and play one scenario
 * (shared/spec/REPLAY.md).
 *
 * pzr_run() parses the text with json-c in strict mode, then checks the
 * whole scenario before the game starts (values.c reads each value): known
 * keys only, JSON types, exactly one of deck/seed/position, cards that
 * parse and appear once, and every action's shape. Only when all of it is
 * well formed does it create the game and play the actions (render.c
 * prints what happens), so a malformed scenario writes nothing to the
 * output. The actions are read twice, once to check them and once to play
 * them, by the same function, so they need no second copy in memory.
 *
 * This file knows the scenario format and nothing of the rules: whether a
 * play is legal, a position consistent or an option combination allowed is
 * the engine's to say, through porrazo.h only. A refused action is not a
 * malformed scenario; a refused set-up or position is.
 */
#include "scenario.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "porrazo.h"
#include "render.h"
#include "values.h"

/* One action as the engine takes it; pack is used when has_pack. */
typedef struct pzr_act {
    pz_action a;
    bool has_pack;
    pz_card pack[PZ_CARDS];
} pzr_act;

/* Everything of a scenario but its actions, checked. */
typedef struct pzr_scn {
    pz_setup setup;
    int sides;
    bool has_deck, has_seed, has_position;
    pz_card deck[PZ_CARDS];
    pz_position pos;
    pzr_seen seen; /* the cards of deck and position */
} pzr_scn;

/* Why a line could not be printed (see render.h). */
#define PRINT_FAILED                                                                               \
    "cannot write the output (a write error, or an event this "                                    \
    "porrazo-replay does not know)"

enum pzr_verb { V_PLAY, V_TENDIDO, V_ARRANGE, V_DECLARE, V_CLAIM, V_NEXT_HAND };

/* "fairness" is a game record's (FAIRNESS.md): checked by --verify
   (verify.c), left alone by a plain run. */
static const char *const top_keys[] = {"players", "options",  "dealer",  "scores",   "deck",
                                       "seed",    "position", "actions", "fairness", NULL};
static const char *const option_keys[] = {"target",     "wrap",         "declarations",
                                          "tendido",    "odd_leftover", "final_sweep",
                                          "card_score", "partnerships", NULL};
static const char *const position_keys[] = {
    "table",        "hands",     "stock", "turn",          "deal",
    "tendido_done", "last_play", "piles", "last_capturer", NULL};
static const char *const last_play_keys[] = {"seat", "card", "captured", NULL};
static const char *const action_keys[] = {"seat",      "play",      "mode",    "tendido",
                                          "arrange",   "direction", "declare", "claim",
                                          "next_hand", "deck",      NULL};
/* In enum pzr_verb order. */
static const char *const verbs[] = {"play",  "tendido",   "arrange", "declare",
                                    "claim", "next_hand", NULL};

/* ------------------------------------------------------------------------ */
/* Players, options, dealer, scores, seed                                   */

/*
 * Sets the option name (a key of R9) from the JSON value v: target an
 * integer, wrap and partnerships booleans, the others their value words.
 * The engine's pz_options_set() judges the value.
 */
static int read_option(pzr_msg *m, pz_options *o, const char *name, json_object *v)
{
    char path[PZR_PATH_MAX], word[16], why[PZ_WHY_MAX];
    const char *value = word;
    pzr_path_key(path, sizeof path, "options", name);
    if (strcmp(name, "target") == 0) {
        int t = 0;
        if (pzr_get_int(m, v, path, 1, PZ_TARGET_MAX, &t) < 0)
            return -1;
        int n = snprintf(word, sizeof word, "%d", t);
        if (n < 0 || (size_t)n >= sizeof word)
            return pzr_fail_internal(m, "cannot format the target");
    } else if (strcmp(name, "wrap") == 0 || strcmp(name, "partnerships") == 0) {
        bool b = false;
        if (pzr_get_bool(m, v, path, &b) < 0)
            return -1;
        value = b ? "true" : "false";
    } else {
        if (!json_object_is_type(v, json_type_string) ||
            strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
            return pzr_fail(m, "%s must be a string", path);
        value = json_object_get_string(v);
    }
    why[0] = '\0';
    if (pz_options_set(o, name, value, why, sizeof why) != 0)
        return pzr_fail(m, "%s: %s", path, why[0] ? why : "value refused");
    return 0;
}

/* Reads "options" (absent: R9's defaults) and checks them for the players. */
static int read_options(pzr_msg *m, json_object *root, pz_setup *s)
{
    json_object *v = NULL;
    if (json_object_object_get_ex(root, "options", &v)) {
        if (pzr_check_object(m, v, "options", option_keys) < 0)
            return -1;
        struct json_object_iterator it = json_object_iter_begin(v);
        struct json_object_iterator end = json_object_iter_end(v);
        for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it))
            if (read_option(m, &s->options, json_object_iter_peek_name(&it),
                            json_object_iter_peek_value(&it)) < 0)
                return -1;
    }
    char why[PZ_WHY_MAX] = "";
    if (pz_options_check(&s->options, s->players, why, sizeof why) != 0)
        return pzr_fail(m, "options: %s", why[0] ? why : "refused by the engine");
    return 0;
}

/* Reads players (required, 2..8), options, dealer and scores into *s. */
static int read_table(pzr_msg *m, json_object *root, pzr_scn *s)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(root, "players", &v))
        return pzr_fail(m, "\"players\" is required (2 to 8)");
    if (pzr_get_int(m, v, "players", PZ_MIN_PLAYERS, PZ_MAX_PLAYERS, &s->setup.players) < 0)
        return -1;
    if (read_options(m, root, &s->setup) < 0)
        return -1;
    s->sides = s->setup.options.partnerships ? s->setup.players / 2 : s->setup.players;
    s->setup.dealer = 0;
    if (json_object_object_get_ex(root, "dealer", &v) &&
        pzr_get_any_int(m, v, "dealer", &s->setup.dealer) < 0)
        return -1;
    if (json_object_object_get_ex(root, "scores", &v)) {
        if (pzr_get_ints(m, v, "scores", s->sides, s->setup.scores) < 0)
            return -1;
        s->setup.has_scores = true;
    }
    return 0;
}

/* Reads "seed": an integer from 0 to 2^64 - 1. */
static int read_seed(pzr_msg *m, json_object *v, pz_setup *s)
{
    if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
        return pzr_fail(m, "seed must be an integer from 0 to %" PRIu64, UINT64_MAX);
    s->seed = json_object_get_uint64(v);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Position                                                                 */

/* Reads position.last_play {seat, card, captured}, all three required. */
static int read_last_play(pzr_msg *m, json_object *v, pz_position *p)
{
    const char *what = "position.last_play";
    json_object *seat = NULL, *card = NULL, *captured = NULL;
    if (pzr_check_object(m, v, what, last_play_keys) < 0)
        return -1;
    if (!json_object_object_get_ex(v, "seat", &seat) ||
        !json_object_object_get_ex(v, "card", &card) ||
        !json_object_object_get_ex(v, "captured", &captured))
        return pzr_fail(m, "%s needs \"seat\", \"card\" and \"captured\"", what);
    p->has_last_play = true;
    if (pzr_get_any_int(m, seat, "position.last_play.seat", &p->last_play_seat) < 0)
        return -1;
    if (pzr_get_card(m, card, "position.last_play.card", &p->last_play_card) < 0)
        return -1;
    return pzr_get_bool(m, captured, "position.last_play.captured", &p->last_play_captured);
}

/* Reads position.hands: one list of cards per seat. */
static int read_hands(pzr_msg *m, json_object *v, pzr_scn *s)
{
    int players = s->setup.players;
    if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) != (size_t)players)
        return pzr_fail(m, "position.hands must be a list of %d hands", players);
    for (int i = 0; i < players; i++) {
        char p[PZR_PATH_MAX];
        pzr_path_index(p, sizeof p, "position.hands", (size_t)i);
        if (pzr_get_cards(m, json_object_array_get_idx(v, (size_t)i), p, PZ_CARDS, &s->seen,
                          s->pos.hands[i], &s->pos.nhand[i]) < 0)
            return -1;
    }
    return 0;
}

/* Reads one key of "position" into s->pos. */
static int read_position_key(pzr_msg *m, const char *key, json_object *v, pzr_scn *s)
{
    pz_position *p = &s->pos;
    char path[PZR_PATH_MAX];
    pzr_path_key(path, sizeof path, "position", key);
    if (strcmp(key, "table") == 0)
        return pzr_get_cards(m, v, path, PZ_CARDS, &s->seen, p->table, &p->ntable);
    if (strcmp(key, "hands") == 0)
        return read_hands(m, v, s);
    if (strcmp(key, "stock") == 0)
        return pzr_get_cards(m, v, path, PZ_CARDS, &s->seen, p->stock, &p->nstock);
    if (strcmp(key, "turn") == 0)
        return pzr_get_any_int(m, v, path, &p->turn);
    if (strcmp(key, "deal") == 0)
        return pzr_get_any_int(m, v, path, &p->deal);
    if (strcmp(key, "tendido_done") == 0)
        return pzr_get_bool(m, v, path, &p->tendido_done);
    if (strcmp(key, "last_play") == 0)
        return read_last_play(m, v, p);
    if (strcmp(key, "piles") == 0)
        return pzr_get_ints(m, v, path, s->sides, p->piles);
    return pzr_get_any_int(m, v, path, &p->last_capturer);
}

/*
 * Reads "position" into s->pos (omitted fields keep pz_position_default()'s
 * empty values). Its consistency (stock size, turn, last play on the table)
 * is checked by pz_new_position(), not here.
 */
static int read_position(pzr_msg *m, json_object *v, pzr_scn *s)
{
    if (pzr_check_object(m, v, "position", position_keys) < 0)
        return -1;
    pz_position_default(&s->pos);
    struct json_object_iterator it = json_object_iter_begin(v);
    struct json_object_iterator end = json_object_iter_end(v);
    for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it))
        if (read_position_key(m, json_object_iter_peek_name(&it), json_object_iter_peek_value(&it),
                              s) < 0)
            return -1;
    return 0;
}

/* Reads the one source of cards: deck, seed or position. */
static int read_source(pzr_msg *m, json_object *root, pzr_scn *s)
{
    json_object *deck = NULL, *seed = NULL, *position = NULL;
    s->has_deck = json_object_object_get_ex(root, "deck", &deck);
    s->has_seed = json_object_object_get_ex(root, "seed", &seed);
    s->has_position = json_object_object_get_ex(root, "position", &position);
    int count = s->has_deck + s->has_seed + s->has_position;
    if (count != 1)
        return pzr_fail(m,
                        "a scenario has exactly one of \"deck\", \"seed\" "
                        "and \"position\"; found:%s%s%s%s",
                        count ? "" : " none", s->has_deck ? " deck" : "",
                        s->has_seed ? " seed" : "", s->has_position ? " position" : "");
    if (s->has_deck) {
        if (pzr_get_pack(m, deck, "deck", &s->seen, s->deck) < 0)
            return -1;
        s->setup.pack = s->deck;
        return 0;
    }
    if (s->has_seed)
        return read_seed(m, seed, &s->setup);
    return read_position(m, position, s);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* Finds the one verb of action v; fails with none or more than one. */
static int find_verb(pzr_msg *m, json_object *v, const char *path)
{
    int verb = -1;
    for (int i = 0; verbs[i]; i++) {
        if (!json_object_object_get_ex(v, verbs[i], NULL))
            continue;
        if (verb >= 0)
            return pzr_fail(m, "%s has two verbs, \"%s\" and \"%s\"", path, verbs[verb], verbs[i]);
        verb = i;
    }
    if (verb < 0)
        return pzr_fail(m,
                        "%s has no verb (play, tendido, arrange, declare, "
                        "claim or next_hand)",
                        path);
    return verb;
}

/*
 * Fails when action v holds a key that does not go with its verb: "mode"
 * only with play, "direction" only with an explicit arrange, "deck" only
 * with next_hand; "seat" is required by every verb but next_hand, which
 * takes none.
 */
static int check_companions(pzr_msg *m, json_object *v, const char *path, int verb)
{
    json_object *arrange = NULL;
    bool has_seat = json_object_object_get_ex(v, "seat", NULL);
    bool row = json_object_object_get_ex(v, "arrange", &arrange) &&
               json_object_is_type(arrange, json_type_array);
    if (verb == V_NEXT_HAND && has_seat)
        return pzr_fail(m, "%s: next_hand takes no \"seat\"", path);
    if (verb != V_NEXT_HAND && !has_seat)
        return pzr_fail(m, "%s needs a \"seat\"", path);
    if (verb != V_PLAY && json_object_object_get_ex(v, "mode", NULL))
        return pzr_fail(m, "%s: \"mode\" goes only with \"play\"", path);
    if (verb != V_NEXT_HAND && json_object_object_get_ex(v, "deck", NULL))
        return pzr_fail(m, "%s: \"deck\" goes only with \"next_hand\"", path);
    if (!row && json_object_object_get_ex(v, "direction", NULL))
        return pzr_fail(m, "%s: \"direction\" goes only with an arrange row", path);
    if (row && !json_object_object_get_ex(v, "direction", NULL))
        return pzr_fail(m,
                        "%s: an arrange row needs \"direction\" (\"ltr\" or "
                        "\"rtl\")",
                        path);
    return 0;
}

/* Reads {"play": card, "mode": "capture" | "place" (optional)}. */
static int read_play(pzr_msg *m, json_object *v, const char *path, pzr_act *a)
{
    static const char *const modes[] = {"capture", "place", NULL};
    char p[PZR_PATH_MAX];
    json_object *x = NULL;
    int mode = -1;
    a->a.kind = PZ_ACT_PLAY;
    a->a.mode = PZ_MODE_ANY;
    json_object_object_get_ex(v, "play", &x);
    pzr_path_key(p, sizeof p, path, "play");
    if (pzr_get_card(m, x, p, &a->a.card) < 0)
        return -1;
    if (!json_object_object_get_ex(v, "mode", &x))
        return 0;
    pzr_path_key(p, sizeof p, path, "mode");
    if (pzr_get_word(m, x, p, modes, "\"capture\" or \"place\"", &mode) < 0)
        return -1;
    a->a.mode = mode == 0 ? PZ_MODE_CAPTURE : PZ_MODE_PLACE;
    return 0;
}

/* Reads {"arrange": "best"} or {"arrange": [4 cards], "direction": ...}. */
static int read_arrange(pzr_msg *m, json_object *v, const char *path, pzr_act *a)
{
    static const char *const dirs[] = {"ltr", "rtl", NULL};
    char p[PZR_PATH_MAX];
    json_object *x = NULL;
    int n = 0, dir = 0;
    a->a.kind = PZ_ACT_ARRANGE;
    json_object_object_get_ex(v, "arrange", &x);
    pzr_path_key(p, sizeof p, path, "arrange");
    if (json_object_is_type(x, json_type_string)) {
        if (!pzr_is_word(x, "best"))
            return pzr_fail(m, "%s must be \"best\" or a row of 4 cards", p);
        a->a.best = true;
        return 0;
    }
    if (!json_object_is_type(x, json_type_array) || json_object_array_length(x) != 4)
        return pzr_fail(m, "%s must be \"best\" or a row of 4 cards", p);
    if (pzr_get_cards(m, x, p, 4, NULL, a->a.row, &n) < 0)
        return -1;
    json_object_object_get_ex(v, "direction", &x);
    pzr_path_key(p, sizeof p, path, "direction");
    if (pzr_get_word(m, x, p, dirs, "\"ltr\" or \"rtl\"", &dir) < 0)
        return -1;
    a->a.direction = dir == 0 ? PZ_LTR : PZ_RTL;
    return 0;
}

/* Reads {"next_hand": true} with an optional whole pack "deck". */
static int read_next_hand(pzr_msg *m, json_object *v, const char *path, pzr_act *a)
{
    char p[PZR_PATH_MAX];
    json_object *x = NULL;
    a->a = pz_act_next_hand(NULL);
    json_object_object_get_ex(v, "next_hand", &x);
    pzr_path_key(p, sizeof p, path, "next_hand");
    if (pzr_get_true(m, x, p) < 0)
        return -1;
    if (!json_object_object_get_ex(v, "deck", &x))
        return 0;
    pzr_seen *seen = calloc(1, sizeof *seen); /* each pack is a fresh one */
    if (!seen)
        return pzr_fail_internal(m, "out of memory");
    pzr_path_key(p, sizeof p, path, "deck");
    int rc = pzr_get_pack(m, x, p, seen, a->pack);
    free(seen);
    a->has_pack = rc == 0;
    return rc;
}

/* Reads the verb's own value (tendido, declare, claim) into *a. */
static int read_simple(pzr_msg *m, json_object *v, const char *path, int verb, pzr_act *a)
{
    static const char *const whens[] = {"now", "later", NULL};
    char p[PZR_PATH_MAX];
    json_object *x = NULL;
    int when = 0;
    json_object_object_get_ex(v, verbs[verb], &x);
    pzr_path_key(p, sizeof p, path, verbs[verb]);
    if (verb == V_TENDIDO) {
        a->a.kind = PZ_ACT_TENDIDO;
        if (pzr_get_word(m, x, p, whens, "\"now\" or \"later\"", &when) < 0)
            return -1;
        a->a.now = when == 0;
        return 0;
    }
    if (verb == V_DECLARE) {
        a->a.kind = PZ_ACT_DECLARE;
        return pzr_get_true(m, x, p);
    }
    a->a.kind = PZ_ACT_CLAIM;
    return pzr_get_any_int(m, x, p, &a->a.claimed);
}

/*
 * Reads action number i (the JSON value v) into *a, checking its whole
 * shape. a->a.pack is left NULL: the caller points it at a->pack when
 * a->has_pack, once *a is where it will stay.
 */
static int read_action(pzr_msg *m, json_object *v, size_t i, pzr_act *a)
{
    char path[PZR_PATH_MAX], p[PZR_PATH_MAX];
    json_object *seat = NULL;
    pzr_path_index(path, sizeof path, "actions", i);
    memset(a, 0, sizeof *a);
    if (pzr_check_object(m, v, path, action_keys) < 0)
        return -1;
    int verb = find_verb(m, v, path);
    if (verb < 0 || check_companions(m, v, path, verb) < 0)
        return -1;
    if (verb == V_NEXT_HAND)
        return read_next_hand(m, v, path, a);
    json_object_object_get_ex(v, "seat", &seat);
    pzr_path_key(p, sizeof p, path, "seat");
    if (pzr_get_any_int(m, seat, p, &a->a.seat) < 0)
        return -1;
    if (verb == V_PLAY)
        return read_play(m, v, path, a);
    if (verb == V_ARRANGE)
        return read_arrange(m, v, path, a);
    return read_simple(m, v, path, verb, a);
}

/* Checks every action of the list (absent: none) without keeping them. */
static int check_actions(pzr_msg *m, json_object *actions)
{
    if (!actions)
        return 0;
    size_t n = json_object_array_length(actions);
    for (size_t i = 0; i < n; i++) {
        pzr_act a;
        if (read_action(m, json_object_array_get_idx(actions, i), i, &a) < 0)
            return -1;
    }
    return 0;
}

/* Reads and checks the whole scenario tree into *s; *actions may be NULL. */
static int read_scenario(pzr_msg *m, json_object *root, pzr_scn *s, json_object **actions)
{
    if (pzr_check_object(m, root, "the scenario", top_keys) < 0)
        return -1;
    pz_setup_default(&s->setup);
    if (read_table(m, root, s) < 0 || read_source(m, root, s) < 0)
        return -1;
    *actions = NULL;
    if (json_object_object_get_ex(root, "actions", actions) &&
        !json_object_is_type(*actions, json_type_array))
        return pzr_fail(m, "actions must be a list");
    return check_actions(m, *actions);
}

/* ------------------------------------------------------------------------ */
/* Playing                                                                  */

/* True when a is a next_hand that needs a pack this scenario cannot give. */
static bool lacks_pack(const pz_game *g, const pzr_scn *s, const pzr_act *a)
{
    return a->a.kind == PZ_ACT_NEXT_HAND && !a->has_pack && !s->has_seed &&
           pz_get_phase(g) == PZ_PHASE_HAND_OVER;
}

/* Applies action number i and prints its events, or its error event. */
static int play_action(pzr_msg *m, pz_game *g, const pzr_scn *s, pzr_act *a, size_t i, FILE *out)
{
    pz_events ev;
    char why[PZ_WHY_MAX] = "";
    ev.n = 0;
    if (a->has_pack)
        a->a.pack = a->pack;
    bool no_pack = lacks_pack(g, s, a);
    int rc = no_pack ? PZ_EINVALID_ACTION : pz_apply(g, &a->a, &ev, why, sizeof why);
    if (no_pack)
        rc = pzr_print_error(out, i, rc,
                             "a pack is needed: this scenario has no seed to "
                             "shuffle with, so next_hand needs a \"deck\"");
    else if (rc < 0)
        rc = pzr_print_error(out, i, rc, why[0] ? why : pz_strerror(rc));
    else
        rc = pzr_print_events(out, g, &ev);
    return rc < 0 ? pzr_fail_internal(m, PRINT_FAILED) : 0;
}

/* Creates the game the scenario describes, printing its first deal. */
static pz_game *start_game(pzr_msg *m, const pzr_scn *s, FILE *out)
{
    pz_game *g = NULL;
    pz_events ev;
    char why[PZ_WHY_MAX] = "";
    ev.n = 0;
    int rc = s->has_position ? pz_new_position(&g, &s->setup, &s->pos, why, sizeof why)
                             : pz_new(&g, &s->setup, &ev, why, sizeof why);
    if (rc == PZ_ENO_MEMORY) {
        pzr_fail_internal(m, "out of memory");
        return NULL;
    }
    if (rc < 0) {
        pzr_fail(m, "the engine refused the %s: %s", s->has_position ? "position" : "set-up",
                 why[0] ? why : pz_strerror(rc));
        return NULL;
    }
    if (pzr_print_events(out, g, &ev) < 0) {
        pzr_fail_internal(m, PRINT_FAILED);
        pz_free(g);
        return NULL;
    }
    return g;
}

/* Plays the checked scenario: first deal, every action, the state line. */
static int play_scenario(pzr_msg *m, const pzr_scn *s, json_object *actions, FILE *out)
{
    pz_game *g = start_game(m, s, out);
    if (!g)
        return -1;
    size_t n = actions ? json_object_array_length(actions) : 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        pzr_act a;
        rc = read_action(m, json_object_array_get_idx(actions, i), i, &a);
        if (rc == 0)
            rc = play_action(m, g, s, &a, i, out);
        else
            m->internal = true; /* it was checked: this cannot happen */
    }
    if (rc == 0 && (pzr_print_state(out, g) < 0 || fflush(out) != 0 || ferror(out)))
        rc = pzr_fail_internal(m, PRINT_FAILED);
    pz_free(g);
    return rc;
}

/* See scenario.h: read, check, play, and report a malformed scenario. */
int pzr_run(const char *text, size_t len, FILE *out, FILE *err)
{
    pzr_msg m = {0};
    json_object *root = NULL, *actions = NULL;
    pzr_scn *s = calloc(1, sizeof *s);
    int rc = -1;
    if (!s)
        pzr_fail_internal(&m, "out of memory");
    else if (len > PZR_INPUT_MAX)
        pzr_fail(&m, "the scenario is larger than %zu bytes", PZR_INPUT_MAX);
    else if ((root = pzr_parse_json(&m, text, len)) != NULL &&
             read_scenario(&m, root, s, &actions) == 0)
        rc = play_scenario(&m, s, actions, out);
    json_object_put(root);
    free(s);
    if (rc == 0)
        return PZR_EXIT_OK;
    fprintf(err, "porrazo-replay: %s%s\n", m.internal ? "" : "malformed scenario: ", m.text);
    return m.internal ? PZR_EXIT_FAILURE : PZR_EXIT_MALFORMED;
}
