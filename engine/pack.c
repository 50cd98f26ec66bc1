/*
 * pack.c — the packed form of a saved game: pz_pack() writes the state
 * pz_save() writes as a short printable ASCII string, for a host that keeps
 * one per game in its database, and pz__unpack() reads such a string back
 * for pz_restore() (restore.c), which then runs on it the same final checks
 * as on a JSON document. Both walk the tables of save_int.h, as the JSON
 * writer and reader do, so a member added there is packed too. Not here:
 * the JSON form (save.c, restore.c), the consistency of a whole state
 * (check.c) and the rules.
 *
 * The form: PACK_MARK ('~', which starts no JSON text), then each member of
 * pz__save_top in table order, with no names and no separators, written in
 * the digits of a 64-character alphabet, most significant digit first:
 *
 *     0-9 A-Z a-z - _      (the digits 0..63, in that order)
 *
 * - A number of range [lo, hi] (K_U8, K_I8, K_FLAG, K_WORD, the scores and
 *   piles; K_RANK is 0..12, K_OPTION 0..hi of its table entry) is v - lo in
 *   as many digits as hi - lo needs: one up to 63, two up to 4095, three up
 *   to 262143. So an int8 of range -1..7 is one digit, "0" for -1; the
 *   target (0..10000) and a score (0..32767) take three.
 * - K_VERSION is one digit, PACK_VERSION: every packed document starts "~1".
 * - K_CARD is one digit: the card (0..51, porrazo.h's numbering), 52 for
 *   PZ_NO_CARD. K_CARDS is its count (one digit, 0..hi), then its cards.
 * - A per-seat or per-side array (K_HANDS, K_SCORES, K_PILES, K_HOLDINGS,
 *   K_PLAYED) is its entry count (one digit), then its entries.
 * - A card mask (K_WON, an entry of K_PLAYED) is 9 digits (54 bits, the top
 *   two 0). The generator (K_RNG) is four numbers of 11 digits (66 bits,
 *   the top two 0).
 * - The options and each holding are their table's members, in order.
 *
 * The same game always packs to the same bytes. No digit is a quote, a
 * backslash, a space or a byte outside printable ASCII, so the string is a
 * C string, an SQL TEXT and a word of a URL as it is. The reader refuses a
 * character outside the alphabet, a value outside its table's range, a
 * document cut short or one followed by anything; the version is the whole
 * layout, so the layout of the tables is pinned below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "save_int.h"

#define PACK_VERSION 1
#define MASK_DIGITS 9 /* a card mask: 54 bits */
#define RNG_DIGITS 11 /* a word of the generator: 66 bits */

/* The layout is the tables': when they change, old packed documents would
   be misread, so the version must change with them. */
_Static_assert(SAVE_NTOP == 35 && SAVE_NOPTIONS == 8 && SAVE_NHOLDING == 4,
               "the tables of save_int.h changed: bump PACK_VERSION, then these counts");

static const char DIGITS[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
_Static_assert(sizeof DIGITS == 65, "64 digits");

/* The value of digit ch, or -1 when ch is not one of DIGITS. */
static int digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 36;
    return ch == '-' ? 62 : ch == '_' ? 63 : -1;
}

/* The digits a value of 0..span takes (span >= 0). */
static int width(long span)
{
    int w = 1;
    for (long top = 63; top < span; top = top * 64 + 63)
        w++;
    return w;
}

/* The range [*lo, *hi] member f's numbers are packed in. */
static void range_of(const field *f, int *lo, int *hi)
{
    switch (f->kind) {
    case K_VERSION:
        *lo = 0, *hi = 63;
        break;
    case K_RANK:
        *lo = 0, *hi = PZ_RANKS - 1;
        break;
    case K_CARD:
        *lo = 0, *hi = PZ_CARDS; /* PZ_CARDS: no card */
        break;
    case K_OPTION:
        *lo = 0, *hi = f->hi;
        break;
    default: /* K_U8, K_I8, K_FLAG, K_WORD, K_SCORES, K_PILES; K_CARDS' count */
        *lo = f->lo, *hi = f->hi;
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

/* A packed document being written: full when it ran out of room. */
typedef struct pk {
    char *p, *end;
    int full;
} pk;

/* Appends the low 6 * w bits of v as w digits, most significant first. */
static void put_digits(pk *o, uint64_t v, int w)
{
    if (o->end - o->p < w) {
        o->full = 1;
        return;
    }
    for (int i = w - 1; i >= 0; i--)
        *o->p++ = DIGITS[v >> (6 * i) & 63];
}

/* Appends v, a number of member f, in the digits its range needs. */
static void put_num(pk *o, const field *f, long v)
{
    int lo, hi;
    range_of(f, &lo, &hi);
    put_digits(o, (uint64_t)(v - lo), width((long)hi - lo));
}

/* Appends a card list of member f: its count, then one digit per card. */
static void put_cards(pk *o, const field *f, const pz_card *cards, size_t n)
{
    if (n > (size_t)f->hi)
        n = (size_t)f->hi;
    put_digits(o, n, width(f->hi));
    for (size_t i = 0; i < n; i++)
        put_digits(o, cards[i], 1);
}

static void put_fields(pk *o, const field *t, int n, const void *base, const struct pz_game *g);

/* Appends the entry count n, then the n entries of array member f of g. */
static void put_array(pk *o, const field *f, const struct pz_game *g, int n)
{
    put_digits(o, (uint64_t)n, 1);
    for (int i = 0; i < n; i++) {
        const char *at = (const char *)g + f->off;
        if (f->kind == K_HANDS)
            put_cards(o, f, g->hand[i], g->nhand[i]);
        else if (f->kind == K_SCORES)
            put_num(o, f, g->score[i]);
        else if (f->kind == K_PILES)
            put_num(o, f, g->pile[i]);
        else if (f->kind == K_PLAYED)
            put_digits(o, ((const uint64_t *)at)[i], MASK_DIGITS);
        else
            put_fields(o, pz__save_holding, SAVE_NHOLDING, (const pz_holding *)at + i, g);
    }
}

/* Appends the value of member f of base (g is the whole game). */
static void put_value(pk *o, const field *f, const void *base, const struct pz_game *g)
{
    const unsigned char *v = (const unsigned char *)base + f->off;
    int seats = g->players < PZ_MAX_PLAYERS ? g->players : PZ_MAX_PLAYERS;
    int sides = g->sides < PZ_MAX_SIDES ? g->sides : PZ_MAX_SIDES;
    switch (f->kind) {
    case K_VERSION:
        put_num(o, f, PACK_VERSION);
        break;
    case K_OPTIONS:
        put_fields(o, pz__save_options, SAVE_NOPTIONS, v, g);
        break;
    case K_OPTION:
        put_num(o, f, pz__save_option_value(base, f->aux));
        break;
    case K_I8:
        put_num(o, f, *(const int8_t *)v);
        break;
    case K_CARD:
        put_num(o, f, *v == PZ_NO_CARD ? PZ_CARDS : *v);
        break;
    case K_CARDS:
        put_cards(o, f, v, *((const unsigned char *)base + f->aux));
        break;
    case K_WON:
        put_digits(o, g->won, MASK_DIGITS);
        break;
    case K_RNG:
        for (int i = 0; i < 4; i++)
            put_digits(o, g->rng.s[i], RNG_DIGITS);
        break;
    case K_SCORES:
    case K_PILES:
        put_array(o, f, g, sides);
        break;
    case K_HANDS:
    case K_HOLDINGS:
    case K_PLAYED:
        put_array(o, f, g, seats);
        break;
    default: /* K_U8, K_FLAG, K_WORD, K_RANK */
        put_num(o, f, *v);
        break;
    }
}

/* Appends the members of table t, read from base, in table order. */
static void put_fields(pk *o, const field *t, int n, const void *base, const struct pz_game *g)
{
    for (int i = 0; i < n; i++)
        put_value(o, &t[i], base, g);
}

/*
 * Writes g in the packed form and a NUL into buf; see porrazo.h. Returns
 * the length without the NUL, or PZ_ENO_SPACE (buf untouched). With these
 * tables no state takes more than 884 characters, whatever its counts (the
 * writer cuts each list at its table's hi, as save.c does): 2 for the mark
 * and version, 10 options, 25 scores, 425 hands, 146 played, 44 for the
 * generator, 232 for the rest. PZ_PACK_MAX leaves room for more members.
 */
int pz_pack(const pz_game *g, char *buf, size_t cap)
{
    char doc[PZ_PACK_MAX];
    pk o = {doc, doc + sizeof doc - 1, 0};
    *o.p++ = PACK_MARK;
    put_fields(&o, pz__save_top, SAVE_NTOP, g, g);
    return pz__save_out(doc, (size_t)(o.p - doc), o.full, buf, cap);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

/* A packed document being read. */
typedef struct up {
    const char *doc, *p, *end; /* the document, the next character, its end */
    struct pz_game *g;
    char *why;
    size_t why_len;
    const char *outer; /* the table being read when nested, else NULL */
    int index;         /* the array entry being read, or -1 */
} up;

static int bad(const up *u, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Records why the document is refused and returns -1: "packed saved game:
 * ", then "field 'name': " when name is not NULL (with the enclosing table
 * and array entry, "holdings[1].rank"), then the text.
 */
static int bad(const up *u, const char *name, const char *fmt, ...)
{
    char what[PZ_WHY_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(what, sizeof what, fmt, ap); /* cut if long: it is for people */
    va_end(ap);
    if (n < 0)
        what[0] = '\0';
    pz__save_why(u->why, u->why_len, "packed saved game: ", u->outer, u->index, name, what);
    return -1;
}

/* Writes byte ch for a message: itself when printable, else \xNN. */
static const char *shown(char ch, char b[8])
{
    unsigned char c = (unsigned char)ch;
    if (c > 0x20 && c < 0x7F)
        b[0] = (char)c, b[1] = '\0';
    else
        b[0] = '\\', b[1] = 'x', b[2] = DIGITS[c >> 4], b[3] = DIGITS[c & 15], b[4] = '\0';
    return b;
}

/* Reads w digits of member f into *v, most significant first. 0 or -1. */
static int take(up *u, const field *f, int w, uint64_t *v)
{
    char b[8];
    uint64_t x = 0;
    if (u->end - u->p < w)
        return bad(u, f->name, "the document ends inside it (%zu characters in all)",
                   (size_t)(u->end - u->doc));
    for (int i = 0; i < w; i++) {
        int d = digit(u->p[i]);
        if (d < 0)
            return bad(u, f->name, "character %zu, '%s', is not a digit of the packed form",
                       (size_t)(u->p + i - u->doc), shown(u->p[i], b));
        if (x >> 58 != 0)
            return bad(u, f->name, "is more than 64 bits");
        x = x << 6 | (uint64_t)d;
    }
    u->p += w;
    *v = x;
    return 0;
}

/* Reads `what` of member f, a number in [lo, hi], into *v. 0 or -1. */
static int take_num(up *u, const field *f, const char *what, int lo, int hi, long *v)
{
    uint64_t x;
    if (take(u, f, width((long)hi - lo), &x) != 0)
        return -1;
    if (x > (uint64_t)((long)hi - lo))
        return bad(u, f->name, "%s %lld is not from %d to %d", what, (long long)x + lo, lo, hi);
    *v = (long)x + lo;
    return 0;
}

/* Reads a number of member f in its range (range_of) into *v. 0 or -1. */
static int read_num(up *u, const field *f, long *v)
{
    int lo, hi;
    range_of(f, &lo, &hi);
    return take_num(u, f, "the value", lo, hi, v);
}

/* Reads a card list of at most f->hi cards into cards[]: the count, or -1. */
static int read_cards(up *u, const field *f, pz_card *cards)
{
    long n, c;
    if (take_num(u, f, "the card count", 0, f->hi, &n) != 0)
        return -1;
    for (long i = 0; i < n; i++) {
        if (take_num(u, f, "the card", 0, PZ_CARDS - 1, &c) != 0)
            return -1;
        cards[i] = (pz_card)c;
    }
    return (int)n;
}

/* Reads a card mask of member f into *mask: 52 bits at most. 0 or -1. */
static int read_mask(up *u, const field *f, uint64_t *mask)
{
    uint64_t m;
    if (take(u, f, MASK_DIGITS, &m) != 0)
        return -1;
    if (m >> PZ_CARDS != 0)
        return bad(u, f->name, "names a card beyond the %d", PZ_CARDS);
    *mask = m;
    return 0;
}

static int read_fields(up *u, const field *t, int n, void *base, int *count);

/* Reads entry i of array member f. 0 or -1. */
static int read_entry(up *u, const field *f, int i)
{
    struct pz_game *g = u->g;
    char *at = (char *)g + f->off;
    long v;
    if (f->kind == K_HANDS) {
        int n = read_cards(u, f, g->hand[i]);
        g->nhand[i] = (uint8_t)(n < 0 ? 0 : n);
        return n < 0 ? -1 : 0;
    }
    if (f->kind == K_PLAYED)
        return read_mask(u, f, (uint64_t *)at + i);
    if (f->kind == K_HOLDINGS) {
        u->outer = f->name;
        int r = read_fields(u, pz__save_holding, SAVE_NHOLDING, (pz_holding *)at + i, NULL);
        u->outer = NULL;
        return r;
    }
    if (read_num(u, f, &v) != 0)
        return -1;
    if (f->kind == K_SCORES)
        g->score[i] = (int16_t)v;
    else
        g->pile[i] = (uint8_t)v;
    return 0;
}

/*
 * Reads array member f: its entry count, 0..max (the packed form always
 * writes one per seat or side; pz_restore() checks which), then the
 * entries. Returns the count, or -1.
 */
static int read_array(up *u, const field *f, int max)
{
    long n;
    if (take_num(u, f, "the entry count", 0, max, &n) != 0)
        return -1;
    if (n == 0 && f->kind == K_PLAYED) /* absent only from older JSON documents */
        return bad(u, f->name, "has no entries");
    for (int i = 0; i < n; i++) {
        u->index = i;
        if (read_entry(u, f, i) != 0)
            return -1;
    }
    u->index = -1;
    return (int)n;
}

/* Reads option f as its number and sets it through pz_options_set(). */
static int read_option(up *u, const field *f, pz_options *o)
{
    char b[16], msg[PZ_WHY_MAX];
    long v;
    if (read_num(u, f, &v) != 0)
        return -1;
    if (pz_options_set(o, f->name, pz__save_option_text(f->aux, (int)v, b), msg, sizeof msg) != 0)
        return bad(u, f->name, "%s", msg);
    return 0;
}

/* Reads the version digit and refuses any but PACK_VERSION. 0 or -1. */
static int read_version(up *u)
{
    char b[8];
    if (u->p == u->end)
        return bad(u, NULL, "no version after the '%c'", PACK_MARK);
    if (digit(*u->p) != PACK_VERSION)
        return bad(u, NULL, "version '%s' is not supported: this engine reads version %c",
                   shown(*u->p, b), DIGITS[PACK_VERSION]);
    u->p++;
    return 0;
}

/*
 * Reads the value of member f into base. Returns the entry count for
 * arrays, 0 for other values, or -1.
 */
static int read_value(up *u, const field *f, void *base)
{
    unsigned char *v = (unsigned char *)base + f->off;
    long n = 0;
    switch (f->kind) {
    case K_VERSION:
        return read_version(u);
    case K_OPTIONS: {
        u->outer = f->name;
        int r = read_fields(u, pz__save_options, SAVE_NOPTIONS, v, NULL);
        u->outer = NULL;
        return r;
    }
    case K_OPTION:
        return read_option(u, f, base);
    case K_CARDS:
        n = read_cards(u, f, v);
        *((unsigned char *)base + f->aux) = (unsigned char)(n < 0 ? 0 : n);
        return n < 0 ? -1 : 0;
    case K_WON:
        return read_mask(u, f, &u->g->won);
    case K_RNG:
        for (int i = 0; i < 4; i++) {
            u->index = i;
            if (take(u, f, RNG_DIGITS, &u->g->rng.s[i]) != 0)
                return -1;
        }
        u->index = -1;
        return 0;
    case K_SCORES:
    case K_PILES:
        return read_array(u, f, PZ_MAX_SIDES);
    case K_HANDS:
    case K_HOLDINGS:
    case K_PLAYED:
        return read_array(u, f, PZ_MAX_PLAYERS);
    default: /* K_U8, K_I8, K_FLAG, K_WORD, K_RANK, K_CARD */
        if (read_num(u, f, &n) != 0)
            return -1;
        if (f->kind == K_I8)
            *(int8_t *)v = (int8_t)n;
        else if (f->kind == K_CARD)
            *v = n == PZ_CARDS ? PZ_NO_CARD : (unsigned char)n;
        else
            *v = (unsigned char)n;
        return 0;
    }
}

/* Reads the members of table t into base in order; counts, when not NULL,
   receives read_value()'s result per member. 0 or -1. */
static int read_fields(up *u, const field *t, int n, void *base, int *count)
{
    for (int i = 0; i < n; i++) {
        int r = read_value(u, &t[i], base);
        if (r < 0)
            return -1;
        if (count != NULL)
            count[i] = r;
    }
    return 0;
}

/*
 * Reads the packed document doc[0..len) into *g, the array counts into
 * count; see save_int.h. Nothing is read outside doc[0..len). 0 or -1.
 */
int pz__unpack(struct pz_game *g, int count[SAVE_NTOP], const char *doc, size_t len, char *why,
               size_t why_len)
{
    up u = {doc, doc, doc, g, why, why_len, NULL, -1};
    if (len == 0 || doc[0] != PACK_MARK)
        return bad(&u, NULL, "does not start with '%c'", PACK_MARK);
    u.p = doc + 1;
    u.end = doc + len;
    if (read_fields(&u, pz__save_top, SAVE_NTOP, g, count) != 0)
        return -1;
    if (u.p != u.end)
        return bad(&u, NULL, "characters after the end of the document (%zu)",
                   (size_t)(u.end - u.p));
    return 0;
}
