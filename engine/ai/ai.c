/*
 * ai.c — pzai_decide(), the computer players' one entry point: it checks
 * that its inputs are a seat's view of a game in progress and the hand's
 * public record, makes the claims and declarations every level makes the
 * same way (manual mode, R3.2, R3.6), and asks the level for the seat's
 * tendido choice, arrangement or play. Also the level names.
 *
 * Not here: sampling (ai_sample.c), evaluation (ai_eval.c), the levels
 * (ai_beginner.c, ai_greedy.c, ai_expert.c, ai_strong.c).
 */
#include "ai_int.h"

static const char *const NAMES[PZAI_LEVELS] = {"beginner", "greedy", "expert", "strong"};

/* The level's name, "unknown" out of range. */
const char *pzai_level_name(pzai_level level)
{
    return (unsigned)level < PZAI_LEVELS ? NAMES[level] : "unknown";
}

/* ASCII lower case, whatever the locale. */
static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Parses a level name, case-insensitive; 0 and *out, or -1. */
int pzai_level_parse(const char *name, pzai_level *out)
{
    for (int l = 0; name != NULL && l < PZAI_LEVELS; l++) {
        const char *a = name, *b = NAMES[l];
        while (*a != '\0' && *b != '\0' && lower(*a) == *b)
            a++, b++;
        if (*a == '\0' && *b == '\0') {
            *out = (pzai_level)l;
            return 0;
        }
    }
    return -1;
}

/* True when the n cards are all cards. */
static bool cards_ok(const pz_card *cards, int n, int max)
{
    if (n < 0 || n > max)
        return false;
    for (int i = 0; i < n; i++)
        if (cards[i] >= PZ_CARDS)
            return false;
    return true;
}

/* Checks the view's ranges (what the code below indexes or shifts by). */
static bool view_ok(const pz_view *v)
{
    if (v->players < PZ_MIN_PLAYERS || v->players > PZ_MAX_PLAYERS || v->seat < 0 ||
        v->seat >= v->players || v->dealer < 0 || v->dealer >= v->players ||
        (unsigned)v->phase > PZ_PHASE_GAME_OVER || v->stock < 0 || v->stock > PZ_CARDS ||
        pz_options_check(&v->options, v->players, NULL, 0) != 0 ||
        v->sides != (v->options.partnerships ? v->players / 2 : v->players) ||
        v->side != (v->options.partnerships ? v->seat % v->sides : v->seat))
        return false;
    if (!cards_ok(v->table, v->ntable, PZ_CARDS) || !cards_ok(v->hand, v->nhand, PZ_CARDS) ||
        (v->ntendido != 0 && v->ntendido != 4) || !cards_ok(v->tendido, v->ntendido, 4))
        return false;
    for (int s = 0; s < v->players; s++)
        if (v->hand_count[s] < 0 || v->hand_count[s] > PZ_CARDS)
            return false;
    return v->hand_hidden || v->nhand == v->hand_count[v->seat];
}

/* Checks the record's ranges. */
static bool record_ok(const pz_view *v, const pz_record *r)
{
    uint64_t masks = r->gone | r->shown;
    for (int s = 0; s < PZ_MAX_PLAYERS; s++) {
        masks |= r->played[s] | r->played_prev[s];
        if (r->declared[s] > PZ_HOLD_FOUR || r->declared_prev[s] > PZ_HOLD_FOUR ||
            r->held_prev[s] > PZ_HOLD_FOUR || r->held_prev_rank[s] >= PZ_RANKS)
            return false;
    }
    return (masks & ~PZAI_ALL_CARDS) == 0 && r->last_capturer >= -1 &&
           r->last_capturer < v->players && cards_ok(r->pending_cards, r->npending, 16) &&
           r->pending_last_rank >= 0 && r->pending_last_rank < PZ_RANKS;
}

/* The value of a holding (R1.6). */
static int holding_value(int kind, int rank)
{
    return kind == PZ_HOLD_FOUR      ? pz_four_value(rank)
           : kind == PZ_HOLD_RONDINE ? pz_rondine_value(rank)
           : kind == PZ_HOLD_RONDA   ? pz_ronda_value(rank)
                                     : 0;
}

/* Claims and declarations; see ai_int.h. */
int pzai__claim_or_declare(const pz_view *v, const pz_record *r, pz_action *out)
{
    if (v->options.declarations != PZ_DECL_MANUAL || v->phase == PZ_PHASE_GAME_OVER)
        return 0;
    int best = -1, best_value = 0;
    for (int t = 0; r->claim_open && t < v->players; t++) {
        int side = v->options.partnerships ? t % v->sides : t;
        int value = holding_value(r->held_prev[t], r->held_prev_rank[t]);
        if (side != v->side && value > best_value && r->declared_prev[t] == PZ_HOLD_NONE &&
            !r->claimed_prev[t])
            best = t, best_value = value;
    }
    if (best >= 0) {
        *out = pz_act_claim(v->seat, best);
        return 1;
    }
    if (v->may_declare) {
        *out = pz_act_declare(v->seat);
        return 1;
    }
    return 0;
}

/* The beginner, first to play with a holding to declare (manual mode),
   forgets to now and then and plays at once: the declaration is lost and
   the other sides may claim it (R3.6). Drawn from the seed. */
static bool beginner_forgets(const pz_view *v, pzai_level level, uint64_t seed)
{
    return level == PZAI_BEGINNER && v->phase == PZ_PHASE_PLAY && v->turn == v->seat &&
           pzai__splitmix(&seed) % 4 == 0;
}

/* Chooses seat v->seat's action; see porrazo_ai.h. */
int pzai_decide(const pz_view *v, const pz_record *r, pzai_level level, uint64_t seed,
                const pzai_budget *budget, pz_action *out)
{
    if (v == NULL || r == NULL || out == NULL || (unsigned)level >= PZAI_LEVELS || !view_ok(v) ||
        !record_ok(v, r))
        return PZ_EINVALID_ACTION;
    if (v->phase == PZ_PHASE_GAME_OVER)
        return 0; /* nothing to do, ever again */
    pz_action a;
    if (pzai__claim_or_declare(v, r, &a) &&
        !(a.kind == PZ_ACT_DECLARE && beginner_forgets(v, level, seed))) {
        *out = a;
        return 1;
    }
    bool acts = v->turn == v->seat &&
                (v->phase == PZ_PHASE_TENDIDO_CHOICE || v->phase == PZ_PHASE_ARRANGE ||
                 (v->phase == PZ_PHASE_PLAY && v->nhand > 0));
    if (!acts)
        return 0;
    int rc;
    switch (level) {
    case PZAI_BEGINNER:
        rc = pzai__beginner(v, r, seed, budget, &a);
        break;
    case PZAI_GREEDY:
        rc = pzai__greedy(v, r, seed, budget, &a);
        break;
#ifdef PZAI_HAVE_STRONG
    case PZAI_STRONG:
        rc = pzai__strong(v, r, seed, budget, &a);
        break;
#endif
    default:
        rc = pzai__expert(v, r, seed, budget, &a);
        break;
    }
    if (rc == 1)
        *out = a;
    return rc;
}
