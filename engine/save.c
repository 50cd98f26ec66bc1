/*
 * save.c — saved games: pz_save() writes the whole state of a game as one
 * compact JSON document, version 1, and pz_restore() (restore.c) rebuilds
 * a game from such a document, refusing anything it would not have written.
 *
 * One table per JSON object (the game, its options, a holding) lists each
 * member's name, kind, range and place in struct pz_game; the writer and the
 * reader both walk these tables, so the two cannot drift apart and the
 * member order (hence the bytes) is fixed. Words come from the engine's name
 * functions (pz_phase_name, ...), options go through pz_options_set(), cards
 * are canonical two-character strings run together ("7HKS2C"), and the
 * generator's state is four 16-digit hex strings. Not here: reading
 * (restore.c), the packed form of the same tables (pack.c), the JSON
 * grammar (json.c) and the rules.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "save_int.h"

#define F(name, kind, lo, hi, off, aux)                                                            \
    {                                                                                              \
        name, (unsigned char)(sizeof name - 1), kind, lo, hi, off, aux                             \
    }
#define G(member) offsetof(struct pz_game, member)
#define H(member) offsetof(pz_holding, member)

/* The game object, in the order written. "porrazo" must come first. */
const field pz__save_top[SAVE_NTOP] = {
    F("porrazo", K_VERSION, 0, 0, 0, 0),
    F("options", K_OPTIONS, 0, 0, G(opt), 0),
    F("players", K_U8, PZ_MIN_PLAYERS, PZ_MAX_PLAYERS, G(players), 0),
    F("phase", K_WORD, 0, PZ_PHASE_GAME_OVER, G(phase), W_PHASE),
    F("dealer", K_U8, 0, PZ_MAX_PLAYERS - 1, G(dealer), 0),
    F("deal", K_U8, 1, 8, G(deal), 0), /* D is 8 at most (R2.3) */
    F("turn", K_I8, -1, PZ_MAX_PLAYERS - 1, G(turn), 0),
    F("tendido_done", K_FLAG, 0, 1, G(tendido_done), 0),
    F("r3_off", K_FLAG, 0, 1, G(r3_off), 0),
    F("winner", K_I8, -1, PZ_MAX_SIDES - 1, G(winner), 0),
    F("last_capturer", K_I8, -1, PZ_MAX_PLAYERS - 1, G(last_capturer), 0),
    F("first_play_done", K_FLAG, 0, 1, G(first_play_done), 0),
    F("claim_open", K_FLAG, 0, 1, G(claim_open), 0),
    F("scores", K_SCORES, 0, INT16_MAX, G(score), 0),
    F("piles", K_PILES, 0, PZ_CARDS, G(pile), 0),
    F("has_last_play", K_FLAG, 0, 1, G(has_last), 0),
    F("last_play_seat", K_I8, -1, PZ_MAX_PLAYERS - 1, G(last_seat), 0),
    F("last_play_card", K_CARD, 0, 0, G(last_card), 0),
    F("last_play_captured", K_FLAG, 0, 1, G(last_captured), 0),
    F("pending", K_WORD, 0, PZ_PENDING_COUNTER, G(pend_kind), W_PENDING),
    F("pending_seat", K_I8, -1, PZ_MAX_PLAYERS - 1, G(pend_seat), 0),
    F("pending_rank", K_RANK, 0, 0, G(pend_rank), 0),
    F("pending_limpia", K_FLAG, 0, 1, G(pend_limpia), 0),
    F("pending_last_rank", K_RANK, 0, 0, G(pend_last_rank), 0),
    F("pending_cards", K_CARDS, 0, 16, G(pend_cards), G(pend_n)),
    F("table", K_CARDS, 0, PZ_CARDS, G(table), G(ntable)),
    F("stock", K_CARDS, 0, PZ_CARDS, G(stock), G(nstock)),
    F("tendido", K_CARDS, 0, 4, G(tendido), G(ntendido)),
    F("hands", K_HANDS, 0, PZ_CARDS, G(hand), 0),
    F("won", K_WON, 0, 0, G(won), 0),
    F("holdings", K_HOLDINGS, 0, 0, G(hold), 0),
    F("previous_holdings", K_HOLDINGS, 0, 0, G(prev), 0),
    F("played", K_PLAYED, 0, 0, G(played), 0),
    F("played_before", K_PLAYED, 0, 0, G(played_prev), 0),
    F("rng", K_RNG, 0, 0, G(rng), 0),
};

/* The options object, R9 names in R9 order; lo is the JSON type wanted, hi
   the option's highest value as a number (its lowest is 0). */
const field pz__save_options[SAVE_NOPTIONS] = {
    F("target", K_OPTION, PZJ_NUMBER, PZ_TARGET_MAX, 0, OPT_TARGET),
    F("wrap", K_OPTION, PZJ_TRUE, 1, 0, OPT_WRAP),
    F("declarations", K_OPTION, PZJ_STRING, PZ_DECL_SILENT, 0, OPT_DECL),
    F("tendido", K_OPTION, PZJ_STRING, PZ_TENDIDO_LAST, 0, OPT_TENDIDO),
    F("odd_leftover", K_OPTION, PZJ_STRING, PZ_LEFTOVER_DEAL, 0, OPT_LEFTOVER),
    F("final_sweep", K_OPTION, PZJ_STRING, PZ_SWEEP_DEALER, 0, OPT_SWEEP),
    F("card_score", K_OPTION, PZJ_STRING, PZ_CARD_SCORE_EXCESS26, 0, OPT_CARD_SCORE),
    F("partnerships", K_OPTION, PZJ_TRUE, 1, 0, OPT_PARTNERS),
};

/* One holding object (R3.1). */
const field pz__save_holding[SAVE_NHOLDING] = {
    F("kind", K_WORD, 0, PZ_HOLD_FOUR, H(kind), W_HOLDING),
    F("rank", K_RANK, 0, 0, H(rank), 0),
    F("declared", K_FLAG, 0, 1, H(declared), 0),
    F("claimed", K_FLAG, 0, 1, H(claimed), 0),
};

const char *pz__save_word(size_t set, int v)
{
    switch (set) {
    case W_PHASE:
        return pz_phase_name((pz_phase)v);
    case W_PENDING:
        return pz_pending_name((pz_pending_kind)v);
    default:
        return pz_holding_name((pz_holding_kind)v);
    }
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

/* Appends a quoted string of n cards, run together ("7HKS2C"). */
static void put_cards(pzj_out *o, const pz_card *cards, size_t n)
{
    char b[2 * PZ_CARDS + 2], card[3];
    size_t k = 0;
    b[k++] = '"';
    for (size_t i = 0; i < n && i < PZ_CARDS; i++) {
        pz_card_format(cards[i], card);
        b[k++] = card[0];
        b[k++] = card[1];
    }
    b[k++] = '"';
    pzj_put(o, b, k);
}

int pz__save_option_value(const pz_options *o, size_t opt)
{
    switch (opt) {
    case OPT_TARGET:
        return o->target;
    case OPT_WRAP:
        return o->wrap;
    case OPT_DECL:
        return (int)o->declarations;
    case OPT_TENDIDO:
        return (int)o->tendido;
    case OPT_LEFTOVER:
        return (int)o->odd_leftover;
    case OPT_SWEEP:
        return (int)o->final_sweep;
    case OPT_CARD_SCORE:
        return (int)o->card_score;
    default:
        return o->partnerships;
    }
}

const char *pz__save_option_text(size_t opt, int v, char b[16])
{
    switch (opt) {
    case OPT_TARGET: {
        int n = snprintf(b, 16, "%d", v);
        return n > 0 && n < 16 ? b : "0";
    }
    case OPT_WRAP:
    case OPT_PARTNERS:
        return v ? "true" : "false";
    case OPT_DECL:
        return pz_declarations_name((pz_declarations)v);
    case OPT_TENDIDO:
        return pz_tendido_name((pz_tendido_mode)v);
    case OPT_LEFTOVER:
        return pz_leftover_name((pz_leftover_mode)v);
    case OPT_SWEEP:
        return pz_sweep_name((pz_sweep_mode)v);
    default:
        return pz_card_score_name((pz_card_score_mode)v);
    }
}

/* Appends s between double quotes (s needs no escaping). */
static void put_quoted(pzj_out *o, const char *s)
{
    pzj_put(o, "\"", 1);
    pzj_put_str(o, s);
    pzj_put(o, "\"", 1);
}

static void put_object(pzj_out *o, const field *t, int n, const void *base,
                       const struct pz_game *g);

/* Appends a card mask as the string of its cards in card order. */
static void put_won(pzj_out *o, uint64_t won)
{
    pz_card cards[PZ_CARDS];
    size_t n = 0;
    for (int c = 0; c < PZ_CARDS; c++)
        if (won >> c & 1)
            cards[n++] = (pz_card)c;
    put_cards(o, cards, n);
}

/* Appends the generator state as four 16-digit lowercase hex strings. */
static void put_rng(pzj_out *o, const pz_rng *rng)
{
    static const char hex[] = "0123456789abcdef";
    char b[4 * 19 + 1];
    size_t k = 0;
    b[k++] = '[';
    for (int i = 0; i < 4; i++) {
        b[k++] = '"';
        for (int d = 15; d >= 0; d--)
            b[k++] = hex[rng->s[i] >> (4 * d) & 15];
        b[k++] = '"';
        b[k++] = i < 3 ? ',' : ']';
    }
    pzj_put(o, b, k);
}

/* Appends the per-seat or per-side array of a member of g (n entries). */
static void put_array(pzj_out *o, const field *f, const struct pz_game *g, int n)
{
    pzj_put(o, "[", 1);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            pzj_put(o, ",", 1);
        if (f->kind == K_HANDS)
            put_cards(o, g->hand[i], g->nhand[i]);
        else if (f->kind == K_SCORES)
            pzj_put_int(o, g->score[i]);
        else if (f->kind == K_PILES)
            pzj_put_int(o, g->pile[i]);
        else if (f->kind == K_PLAYED)
            put_won(o, ((const uint64_t *)((const char *)g + f->off))[i]);
        else
            put_object(o, pz__save_holding, SAVE_NHOLDING,
                       (const pz_holding *)((const char *)g + f->off) + i, g);
    }
    pzj_put(o, "]", 1);
}

/* Appends the value of member f of base (g is the whole game). */
static void put_value(pzj_out *o, const field *f, const void *base, const struct pz_game *g)
{
    const unsigned char *v = (const unsigned char *)base + f->off;
    int seats = g->players < PZ_MAX_PLAYERS ? g->players : PZ_MAX_PLAYERS;
    int sides = g->sides < PZ_MAX_SIDES ? g->sides : PZ_MAX_SIDES;
    switch (f->kind) {
    case K_VERSION:
        pzj_put_int(o, SAVE_VERSION);
        break;
    case K_OPTIONS:
        put_object(o, pz__save_options, SAVE_NOPTIONS, v, g);
        break;
    case K_OPTION: {
        char b[16];
        const char *text = pz__save_option_text(f->aux, pz__save_option_value(base, f->aux), b);
        if (f->lo == PZJ_STRING)
            put_quoted(o, text);
        else
            pzj_put_str(o, text); /* the target's digits, true or false */
        break;
    }
    case K_U8:
        pzj_put_int(o, *v);
        break;
    case K_I8:
        pzj_put_int(o, *(const int8_t *)v);
        break;
    case K_FLAG:
        pzj_put_str(o, *v ? "true" : "false");
        break;
    case K_WORD:
        put_quoted(o, pz__save_word(f->aux, *v));
        break;
    case K_RANK: {
        char b[3] = {'"', pz_rank_char(*v), '"'};
        pzj_put(o, b, 3);
        break;
    }
    case K_CARD:
        if (*v == PZ_NO_CARD)
            pzj_put_str(o, "null");
        else
            put_cards(o, v, 1);
        break;
    case K_CARDS: {
        size_t n = *((const unsigned char *)base + f->aux);
        put_cards(o, v, n < (size_t)f->hi ? n : (size_t)f->hi);
        break;
    }
    case K_WON:
        put_won(o, g->won);
        break;
    case K_RNG:
        put_rng(o, &g->rng);
        break;
    case K_SCORES:
    case K_PILES:
        put_array(o, f, g, sides);
        break;
    default: /* K_HANDS, K_HOLDINGS, K_PLAYED */
        put_array(o, f, g, seats);
        break;
    }
}

/* Appends an object with the members of table t, read from base. */
static void put_object(pzj_out *o, const field *t, int n, const void *base, const struct pz_game *g)
{
    for (int i = 0; i < n; i++) {
        pzj_put(o, i == 0 ? "{\"" : ",\"", 2);
        pzj_put(o, t[i].name, t[i].len);
        pzj_put(o, "\":", 2);
        put_value(o, &t[i], base, g);
    }
    pzj_put(o, "}", 1);
}

int pz__save_out(const char *doc, size_t n, int full, char *buf, size_t cap)
{
    if (full || buf == NULL || cap < n + 1)
        return PZ_ENO_SPACE;
    memcpy(buf, doc, n);
    buf[n] = '\0';
    return (int)n;
}

void pz__save_why(char *why, size_t why_len, const char *prefix, const char *outer, int index,
                  const char *name, const char *what)
{
    if (name == NULL)
        pz__why(why, why_len, "%s%s", prefix, what);
    else if (outer == NULL && index < 0)
        pz__why(why, why_len, "%sfield '%s': %s", prefix, name, what);
    else if (outer == NULL)
        pz__why(why, why_len, "%sfield '%s[%d]': %s", prefix, name, index, what);
    else if (index < 0)
        pz__why(why, why_len, "%sfield '%s.%s': %s", prefix, outer, name, what);
    else
        pz__why(why, why_len, "%sfield '%s[%d].%s': %s", prefix, outer, index, name, what);
}

/*
 * Writes g as a version 1 document and a NUL into buf. Returns the length
 * without the NUL, or PZ_ENO_SPACE (buf untouched) when cap is too small.
 */
int pz_save(const pz_game *g, char *buf, size_t cap)
{
    char doc[PZ_SAVE_MAX];
    pzj_out o = {doc, doc + sizeof doc - 1, 0};
    put_object(&o, pz__save_top, SAVE_NTOP, g, g);
    return pz__save_out(doc, (size_t)(o.p - doc), o.full, buf, cap);
}
