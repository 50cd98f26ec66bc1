/*
 * restore.c — pz_restore(): a game rebuilt from a document pz_save() wrote
 * (save.c, whose tables, save_int.h, it walks), refusing anything it would
 * not have written: syntax, version, every member there once with a value
 * of its type and range (but "played" and "played_before", which documents
 * written before the public record was kept lack: they then stay empty),
 * the derived counts recomputed (sides, D, L), then the consistency of the
 * whole (each card in one place, seats, phase) left to pz__check(). A
 * document pz_pack() wrote goes to its reader in pack.c instead, and then
 * through the same final checks. Not here: the JSON grammar (json.c), the
 * packed form (pack.c) and the rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "save_int.h"

/* A restore under way. */
typedef struct rd {
    pzj_reader j;
    struct pz_game *g;
    char *why;
    size_t why_len;
    const char *outer; /* the object being read when nested, else NULL */
    int index;         /* the array entry being read, or -1 */
    int *count;        /* entries read of each top-level array */
} rd;

static int bad(rd *c, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Records why the document is refused and returns -1: the JSON error when
 * the reader hit one, else the text, after "field 'name': " when name is
 * not NULL (with the enclosing object and array entry, "holdings[1].rank").
 */
static int bad(rd *c, const char *name, const char *fmt, ...)
{
    char what[PZ_WHY_MAX];
    va_list ap;
    if (c->j.tok == PZJ_ERROR) {
        pz__why(c->why, c->why_len, "not valid JSON at byte %zu: %s", c->j.err_pos, c->j.err);
        return -1;
    }
    va_start(ap, fmt);
    int n = vsnprintf(what, sizeof what, fmt, ap); /* cut if long: it is for people */
    va_end(ap);
    if (n < 0)
        what[0] = '\0';
    pz__save_why(c->why, c->why_len, "", c->outer, c->index, name, what);
    return -1;
}

/* Copies at most 24 bytes of s into b as printable ASCII, for messages. */
static const char *excerpt(const char *s, size_t n, char b[32])
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < 24; i++) {
        unsigned char ch = (unsigned char)s[i];
        b[k++] = ch >= 0x20 && ch < 0x7F ? (char)ch : '?';
    }
    if (n > 24) {
        memcpy(b + k, "...", 3);
        k += 3;
    }
    b[k] = '\0';
    return b;
}

/* True when the current token's text is exactly the n bytes of s. */
static int text_is(const rd *c, const char *s, size_t n)
{
    return c->j.str_len == n && memcmp(c->j.str, s, n) == 0;
}

/* Stores the current token, a whole number in [f->lo, f->hi], at *v. */
static int read_int(rd *c, const field *f, long *v)
{
    if (c->j.tok != PZJ_NUMBER || c->j.num_kind != PZJ_NUM_INT || c->j.num < f->lo ||
        c->j.num > f->hi)
        return bad(c, f->name, "must be a whole number from %d to %d", f->lo, f->hi);
    *v = (long)c->j.num;
    return 0;
}

/* Stores true or false as 1 or 0 at *v. */
static int read_flag(rd *c, const field *f, unsigned char *v)
{
    if (c->j.tok != PZJ_TRUE && c->j.tok != PZJ_FALSE)
        return bad(c, f->name, "must be true or false");
    *v = c->j.tok == PZJ_TRUE;
    return 0;
}

/* Stores the number of the word (of set f->aux, 0..f->hi) at *v. */
static int read_word(rd *c, const field *f, unsigned char *v)
{
    char list[128];
    pzj_out o = {list, list + sizeof list - 1, 0};
    for (int w = 0; w <= f->hi; w++) {
        const char *s = pz__save_word(f->aux, w);
        if (c->j.tok == PZJ_STRING && text_is(c, s, strlen(s))) {
            *v = (unsigned char)w;
            return 0;
        }
        if (w > 0)
            pzj_put_str(&o, w < f->hi ? ", " : " or ");
        pzj_put_str(&o, s);
    }
    *o.p = '\0';
    return bad(c, f->name, "must be %s", list);
}

/* Stores the rank written as its one letter at *v. */
static int read_rank(rd *c, const field *f, unsigned char *v)
{
    for (int r = 0; r < PZ_RANKS && c->j.tok == PZJ_STRING; r++) {
        char ch = pz_rank_char(r);
        if (text_is(c, &ch, 1)) {
            *v = (unsigned char)r;
            return 0;
        }
    }
    return bad(c, f->name, "must be a rank: A 2 3 4 5 6 7 8 9 T J Q K");
}

/* Parses the canonical card at s (two bytes: "7H", "TD"); 0 or -1. */
static int card_at(const char *s, pz_card *out)
{
    char canon[3];
    pz_card k;
    if (pz_card_parse(s, 2, &k) != 0)
        return -1;
    pz_card_format(k, canon);
    if (canon[0] != s[0] || canon[1] != s[1])
        return -1;
    *out = k;
    return 0;
}

/* Stores a card ("7H") or null (PZ_NO_CARD) at *v; it is not placed. */
static int read_card(rd *c, const field *f, pz_card *v)
{
    if (c->j.tok == PZJ_NULL) {
        *v = PZ_NO_CARD;
        return 0;
    }
    if (c->j.tok != PZJ_STRING || c->j.str_len != 2 || card_at(c->j.str, v) != 0)
        return bad(c, f->name, "must be a card such as \"7H\", or null");
    return 0;
}

/* Reads a string of at most max cards into cards[]; the count or -1. */
static int read_cards(rd *c, const field *f, pz_card *cards, int max)
{
    char b[32];
    size_t n = c->j.str_len / 2;
    if (c->j.tok != PZJ_STRING || c->j.str_len % 2 != 0 || n > (size_t)max)
        return bad(c, f->name, "must be a string of at most %d cards such as \"7HKS2C\"", max);
    for (size_t i = 0; i < n; i++) {
        const char *s = c->j.str + 2 * i;
        pz_card k;
        if (card_at(s, &k) != 0)
            return bad(c, f->name, "'%s' is not a card (cards are written 7H, TD, AS)",
                       excerpt(s, 2, b));
        cards[i] = k;
    }
    return (int)n;
}

/* Reads a card string into the card mask *mask, each card once. */
static int read_mask(rd *c, const field *f, uint64_t *mask)
{
    pz_card cards[PZ_CARDS];
    int n = read_cards(c, f, cards, PZ_CARDS);
    for (int i = 0; i < n; i++) {
        if (*mask >> cards[i] & 1)
            return bad(c, f->name, "names a card twice");
        *mask |= UINT64_C(1) << cards[i];
    }
    return n < 0 ? -1 : 0;
}

/* Entry i of "played" or "played_before": one seat's card mask. */
static int item_played(rd *c, const field *f, int i)
{
    return read_mask(c, f, (uint64_t *)((char *)c->g + f->off) + i);
}

/*
 * Sets one option through pz_options_set() from its JSON value, which
 * must have the type the table says (f->lo: a number, true/false, a word).
 */
static int read_option(rd *c, const field *f, pz_options *o)
{
    char val[24], msg[PZ_WHY_MAX];
    pzj_token t = c->j.tok;
    int is_bool = t == PZJ_TRUE || t == PZJ_FALSE;
    int ok = f->lo == PZJ_NUMBER ? t == PZJ_NUMBER && c->j.num_kind == PZJ_NUM_INT
             : f->lo == PZJ_TRUE ? is_bool
                                 : t == PZJ_STRING;
    const char *text = is_bool ? (t == PZJ_TRUE ? "true" : "false") : c->j.str;
    size_t n = is_bool ? strlen(text) : c->j.str_len;
    if (!ok || n >= sizeof val || memchr(text, '\0', n) != NULL)
        return bad(c, f->name, "must be %s",
                   f->lo == PZJ_NUMBER ? "a whole number"
                   : f->lo == PZJ_TRUE ? "true or false"
                                       : "one of the option's words (R9)");
    memcpy(val, text, n);
    val[n] = '\0';
    if (pz_options_set(o, f->name, val, msg, sizeof msg) != 0)
        return bad(c, f->name, "%s", msg);
    return 0;
}

static int read_members(rd *c, const field *t, int n, void *base, int *counts, uint64_t seen);

/* Reads the object of member f with the members of table t into base. */
static int read_nested(rd *c, const field *f, const field *t, int n, void *base)
{
    if (c->j.tok != PZJ_OBJECT)
        return bad(c, f->name, "must be an object");
    c->outer = f->name;
    int r = read_members(c, t, n, base, NULL, 0);
    c->outer = NULL;
    return r;
}

/* Entry i of "hands" (the current token), for read_array(): 0 or -1. */
static int item_hand(rd *c, const field *f, int i)
{
    int n = read_cards(c, f, c->g->hand[i], f->hi);
    c->g->nhand[i] = (uint8_t)(n < 0 ? 0 : n);
    return n < 0 ? -1 : 0;
}

/* Entry i of "scores" or "piles": a whole number in the member's range. */
static int item_side(rd *c, const field *f, int i)
{
    long v = 0;
    if (read_int(c, f, &v) != 0)
        return -1;
    if (f->kind == K_SCORES)
        c->g->score[i] = (int16_t)v;
    else
        c->g->pile[i] = (uint8_t)v;
    return 0;
}

/* Entry i of "holdings" or "previous_holdings": one holding object. */
static int item_holding(rd *c, const field *f, int i)
{
    pz_holding *h = (pz_holding *)((char *)c->g + f->off) + i;
    return read_nested(c, f, pz__save_holding, SAVE_NHOLDING, h);
}

/* Word i of the generator state: exactly 16 lowercase hex digits. */
static int item_rng(rd *c, const field *f, int i)
{
    uint64_t v = 0;
    int ok = c->j.tok == PZJ_STRING && c->j.str_len == 16;
    for (size_t k = 0; ok && k < 16; k++) {
        char ch = c->j.str[k];
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        ok = d >= 0;
        v = v << 4 | (uint64_t)(d & 15);
    }
    if (!ok)
        return bad(c, f->name, "must be a string of 16 lowercase hex digits");
    c->g->rng.s[i] = v;
    return 0;
}

/*
 * Reads the array of member f (the current token), at most max entries,
 * each through item(). Returns the number of entries, or -1.
 */
static int read_array(rd *c, const field *f, int max, int (*item)(rd *, const field *, int))
{
    int n = 0;
    if (c->j.tok != PZJ_ARRAY)
        return bad(c, f->name, "must be an array");
    while (pzj_next(&c->j) != PZJ_ARRAY_END) {
        c->index = n;
        if (n == max)
            return bad(c, f->name, "one entry too many (at most %d)", max);
        if (item(c, f, n) != 0)
            return -1;
        n++;
    }
    c->index = -1;
    return n;
}

/*
 * Reads the value of member f (the current token) into base. Returns the
 * entry count for arrays, 0 for other values, or -1.
 */
static int read_value(rd *c, const field *f, void *base)
{
    unsigned char *v = (unsigned char *)base + f->off;
    long n = 0;
    switch (f->kind) {
    case K_OPTIONS:
        return read_nested(c, f, pz__save_options, SAVE_NOPTIONS, v);
    case K_OPTION:
        return read_option(c, f, (pz_options *)base);
    case K_U8:
    case K_I8:
        if (read_int(c, f, &n) != 0)
            return -1;
        if (f->kind == K_U8)
            *v = (unsigned char)n;
        else
            *(int8_t *)v = (int8_t)n;
        return 0;
    case K_FLAG:
        return read_flag(c, f, v);
    case K_WORD:
        return read_word(c, f, v);
    case K_RANK:
        return read_rank(c, f, v);
    case K_CARD:
        return read_card(c, f, v);
    case K_CARDS:
        n = read_cards(c, f, v, f->hi);
        *((unsigned char *)base + f->aux) = (unsigned char)(n < 0 ? 0 : n);
        return n < 0 ? -1 : 0;
    case K_WON:
        return read_mask(c, f, &c->g->won);
    case K_HANDS:
        return read_array(c, f, PZ_MAX_PLAYERS, item_hand);
    case K_SCORES:
        return read_array(c, f, PZ_MAX_SIDES, item_side);
    case K_PILES:
        return read_array(c, f, PZ_MAX_SIDES, item_side);
    case K_HOLDINGS:
        return read_array(c, f, PZ_MAX_PLAYERS, item_holding);
    case K_PLAYED:
        return read_array(c, f, PZ_MAX_PLAYERS, item_played);
    case K_RNG:
        n = read_array(c, f, 4, item_rng);
        return n == 4 || n < 0 ? (int)n : bad(c, f->name, "must hold 4 hex strings");
    default: /* K_VERSION: only as the first member, read by read_document() */
        return bad(c, f->name, "must come first");
    }
}

/* The index of the member of t named by the current key, or -1; t[hint] first. */
static int find_member(const rd *c, const field *t, int n, int hint)
{
    if (hint < n && text_is(c, t[hint].name, t[hint].len))
        return hint;
    for (int i = 0; i < n; i++)
        if (text_is(c, t[i].name, t[i].len))
            return i;
    return -1;
}

/*
 * Reads the members of an object up to its '}' into base, each named in
 * table t exactly once (`seen` marks those already read). counts, when
 * not NULL, receives read_value()'s result per member. 0 or -1.
 */
static int read_members(rd *c, const field *t, int n, void *base, int *counts, uint64_t seen)
{
    char b[32];
    int hint = 0;
    for (pzj_token tok; (tok = pzj_next(&c->j)) != PZJ_OBJECT_END; hint++) {
        if (tok != PZJ_KEY) /* only PZJ_ERROR gets here */
            return bad(c, NULL, "the document is not valid JSON");
        int i = find_member(c, t, n, hint);
        if (i < 0)
            return bad(c, excerpt(c->j.str, c->j.str_len, b),
                       "no such field in a version %d saved game", SAVE_VERSION);
        if (seen >> i & 1)
            return bad(c, t[i].name, "appears twice");
        seen |= UINT64_C(1) << i;
        pzj_next(&c->j);
        int r = read_value(c, &t[i], base);
        if (r < 0)
            return -1;
        if (counts != NULL)
            counts[i] = r;
        hint = i;
    }
    for (int i = 0; i < n; i++)
        if (!(seen >> i & 1) && t[i].kind != K_PLAYED) /* older documents lack those */
            return bad(c, t[i].name, "is missing");
    return 0;
}

/*
 * Reads the whole document into c->g: an object whose first member is the
 * version, then every member of pz__save_top, then nothing but whitespace.
 */
static int read_document(rd *c)
{
    char b[32];
    if (pzj_next(&c->j) != PZJ_OBJECT || pzj_next(&c->j) != PZJ_KEY || !text_is(c, "porrazo", 7))
        return bad(c, NULL, "a saved game is an object that starts {\"porrazo\":%d", SAVE_VERSION);
    if (pzj_next(&c->j) != PZJ_NUMBER)
        return bad(c, "porrazo", "must be the version number");
    if (c->j.num_kind != PZJ_NUM_INT || c->j.num != SAVE_VERSION)
        return bad(c, NULL, "version %s is not supported: this engine reads version %d",
                   excerpt(c->j.str, c->j.str_len, b), SAVE_VERSION);
    if (read_members(c, pz__save_top, SAVE_NTOP, c->g, c->count, 1) != 0)
        return -1;
    if (pzj_next(&c->j) != PZJ_END)
        return bad(c, NULL, "the document is not valid JSON");
    return 0;
}

/*
 * Checks what needs the whole document, and only that, for both forms: the
 * options against the player count, one entry per seat or side in each
 * array (count[i]: the entries read of member i of pz__save_top). Sets the
 * derived members (sides, deals, leftover) on the way, then leaves the
 * consistency of the whole to pz__check(). Messages start with `form` ("",
 * or "packed saved game: "). 0 or -1.
 */
static int check_document(struct pz_game *g, const int count[SAVE_NTOP], const char *form,
                          char *why, size_t why_len)
{
    char msg[PZ_WHY_MAX];
    if (pz_options_check(&g->opt, g->players, msg, sizeof msg) != 0) {
        pz__why(why, why_len, "%sfield 'options': %s", form, msg);
        return -1;
    }
    g->sides = (uint8_t)(g->opt.partnerships ? g->players / 2 : g->players);
    g->deals = (uint8_t)pz__deals_for(g->players);
    g->leftover = (uint8_t)pz__leftover_for(g->players);
    for (int i = 0; i < SAVE_NTOP; i++) {
        const field *f = &pz__save_top[i];
        int per_seat = f->kind == K_HANDS || f->kind == K_HOLDINGS || f->kind == K_PLAYED;
        int want = per_seat ? g->players : g->sides;
        if (f->kind == K_PLAYED && count[i] == 0)
            continue; /* absent (an older document): nothing was recorded */
        if ((per_seat || f->kind == K_SCORES || f->kind == K_PILES) && count[i] != want) {
            pz__why(why, why_len, "%sfield '%s': has %d entries, not one per %s (%d)", form,
                    f->name, count[i], per_seat ? "seat" : "side", want);
            return -1;
        }
    }
    if (pz__check(g, msg, sizeof msg) != 0) {
        pz__why(why, why_len, "%s%s", form, msg);
        return -1;
    }
    return 0;
}

/* Reads a JSON document into *g and its array counts into count: 0 or -1. */
static int read_json(struct pz_game *g, int count[SAVE_NTOP], const char *doc, size_t len,
                     char *why, size_t why_len)
{
    rd c;
    memset(&c, 0, sizeof c); /* before pzj_init(): it holds pointers into c.j */
    pzj_init(&c.j, doc, len);
    c.g = g;
    c.why = why;
    c.why_len = why_len;
    c.index = -1;
    c.count = count;
    return read_document(&c);
}

/*
 * Rebuilds a game from a JSON or a packed document; see porrazo.h. The
 * first byte tells which: PACK_MARK starts no JSON text. The game is read
 * into a zeroed local state and only copied to the heap once every check
 * passed, so a refusal allocates nothing and leaves *out alone.
 */
int pz_restore(pz_game **out, const char *doc, size_t len, char *why, size_t why_len)
{
    struct pz_game g;
    int count[SAVE_NTOP] = {0};
    int packed = len > 0 && doc[0] == PACK_MARK;
    memset(&g, 0, sizeof g);
    pz_options_default(&g.opt);
    int r = packed ? pz__unpack(&g, count, doc, len, why, why_len)
                   : read_json(&g, count, doc, len, why, why_len);
    if (r != 0 || check_document(&g, count, packed ? "packed saved game: " : "", why, why_len) != 0)
        return PZ_EBAD_DOCUMENT;
    struct pz_game *heap = calloc(1, sizeof *heap);
    if (heap == NULL) {
        pz__why(why, why_len, "out of memory restoring a game");
        return PZ_ENO_MEMORY;
    }
    memcpy(heap, &g, sizeof g);
    *out = heap;
    return 0;
}
