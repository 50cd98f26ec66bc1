/*
 * think.h — computer players think on a worker thread, so that the loop
 * goes on with chat traffic while a search runs.
 *
 * The host hands a job (what one seat may know of a game: its pz_view and
 * the hand's pz_record, with the level and a seed) to host__think_submit(); the
 * worker runs pzai_decide() on it and queues the result; the loop takes
 * results with host__think_take() and applies them as the host applies a
 * person's move, after checking that the game is still where the job saw
 * it. Jobs run one at a time in the order submitted, so many tables share
 * the CPU in turn and each decision is bounded by its level's budget. The
 * worker touches nothing but its jobs: no store, no game, no I/O.
 *
 * Not here: which seat should act and when (robots.c), applying actions.
 */
#ifndef PZ_THINK_H
#define PZ_THINK_H

#ifndef PZ_INSIDE_HOST
#error "think.h is the host's inside: other layers include host.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "porrazo.h"
#include "porrazo_ai.h"
#include "store.h"

#define THINK_QUEUE_MAX 256 /* jobs waiting or done, together */

typedef struct think think;

/* What a job is for: a computer player's move, or an explanation for a
   person (learn.c): a hint asked for, or a play of theirs judged against
   the strong level's (the practice table, the hand's review). */
typedef enum think_purpose {
    THINK_MOVE, /* pzai_decide at the job's level (explain: and pzai_why_of) */
    THINK_HINT, /* pzai_hint for player */
    THINK_JUDGE /* pzai_hint_play, and pzai_why_of of played, for player */
} think_purpose;

/* One decision to make, and its answer. */
typedef struct think_job {
    think_purpose purpose;
    char player[STORE_ID_MAX];  /* HINT, JUDGE: whom it is for */
    bool explain;               /* MOVE: also the figures of the move (a practice table) */
    pz_action played;           /* JUDGE: what the player did */
    int hand;                   /* JUDGE: the hand it was played in (1-based; 0 unknown) */
    int64_t game;               /* the game's id */
    char network[STORE_ID_MAX]; /* where the game is */
    char room[STORE_ID_MAX];
    uint64_t fingerprint; /* of the game's saved state when submitted */
    pz_view view;         /* the seat's view (view.seat: who acts) */
    pz_record record;     /* the hand's public record */
    pzai_level level;
    uint64_t seed;
    int iterations; /* 0: the level's default budget */
    /* The answer (host__think_take): pzai_decide's return and action, and the
       figures of the action (why) and of played (why_played). */
    int result;
    pz_action action;
    pzai_why why, why_played;
} think_job;

/*
 * Starts the worker. wake(arg) is called from the worker thread each time
 * a result is ready (to wake the loop: it must be thread-safe, e.g.
 * loop_wake). Returns 0, or -1 (no memory, no thread) with *out NULL.
 */
int host__think_new(think **out, void (*wake)(void *arg), void *arg);

/* Stops the worker (the decision under way ends first) and frees all. */
void host__think_free(think *t);

/*
 * Queues a copy of job j. Returns 0, or -1 when THINK_QUEUE_MAX jobs wait
 * (the caller tries again later) or a job of the same game, purpose and
 * player is already queued or running (JUDGE jobs queue in any number:
 * each is answered in its turn).
 */
int host__think_submit(think *t, const think_job *j);

/* Answers j where it is (the worker's work, also for a host without a
   worker): result, action, why, why_played. */
void host__think_run(think_job *j);

/* Takes the oldest answered job into *out: 1, or 0 when none is ready. */
int host__think_take(think *t, think_job *out);

/* Whether an answer waits for host__think_take (cheap: for the loop's timer). */
bool host__think_ready(think *t);

/* Jobs submitted and not yet taken (waiting, running or answered). */
int host__think_pending(think *t);

#endif /* PZ_THINK_H */
