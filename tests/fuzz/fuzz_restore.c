/*
 * fuzz_restore.c — the libFuzzer target for pz_restore(): any bytes of any
 * length go in, JSON or packed. A refused document must be refused with
 * bad_document, a NUL-terminated message and no game. An accepted one must
 * save, restore and save again to the same bytes, pack, restore and pack
 * again to the same bytes (and save as the original does), and then behave: every view, every
 * listed action accepted by a clone (the list is exact), the default action
 * listed, the state after the first listed action saved and restored too.
 * A broken promise aborts, which libFuzzer reports as a crash. With
 * PZ_FUZZ_EXPECT_VALID set, a refused document aborts too.
 *
 * It is not a fuzzer by itself: built with -fsanitize=fuzzer it is one;
 * linked with replay_main.c it replays the checked-in corpus as a ctest.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "porrazo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts when a promise of porrazo.h is broken. */
static void must(bool ok)
{
    if (!ok)
        abort();
}

/*
 * Saves g, restores the document and saves again: same bytes. Returns the
 * restored copy (the caller frees it).
 */
static pz_game *round_trip(const pz_game *g)
{
    char a[PZ_SAVE_MAX], b[PZ_SAVE_MAX], why[PZ_WHY_MAX];
    pz_game *r = NULL;
    int la = pz_save(g, a, sizeof a);
    must(la > 0 && la < PZ_SAVE_MAX && a[la] == '\0');
    must(pz_restore(&r, a, (size_t)la, why, sizeof why) == 0 && r != NULL);
    int lb = pz_save(r, b, sizeof b);
    must(lb == la && memcmp(a, b, (size_t)la) == 0);
    return r;
}

/* Packs g, restores the packed form and packs again: same bytes; the
   restored game saves to the JSON of g. */
static void packed_round_trip(const pz_game *g)
{
    char a[PZ_PACK_MAX], b[PZ_PACK_MAX], ja[PZ_SAVE_MAX], jb[PZ_SAVE_MAX], why[PZ_WHY_MAX];
    pz_game *r = NULL;
    int la = pz_pack(g, a, sizeof a);
    must(la > 0 && la < PZ_PACK_MAX && a[la] == '\0' && a[0] == '~');
    must(pz_restore(&r, a, (size_t)la, why, sizeof why) == 0 && r != NULL);
    int lb = pz_pack(r, b, sizeof b);
    must(lb == la && memcmp(a, b, (size_t)la) == 0);
    int ja_len = pz_save(g, ja, sizeof ja), jb_len = pz_save(r, jb, sizeof jb);
    must(ja_len > 0 && ja_len == jb_len && memcmp(ja, jb, (size_t)ja_len) == 0);
    pz_free(r);
}

/* Every seat's view, and views out of range refused. */
static void check_views(const pz_game *g)
{
    pz_view v;
    int n = pz_get_players(g);
    must(n >= PZ_MIN_PLAYERS && n <= PZ_MAX_PLAYERS);
    for (int seat = 0; seat < n; seat++) {
        must(pz_view_seat(g, seat, &v) == 0);
        must(v.nhand >= 0 && v.nhand <= PZ_CARDS && v.ntable >= 0 && v.ntable <= PZ_CARDS);
    }
    must(pz_view_seat(g, n, &v) == PZ_EINVALID_ACTION);
}

/* Two actions are the same (fields their kind does not use ignored). */
static bool same_action(const pz_action *a, const pz_action *b)
{
    if (a->kind != b->kind || a->seat != b->seat)
        return false;
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return a->card == b->card && a->mode == b->mode;
    case PZ_ACT_TENDIDO:
        return a->now == b->now;
    case PZ_ACT_ARRANGE:
        return a->best == b->best && (a->best || (a->direction == b->direction &&
                                                  memcmp(a->row, b->row, sizeof a->row) == 0));
    case PZ_ACT_CLAIM:
        return a->claimed == b->claimed;
    default:
        return true;
    }
}

/* Every listed action is accepted by a clone; the default one is listed. */
static void check_actions(const pz_game *g)
{
    static pz_events ev;
    pz_action list[PZ_LEGAL_MAX], d;
    char why[PZ_WHY_MAX];
    int n = pz_legal_actions(g, -1, list, PZ_LEGAL_MAX);
    must(n >= 0 && n <= PZ_LEGAL_MAX);
    must((n == 0) == (pz_get_phase(g) == PZ_PHASE_GAME_OVER));
    for (int i = 0; i < n; i++) {
        pz_game *k = pz_clone(g);
        must(k != NULL);
        ev.n = 0;
        must(pz_apply(k, &list[i], &ev, why, sizeof why) == 0);
        if (i == 0)
            pz_free(round_trip(k));
        pz_free(k);
    }
    int turn = pz_get_turn(g);
    if (turn < 0)
        return;
    bool listed = false;
    must(pz_default_action(g, turn, &d) == 0);
    for (int i = 0; i < n && !listed; i++)
        listed = same_action(&list[i], &d);
    must(listed);
}

/*
 * True when PZ_FUZZ_EXPECT_VALID is set: every input must then restore (the
 * ctest on the corpus's valid-* files, which catches a save format that
 * moved on without its corpus).
 */
static bool expect_valid(void)
{
    static int cached = -1;
    if (cached < 0)
        cached = getenv("PZ_FUZZ_EXPECT_VALID") != NULL;
    return cached != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[PZ_WHY_MAX];
    pz_game *g = NULL;
    memset(why, 'x', sizeof why);
    int rc = pz_restore(&g, (const char *)data, size, why, sizeof why);
    if (rc != 0 && expect_valid()) {
        fprintf(stderr, "fuzz_restore: a valid document is refused: %s\n", why);
        abort();
    }
    if (rc != 0) {
        must(rc == PZ_EBAD_DOCUMENT && g == NULL);
        must(memchr(why, '\0', sizeof why) != NULL && why[0] != '\0');
        return 0;
    }
    must(g != NULL);
    pz_free(round_trip(g));
    packed_round_trip(g);
    check_views(g);
    check_actions(g);
    pz_free(g);
    return 0;
}
