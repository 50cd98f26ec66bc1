/*
 * think.c — the worker thread of the computer players (see think.h).
 *
 * One mutex guards a fixed ring of slots; a job goes WAITING → RUNNING →
 * DONE → free. The worker sleeps on a condition variable until a job
 * waits or the thinker stops; it copies the job out, decides without the
 * lock, and writes the answer back into the same slot, then calls wake().
 * The loop reads the oldest DONE slot. A slot's position never changes
 * while its job lives, so nobody holds a pointer into another's copy.
 */
#include "think.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef enum slot_state { SLOT_FREE, SLOT_WAITING, SLOT_RUNNING, SLOT_DONE } slot_state;

struct think {
    pthread_mutex_t mu;
    pthread_cond_t work;
    pthread_t thread;
    bool stopping;
    void (*wake)(void *arg);
    void *wake_arg;
    uint64_t next_seq;             /* submission order */
    uint64_t seq[THINK_QUEUE_MAX]; /* of each slot's job */
    slot_state state[THINK_QUEUE_MAX];
    think_job job[THINK_QUEUE_MAX];
};

/* The oldest slot in state s, or -1. Called with the lock held. */
static int oldest(const think *t, slot_state s)
{
    int best = -1;
    for (int i = 0; i < THINK_QUEUE_MAX; i++)
        if (t->state[i] == s && (best < 0 || t->seq[i] < t->seq[best]))
            best = i;
    return best;
}

void host__think_run(think_job *j)
{
    pzai_budget budget = {j->iterations, NULL, NULL};
    memset(&j->why, 0, sizeof j->why);
    memset(&j->why_played, 0, sizeof j->why_played);
    switch (j->purpose) {
    case THINK_MOVE:
        j->result = pzai_decide(&j->view, &j->record, j->level, j->seed, &budget, &j->action);
        if (j->result == 1 && j->explain &&
            pzai_why_of(&j->view, &j->record, &j->action, j->seed, &j->why) != 0)
            j->explain = false;
        break;
    case THINK_HINT:
        j->result = pzai_hint(&j->view, &j->record, j->seed, &budget, &j->action, &j->why);
        break;
    case THINK_JUDGE: /* a play against a play: never a claim or a declaration */
        j->result = pzai_hint_play(&j->view, &j->record, j->seed, &budget, &j->action, &j->why);
        if (j->result == 1 &&
            pzai_why_of(&j->view, &j->record, &j->played, j->seed, &j->why_played) != 0)
            j->result = -1;
        break;
    default:
        j->result = 0;
        break;
    }
}

/* The worker: one waiting job at a time, oldest first. */
static void *work(void *arg)
{
    think *t = arg;
    think_job j;
    pthread_mutex_lock(&t->mu);
    for (;;) {
        int i;
        while (!t->stopping && (i = oldest(t, SLOT_WAITING)) < 0)
            pthread_cond_wait(&t->work, &t->mu);
        if (t->stopping)
            break;
        t->state[i] = SLOT_RUNNING;
        j = t->job[i];
        pthread_mutex_unlock(&t->mu);
        host__think_run(&j);
        pthread_mutex_lock(&t->mu);
        t->job[i].result = j.result;
        t->job[i].action = j.action;
        t->job[i].why = j.why;
        t->job[i].why_played = j.why_played;
        t->state[i] = SLOT_DONE;
        if (t->wake != NULL)
            t->wake(t->wake_arg);
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

int host__think_new(think **out, void (*wake)(void *arg), void *arg)
{
    *out = NULL;
    think *t = calloc(1, sizeof *t);
    if (t == NULL)
        return -1;
    t->wake = wake;
    t->wake_arg = arg;
    if (pthread_mutex_init(&t->mu, NULL) != 0) {
        free(t);
        return -1;
    }
    if (pthread_cond_init(&t->work, NULL) != 0) {
        pthread_mutex_destroy(&t->mu);
        free(t);
        return -1;
    }
    if (pthread_create(&t->thread, NULL, work, t) != 0) {
        pthread_cond_destroy(&t->work);
        pthread_mutex_destroy(&t->mu);
        free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void host__think_free(think *t)
{
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->mu);
    t->stopping = true;
    pthread_cond_signal(&t->work);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->work);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

int host__think_submit(think *t, const think_job *j)
{
    int rc = -1;
    pthread_mutex_lock(&t->mu);
    int free_slot = -1;
    bool busy = false;
    for (int i = 0; i < THINK_QUEUE_MAX; i++) {
        if (t->state[i] == SLOT_FREE) {
            if (free_slot < 0)
                free_slot = i;
        } else if (t->job[i].game == j->game && strcmp(t->job[i].network, j->network) == 0 &&
                   t->job[i].purpose == j->purpose && j->purpose <= THINK_HINT &&
                   strcmp(t->job[i].player, j->player) == 0) {
            busy = true;
        }
    }
    if (!busy && free_slot >= 0) {
        t->job[free_slot] = *j;
        t->seq[free_slot] = t->next_seq++;
        t->state[free_slot] = SLOT_WAITING;
        pthread_cond_signal(&t->work);
        rc = 0;
    }
    pthread_mutex_unlock(&t->mu);
    return rc;
}

int host__think_take(think *t, think_job *out)
{
    pthread_mutex_lock(&t->mu);
    int i = oldest(t, SLOT_DONE);
    if (i >= 0) {
        *out = t->job[i];
        t->state[i] = SLOT_FREE;
    }
    pthread_mutex_unlock(&t->mu);
    return i >= 0;
}

bool host__think_ready(think *t)
{
    pthread_mutex_lock(&t->mu);
    bool ready = oldest(t, SLOT_DONE) >= 0;
    pthread_mutex_unlock(&t->mu);
    return ready;
}

int host__think_pending(think *t)
{
    int n = 0;
    pthread_mutex_lock(&t->mu);
    for (int i = 0; i < THINK_QUEUE_MAX; i++)
        n += t->state[i] != SLOT_FREE;
    pthread_mutex_unlock(&t->mu);
    return n;
}
