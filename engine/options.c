/*
 * options.c — the game options of R9: defaults, setting them from words,
 * checking them against a player count, and writing them back as words.
 *
 * Words are those of RULES.md R9 ("declarations=manual"), so a host can take
 * them from players and a saved game can store them readably.
 */
#include <stdio.h>
#include <string.h>

#include "game.h"

/* Fills *o with the defaults of R9. */
void pz_options_default(pz_options *o)
{
    o->target = 61;
    o->wrap = true;
    o->declarations = PZ_DECL_AUTO;
    o->tendido = PZ_TENDIDO_CHOICE;
    o->odd_leftover = PZ_LEFTOVER_TABLE;
    o->final_sweep = PZ_SWEEP_LAST_CAPTURER;
    o->card_score = PZ_CARD_SCORE_DIFFERENCE;
    o->partnerships = false;
}

const char *pz_declarations_name(pz_declarations d)
{
    return d == PZ_DECL_MANUAL ? "manual" : d == PZ_DECL_SILENT ? "silent" : "auto";
}
const char *pz_tendido_name(pz_tendido_mode t)
{
    return t == PZ_TENDIDO_LAST ? "last" : "choice";
}
const char *pz_leftover_name(pz_leftover_mode l)
{
    return l == PZ_LEFTOVER_DEAL ? "deal" : "table";
}
const char *pz_sweep_name(pz_sweep_mode s)
{
    return s == PZ_SWEEP_DEALER ? "dealer" : "last_capturer";
}
const char *pz_card_score_name(pz_card_score_mode c)
{
    return c == PZ_CARD_SCORE_EXCESS26 ? "excess26" : "difference";
}

/* Index of value in the NULL-terminated words, or -1. */
static int word_index(const char *value, const char *const *words)
{
    for (int i = 0; words[i] != NULL; i++)
        if (strcmp(value, words[i]) == 0)
            return i;
    return -1;
}

/* Parses a target: decimal digits only, 1..PZ_TARGET_MAX. */
static int parse_target(const char *value, int *out)
{
    long v = 0;
    if (*value == '\0')
        return -1;
    for (const char *p = value; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || v > PZ_TARGET_MAX)
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v < 1 || v > PZ_TARGET_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/*
 * Sets one option from its name and value words. Returns 0, or
 * PZ_EBAD_OPTIONS naming the option and its accepted values; *o untouched
 * on error.
 */
int pz_options_set(pz_options *o, const char *name, const char *value, char *why, size_t why_len)
{
    static const char *const bools[] = {"false", "true", NULL};
    static const char *const decl[] = {"auto", "manual", "silent", NULL};
    static const char *const tend[] = {"choice", "last", NULL};
    static const char *const left[] = {"table", "deal", NULL};
    static const char *const sweep[] = {"last_capturer", "dealer", NULL};
    static const char *const cards[] = {"difference", "excess26", NULL};
    pz_options t = *o;
    int i;

    if (name == NULL || value == NULL) {
        pz__why(why, why_len, "an option needs a name and a value");
        return PZ_EBAD_OPTIONS;
    }
#define WORDS(field, words, list, cast)                                                            \
    if ((i = word_index(value, words)) < 0) {                                                      \
        pz__why(why, why_len, "option %s takes %s, not '%.40s'", name, list, value);               \
        return PZ_EBAD_OPTIONS;                                                                    \
    }                                                                                              \
    t.field = (cast)i
    if (strcmp(name, "target") == 0) {
        if (parse_target(value, &t.target) != 0) {
            pz__why(why, why_len, "option target takes a whole number from 1 to %d, not '%.40s'",
                    PZ_TARGET_MAX, value);
            return PZ_EBAD_OPTIONS;
        }
    } else if (strcmp(name, "wrap") == 0) {
        WORDS(wrap, bools, "true or false", bool);
    } else if (strcmp(name, "partnerships") == 0) {
        WORDS(partnerships, bools, "true or false", bool);
    } else if (strcmp(name, "declarations") == 0) {
        WORDS(declarations, decl, "auto, manual or silent", pz_declarations);
    } else if (strcmp(name, "tendido") == 0) {
        WORDS(tendido, tend, "choice or last", pz_tendido_mode);
    } else if (strcmp(name, "odd_leftover") == 0) {
        WORDS(odd_leftover, left, "table or deal", pz_leftover_mode);
    } else if (strcmp(name, "final_sweep") == 0) {
        WORDS(final_sweep, sweep, "last_capturer or dealer", pz_sweep_mode);
    } else if (strcmp(name, "card_score") == 0) {
        WORDS(card_score, cards, "difference or excess26", pz_card_score_mode);
    } else {
        pz__why(why, why_len,
                "unknown option '%.40s' (options: target, wrap, declarations, tendido, "
                "odd_leftover, final_sweep, card_score, partnerships)",
                name);
        return PZ_EBAD_OPTIONS;
    }
#undef WORDS
    *o = t;
    return 0;
}

/* Checks the options against the player count (R1.4, R1.5, R9). */
int pz_options_check(const pz_options *o, int players, char *why, size_t why_len)
{
    if (players < PZ_MIN_PLAYERS || players > PZ_MAX_PLAYERS) {
        pz__why(why, why_len, "a game has 2 to 8 players, not %d", players);
        return PZ_EBAD_OPTIONS;
    }
    if (o->target < 1 || o->target > PZ_TARGET_MAX) {
        pz__why(why, why_len, "the target must be from 1 to %d, not %d", PZ_TARGET_MAX, o->target);
        return PZ_EBAD_OPTIONS;
    }
    if ((unsigned)o->declarations > PZ_DECL_SILENT || (unsigned)o->tendido > PZ_TENDIDO_LAST ||
        (unsigned)o->odd_leftover > PZ_LEFTOVER_DEAL ||
        (unsigned)o->final_sweep > PZ_SWEEP_DEALER ||
        (unsigned)o->card_score > PZ_CARD_SCORE_EXCESS26) {
        pz__why(why, why_len, "an option has a value out of range");
        return PZ_EBAD_OPTIONS;
    }
    if (o->partnerships && (players < 4 || players % 2 != 0)) {
        pz__why(why, why_len,
                "partnerships need an even number of players, at least 4 (this game has %d)",
                players);
        return PZ_EBAD_OPTIONS;
    }
    int sides = o->partnerships ? players / 2 : players;
    if (o->card_score == PZ_CARD_SCORE_EXCESS26 && sides != 2) {
        pz__why(why, why_len, "card_score=excess26 needs exactly two sides (this game has %d)",
                sides);
        return PZ_EBAD_OPTIONS;
    }
    return 0;
}

/* Writes the options as R9 words; the length or PZ_ENO_SPACE. */
int pz_options_format(const pz_options *o, char *buf, size_t cap)
{
    int n = snprintf(buf, cap,
                     "target=%d wrap=%s declarations=%s tendido=%s odd_leftover=%s "
                     "final_sweep=%s card_score=%s partnerships=%s",
                     o->target, o->wrap ? "true" : "false", pz_declarations_name(o->declarations),
                     pz_tendido_name(o->tendido), pz_leftover_name(o->odd_leftover),
                     pz_sweep_name(o->final_sweep), pz_card_score_name(o->card_score),
                     o->partnerships ? "true" : "false");
    if (n < 0 || (size_t)n >= cap)
        return PZ_ENO_SPACE;
    return n;
}
