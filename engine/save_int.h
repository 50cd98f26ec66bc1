/*
 * save_int.h — what the writers (save.c, pack.c) and the readers
 * (restore.c, pack.c) of saved games share: one table per JSON object of
 * the document (the game, its options, a holding), each member's name,
 * kind, range and place in struct pz_game, so the JSON form and the packed
 * form cannot drift apart; and the checks both readers end with. The
 * engine's inside.
 */
#ifndef PZ_SAVE_INT_H
#define PZ_SAVE_INT_H

#include <stddef.h>

#include "game.h"

#define SAVE_VERSION 1

/* What a member holds, and so how it is written and read (the packed form
   of each kind is described in pack.c). */
enum kind {
    K_VERSION,  /* the number SAVE_VERSION */
    K_OPTIONS,  /* pz_options as an object of R9 words */
    K_OPTION,   /* one option; aux is its OPT_* */
    K_U8,       /* uint8_t number in [lo, hi] */
    K_I8,       /* int8_t number in [lo, hi] */
    K_FLAG,     /* uint8_t 0/1 as false/true */
    K_WORD,     /* uint8_t 0..hi as the word of set aux (W_*) */
    K_RANK,     /* uint8_t rank as its letter ("A", "T", "K") */
    K_CARD,     /* pz_card as "7H", or null for PZ_NO_CARD */
    K_CARDS,    /* pz_card[hi] as "7HKS2C"; aux is the offset of its uint8_t count */
    K_HANDS,    /* one K_CARDS string per seat */
    K_SCORES,   /* int16_t per side */
    K_PILES,    /* uint8_t per side, 0..52 */
    K_WON,      /* the uint64_t card mask as a card string in card order */
    K_HOLDINGS, /* pz_holding per seat, as objects */
    K_PLAYED,   /* uint64_t card mask per seat, as K_WON; optional (older documents) */
    K_RNG       /* the four uint64_t as 16-digit lowercase hex strings */
};

enum words { W_PHASE, W_PENDING, W_HOLDING };
enum opt {
    OPT_TARGET,
    OPT_WRAP,
    OPT_DECL,
    OPT_TENDIDO,
    OPT_LEFTOVER,
    OPT_SWEEP,
    OPT_CARD_SCORE,
    OPT_PARTNERS
};

typedef struct field {
    const char *name;
    unsigned char len; /* strlen(name) */
    unsigned char kind;
    int lo, hi;
    size_t off;
    size_t aux;
} field;

/* The tables, in the order written ("porrazo" first in the game's). */
#define SAVE_NTOP 35    /* members of the game object: read_members marks them in a uint64_t */
#define SAVE_NOPTIONS 8 /* the options object, R9 names in R9 order */
#define SAVE_NHOLDING 4 /* one holding object (R3.1) */
extern const field pz__save_top[SAVE_NTOP];
extern const field pz__save_options[SAVE_NOPTIONS];
extern const field pz__save_holding[SAVE_NHOLDING];
_Static_assert(SAVE_NTOP <= 64, "read_members() marks members in a uint64_t");

/* The word of value v in word set `set` (W_*; "?" when out of range). */
const char *pz__save_word(size_t set, int v);

/*
 * Writes into why why a document is refused: prefix, then "field 'name': "
 * when name is not NULL (with the enclosing table outer, when not NULL, and
 * the array entry index, when >= 0: "holdings[1].rank"), then what. The
 * JSON reader (restore.c) and the packed one (pack.c) both say it so.
 */
void pz__save_why(char *why, size_t why_len, const char *prefix, const char *outer, int index,
                  const char *name, const char *what);

/*
 * Copies the n bytes of a document written into doc to buf with a NUL;
 * returns n, or PZ_ENO_SPACE (buf untouched) when the writer ran out of
 * room (full) or cap cannot hold it. pz_save's and pz_pack's last step.
 */
int pz__save_out(const char *doc, size_t n, int full, char *buf, size_t cap);

/* Option opt (OPT_*) of *o as a number: the target, 0/1, or the enum's. */
int pz__save_option_value(const pz_options *o, size_t opt);

/*
 * The text pz_options_set() takes for value v (0..hi of its table entry)
 * of option opt: the target's digits, "true"/"false" or the R9 word,
 * written into b when it needs room. Never NULL.
 */
const char *pz__save_option_text(size_t opt, int v, char b[16]);

/* The packed form (pack.c): its first byte, which no JSON text starts with. */
#define PACK_MARK '~'

/*
 * Reads a packed document (doc[0] is PACK_MARK) into *g, which holds the
 * default options and zeros elsewhere: every value in its table's range,
 * nothing cut short or left over. count receives, per member of
 * pz__save_top, the entries of its array (0 for other members), for the
 * checks pz_restore() ends with (restore.c). Returns 0, or -1 with a message in why.
 */
int pz__unpack(struct pz_game *g, int count[SAVE_NTOP], const char *doc, size_t len, char *why,
               size_t why_len);

#endif /* PZ_SAVE_INT_H */
