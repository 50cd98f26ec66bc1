/*
 * prop_report.c — how the property test reports a broken property: the
 * place and the message, then the game's set-up and every action so far as
 * a REPLAY.md scenario, so that the failure can be replayed by hand with
 * porrazo-replay (or, for a drawn dealer, with the printed pz_setup). It
 * checks nothing itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>

#include "prop.h"

const char *const prop_cat_names[CAT_COUNT] = {"play",    "tendido", "arrange best", "arrange row",
                                               "declare", "claim",   "next_hand",    "malformed"};

/* Prints card c canonically, or as a number when it is no card. */
static void print_card(pz_card c)
{
    char buf[3];
    if (c >= PZ_CARDS) {
        fprintf(stderr, "%u", (unsigned)c);
        return;
    }
    pz_card_format(c, buf);
    fprintf(stderr, "\"%s\"", buf);
}

/* Prints n cards as a JSON list. */
static void print_cards(const pz_card *cards, int n)
{
    fputc('[', stderr);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            fputs(", ", stderr);
        print_card(cards[i]);
    }
    fputc(']', stderr);
}

/* Prints a well-formed action as a REPLAY.md action object. */
static void print_known_action(const pz_action *a)
{
    switch (a->kind) {
    case PZ_ACT_PLAY:
        fprintf(stderr, "{\"seat\": %d, \"play\": ", a->seat);
        print_card(a->card);
        if (a->mode != PZ_MODE_ANY)
            fprintf(stderr, ", \"mode\": \"%s\"", pz_mode_name(a->mode));
        break;
    case PZ_ACT_TENDIDO:
        fprintf(stderr, "{\"seat\": %d, \"tendido\": \"%s\"", a->seat, a->now ? "now" : "later");
        break;
    case PZ_ACT_ARRANGE:
        fprintf(stderr, "{\"seat\": %d, \"arrange\": ", a->seat);
        if (a->best) {
            fputs("\"best\"", stderr);
            break;
        }
        print_cards(a->row, 4);
        fprintf(stderr, ", \"direction\": \"%s\"", pz_direction_name(a->direction));
        break;
    case PZ_ACT_DECLARE:
        fprintf(stderr, "{\"seat\": %d, \"declare\": true", a->seat);
        break;
    case PZ_ACT_CLAIM:
        fprintf(stderr, "{\"seat\": %d, \"claim\": %d", a->seat, a->claimed);
        break;
    case PZ_ACT_NEXT_HAND:
        fputs("{\"next_hand\": true", stderr);
        if (a->pack != NULL) {
            fputs(", \"deck\": ", stderr);
            print_cards(a->pack, PZ_CARDS);
        }
        break;
    }
    fputc('}', stderr);
}

/* Prints any action: well-formed ones as REPLAY.md, others field by field. */
void prop_print_action(const pz_action *a)
{
    bool known = (unsigned)a->kind < PROP_KINDS && (unsigned)a->mode <= PZ_MODE_LAY &&
                 (unsigned)a->direction <= PZ_RTL;
    if (known) {
        print_known_action(a);
        return;
    }
    fprintf(stderr,
            "{\"raw\": {\"kind\": %d, \"seat\": %d, \"card\": %u, \"mode\": %d, "
            "\"direction\": %d, \"claimed\": %d}}",
            (int)a->kind, a->seat, (unsigned)a->card, (int)a->mode, (int)a->direction, a->claimed);
}

/* Prints options as the REPLAY.md "options" object. */
static void print_options(const pz_options *o)
{
    fprintf(stderr,
            "{\"target\": %d, \"wrap\": %s, \"declarations\": \"%s\", "
            "\"tendido\": \"%s\", \"odd_leftover\": \"%s\", "
            "\"final_sweep\": \"%s\", \"card_score\": \"%s\", "
            "\"partnerships\": %s}",
            o->target, o->wrap ? "true" : "false", pz_declarations_name(o->declarations),
            pz_tendido_name(o->tendido), pz_leftover_name(o->odd_leftover),
            pz_sweep_name(o->final_sweep), pz_card_score_name(o->card_score),
            o->partnerships ? "true" : "false");
}

/*
 * Prints the current game as a scenario: set-up, then every action so far.
 * The scenario format has no drawn dealer and takes a deck or a seed, not
 * both, so the exact pz_setup is printed first.
 */
static void print_reproducer(const prop_ctx *c)
{
    const pz_setup *s = &c->rec.setup;
    int sides = s->options.partnerships ? s->players / 2 : s->players;
    fprintf(stderr,
            "pz_setup: players=%d dealer=%d seed=%llu pack=%s "
            "has_scores=%d\n{\"players\": %d, \"options\": ",
            s->players, s->dealer, (unsigned long long)s->seed, c->rec.has_pack ? "given" : "NULL",
            (int)s->has_scores, s->players);
    print_options(&s->options);
    fprintf(stderr, ",\n \"dealer\": %d, \"scores\": [", s->dealer);
    for (int i = 0; i < sides; i++)
        fprintf(stderr, "%s%d", i ? ", " : "", s->has_scores ? s->scores[i] : 0);
    fputs("],\n ", stderr);
    if (c->rec.has_pack) {
        fputs("\"deck\": ", stderr);
        print_cards(c->rec.pack, PZ_CARDS);
    } else {
        fprintf(stderr, "\"seed\": %llu", (unsigned long long)s->seed);
    }
    fputs(",\n \"actions\": [", stderr);
    for (size_t i = 0; i < c->rec.nsteps; i++) {
        pz_action a = c->rec.steps[i].a;
        if (c->rec.steps[i].has_pack)
            a.pack = c->rec.steps[i].pack;
        fputs(i ? ",\n  " : "\n  ", stderr);
        prop_print_action(&a);
    }
    fputs("]}\n", stderr);
}

/* Documented in prop.h. */
void prop_fail(const prop_ctx *c, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: game %ld (seed %llu), after %zu actions: ", file, line, c->game_index,
            (unsigned long long)c->seed, c->rec.nsteps);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_reproducer(c);
    fail();
}
