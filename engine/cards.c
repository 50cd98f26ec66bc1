/*
 * cards.c — cards, rank values, the words of the API and the error table.
 *
 * Everything here is a pure lookup: parsing and formatting cards (R1.1),
 * the R1.6 values, the stable names REPLAY.md uses for phases, modes and
 * reasons, and the messages of PZ_ERRNO_MAP. Not here: any rule.
 */
#include <stdarg.h>
#include <stdio.h>

#include "game.h"

static const char RANK_CHARS[PZ_RANKS + 1] = "A23456789TJQK";
static const char SUIT_CHARS[PZ_SUITS + 1] = "CDHS";

/* The stable code of err, "ok" for 0, "unknown" for anything else. */
const char *pz_err_name(int err)
{
    switch (err) {
    case 0:
        return "ok";
#define PZ_ERR_NAME_(name, val, code, msg)                                                         \
    case val:                                                                                      \
        return code;
        PZ_ERRNO_MAP(PZ_ERR_NAME_)
#undef PZ_ERR_NAME_
    default:
        return "unknown";
    }
}

/* The generic message of err; never NULL. */
const char *pz_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define PZ_ERR_MSG_(name, val, code, msg)                                                          \
    case val:                                                                                      \
        return msg;
        PZ_ERRNO_MAP(PZ_ERR_MSG_)
#undef PZ_ERR_MSG_
    default:
        return "unknown error";
    }
}

/*
 * Formats a message into why (when not NULL and why_len > 0). A message
 * longer than the buffer is cut: messages are for people, and the buffer
 * size is the caller's choice.
 */
void pz__why(char *why, size_t why_len, const char *fmt, ...)
{
    if (why == NULL || why_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    if (n < 0)
        why[0] = '\0';
}

/* Maps a rank character (case-insensitive, no "10") to 0..12, or -1. */
static int rank_of_char(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    for (int r = 0; r < PZ_RANKS; r++)
        if (RANK_CHARS[r] == c)
            return r;
    return -1;
}

/* Maps a suit character (case-insensitive) to 0..3, or -1. */
static int suit_of_char(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    for (int s = 0; s < PZ_SUITS; s++)
        if (SUIT_CHARS[s] == c)
            return s;
    return -1;
}

/* Parses "7H", "th", "10s" (exactly len bytes); 0 or PZ_EINVALID_ACTION. */
int pz_card_parse(const char *s, size_t len, pz_card *out)
{
    int rank;
    if (s == NULL)
        return PZ_EINVALID_ACTION;
    if (len == 3 && s[0] == '1' && s[1] == '0')
        rank = 9;
    else if (len == 2)
        rank = rank_of_char(s[0]);
    else
        return PZ_EINVALID_ACTION;
    int suit = suit_of_char(s[len - 1]);
    if (rank < 0 || suit < 0)
        return PZ_EINVALID_ACTION;
    *out = pz_card_make(rank, suit);
    return 0;
}

/* Writes the canonical two-character form and a NUL ("??" if invalid). */
void pz_card_format(pz_card c, char buf[3])
{
    if (c >= PZ_CARDS) {
        buf[0] = '?', buf[1] = '?', buf[2] = '\0';
        return;
    }
    buf[0] = RANK_CHARS[pz_card_rank(c)];
    buf[1] = SUIT_CHARS[pz_card_suit(c)];
    buf[2] = '\0';
}

/* The rank letter, '?' out of range. */
char pz_rank_char(int rank)
{
    return rank >= 0 && rank < PZ_RANKS ? RANK_CHARS[rank] : '?';
}

/* R1.6: K 4, Q 3, J 2, any other 1. */
int pz_ronda_value(int rank)
{
    switch (rank) {
    case 12:
        return 4;
    case 11:
        return 3;
    case 10:
        return 2;
    default:
        return 1;
    }
}

/* R1.6: K 12, Q 9, J 6, any other 3. */
int pz_rondine_value(int rank)
{
    return 3 * pz_ronda_value(rank);
}

/* R1.6: twice the rondine value. */
int pz_four_value(int rank)
{
    return 2 * pz_rondine_value(rank);
}

/* Looks up names[i] for 0 <= i < n, "?" otherwise. */
static const char *name_at(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "?";
}
#define NAME_AT(names, i) name_at(names, (int)(sizeof names / sizeof names[0]), (int)(i))

const char *pz_phase_name(pz_phase p)
{
    static const char *const names[] = {"tendido_choice", "arrange", "play", "hand_over",
                                        "game_over"};
    return NAME_AT(names, p);
}

const char *pz_mode_name(pz_mode m)
{
    static const char *const names[] = {"any", "capture", "place", "lay"};
    return NAME_AT(names, m);
}

const char *pz_direction_name(pz_direction d)
{
    static const char *const names[] = {"ltr", "rtl"};
    return NAME_AT(names, d);
}

const char *pz_holding_name(pz_holding_kind k)
{
    static const char *const names[] = {"none", "ronda", "rondine", "four"};
    return NAME_AT(names, k);
}

const char *pz_pending_name(pz_pending_kind k)
{
    static const char *const names[] = {"none", "porrazo", "counter_porrazo"};
    return NAME_AT(names, k);
}

const char *pz_reason_name(pz_reason r)
{
    static const char *const names[] = {"porrazo",       "counter_porrazo",    "limpia", "in_place",
                                        "tendido_place", "tendido_sets",       "ronda",  "rondine",
                                        "four",          "missed_declaration", "cards"};
    return NAME_AT(names, r);
}

const char *pz_end_reason_name(pz_end_reason r)
{
    static const char *const names[] = {"target", "san_benito"};
    return NAME_AT(names, r);
}
