/*
 * ai_strong.c — the strong level: single-observer information set Monte
 * Carlo tree search (SO-ISMCTS; Cowling, Powley and Whitehouse, 2012).
 *
 * One tree is grown over the deciding seat's information sets: a node is
 * the sequence of public actions from now, whoever took them. Each
 * iteration samples a fresh determinization (the hidden cards placed
 * consistently with the seat's view and the hand's public record), walks
 * the tree choosing among the actions legal in that sample by UCB1 with
 * availability counts, adds one node, plays on with a cheap rollout policy
 * (epsilon-greedy on the immediate score and the cards won) to the end of
 * the current deal (ST_HORIZON), and backs the result up as a reward in
 * [0, 1] for the side of each node's actor: d, its score gained since the
 * root against the best of the other sides' gains (cards won counted as
 * points until the hand is scored, a won game worth everything), squashed
 * as 1/2 + d / 2(|d| + S). The answer is the most visited root action.
 *
 * The tree covers plays with their capture or place mode and, inside the
 * simulations, the tendido choices of later deals; the arrangement is
 * always the best row. The dealer's own "now or later" at the root is the
 * expert level's (measured stronger, see engine/arena/RESULTS.md), and
 * declarations and claims (manual mode) are made by pzai_decide() before it
 * asks a level; inside the simulations every seat declares what it holds.
 *
 * Pure like the engine: libc and libporrazo only, no globals, no clock
 * (budget->stop is the caller's), every allocation freed before returning.
 */
#include <stdlib.h>
#include <string.h>

#include "ai_int.h"

/* Tuned with porrazo-arena (engine/arena/RESULTS.md). */
#define ST_ITERATIONS_DEFAULT 5000 /* well inside 100 ms (RESULTS.md) */
#define ST_UCB_C 0.7               /* UCB1 exploration constant (rewards in [0, 1]) */
#define ST_SCALE 12.0              /* a lead of this many points is a reward of 0.75 */
#define ST_EPSILON_PERMILLE 100    /* rollout: a random play this often */
#define ST_CARD_WEIGHT 1           /* rollout: a card won is worth this many points */
#define ST_HORIZON 0               /* deals simulated past the current one (-1: to the hand end) */
#define ST_NODES_MAX (1 << 18)     /* the tree's size cap (about 8 MB) */
#define ST_MOVES_MAX 64            /* distinct actions at one point, at most */

/* One node: the action that leads to it and its statistics. */
typedef struct st_node {
    int32_t parent, child, sibling; /* indexes; -1 for none */
    uint16_t key;                   /* the action (st_key) */
    int8_t seat;                    /* who took it; -1 at the root */
    int32_t visits;
    int32_t avail; /* iterations in which it was legal when its parent was reached */
    double reward; /* sum of rewards for seat's side */
} st_node;

/* The tree, a pool of nodes that grows by doubling up to ST_NODES_MAX. */
typedef struct st_tree {
    st_node *node;
    int count, cap;
} st_tree;

/* Everything one search needs. */
typedef struct st_search {
    const pz_view *v;
    const pz_record *r;
    pzai_rng rng;
    st_tree tree;
    pz_game *scratch; /* a copy for trying rollout moves (pz_game_size() bytes) */
    size_t game_size;
    int sides;
    int base_score[PZ_MAX_SIDES]; /* scores and piles at the root */
    int base_pile[PZ_MAX_SIDES];
    int declared_deal; /* manual mode: the deal whose declarations are made */
    int last_deal;     /* simulations stop once a deal after it is dealt */
} st_search;

/* The natural logarithm of x >= 1 (the exponent, then the series of
   2 atanh((m - 1) / (m + 1)) for the mantissa): libc only, no libm. */
static double st_log(double x)
{
    int e = 0;
    while (x >= 2.0) {
        x *= 0.5;
        e++;
    }
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, term = y, sum = 0;
    for (int k = 1; k <= 15; k += 2) {
        sum += term / k;
        term *= y2;
    }
    return 2.0 * sum + e * 0.69314718055994530942;
}

/* The square root of x >= 0 by Newton's method (libc only, no libm). */
static double st_sqrt(double x)
{
    if (x <= 0)
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 64; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* A uniform number in [0, bound), bound >= 1, from the search's generator. */
static int st_below(st_search *s, int bound)
{
    return (int)pzai__rng_below(&s->rng, (uint32_t)bound);
}

/*
 * The key of an action the tree knows: plays (card, mode), the tendido
 * choice, the best arrangement. Other kinds never reach the tree.
 */
static uint16_t st_key(const pz_action *a)
{
    switch (a->kind) {
    case PZ_ACT_PLAY:
        return (uint16_t)(a->card | (unsigned)a->mode << 6);
    case PZ_ACT_TENDIDO:
        return (uint16_t)(0x1000u | (a->now ? 1u : 0u));
    default:
        return 0x2000u;
    }
}

/* The action of key for seat (the inverse of st_key). */
static pz_action st_action(uint16_t key, int seat)
{
    if (key & 0x1000u)
        return pz_act_tendido(seat, key & 1u);
    if (key & 0x2000u)
        return pz_act_arrange_best(seat);
    return pz_act_play(seat, (pz_card)(key & 0x3Fu), (pz_mode)(key >> 6 & 3u));
}

/*
 * The distinct choices of the seat to move in g, as keys: one per play
 * (ANY where the rules impose the mode; capture and place where they give
 * a choice), now and later, or the best arrangement. Returns how many, 0
 * when nobody is to move (the hand or game is over).
 */
static int st_moves(const pz_game *g, uint16_t keys[ST_MOVES_MAX])
{
    pz_phase phase = pz_get_phase(g);
    int seat = pz_get_turn(g);
    if (seat < 0)
        return 0;
    if (phase == PZ_PHASE_ARRANGE) {
        keys[0] = 0x2000u;
        return 1;
    }
    pz_action acts[PZ_LEGAL_MAX];
    int n = pz_legal_actions(g, seat, acts, PZ_LEGAL_MAX), k = 0;
    if (n > PZ_LEGAL_MAX)
        n = PZ_LEGAL_MAX;
    for (int i = 0; i < n && k < ST_MOVES_MAX; i++) {
        const pz_action *a = &acts[i];
        if (a->kind != PZ_ACT_PLAY && a->kind != PZ_ACT_TENDIDO)
            continue;
        /* A play listed with ANY is also listed with its imposed mode: keep ANY. */
        if (a->kind == PZ_ACT_PLAY && a->mode != PZ_MODE_ANY) {
            bool has_any = false;
            for (int j = 0; j < n; j++)
                if (acts[j].kind == PZ_ACT_PLAY && acts[j].card == a->card &&
                    acts[j].mode == PZ_MODE_ANY)
                    has_any = true;
            if (has_any)
                continue;
        }
        keys[k++] = st_key(a);
    }
    return k;
}

/*
 * Manual mode: at the start of each deal inside the search, every seat
 * declares what it holds (a simple, strong habit). Returns 0, or -1 if the
 * engine refuses (it never should).
 */
static int st_declare_all(st_search *s, pz_game *g)
{
    if (s->v->options.declarations != PZ_DECL_MANUAL || pz_get_phase(g) != PZ_PHASE_PLAY)
        return 0;
    int deal = pz_get_deal(g) + 64 * pz_get_dealer(g);
    if (deal == s->declared_deal)
        return 0;
    s->declared_deal = deal;
    for (int seat = 0; seat < s->v->players; seat++) {
        pz_action acts[8];
        int n = pz_legal_actions(g, seat, acts, 8);
        for (int i = 0; i < n && i < 8; i++)
            if (acts[i].kind == PZ_ACT_DECLARE && pz_apply(g, &acts[i], NULL, NULL, 0) != 0)
                return -1;
    }
    return 0;
}

/* Adds a child of parent for key taken by seat; its index, or -1 when full. */
static int st_add(st_tree *t, int parent, uint16_t key, int seat)
{
    if (t->count == t->cap) {
        if (t->cap >= ST_NODES_MAX)
            return -1;
        int cap = t->cap ? t->cap * 2 : 1024;
        st_node *p = realloc(t->node, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        t->node = p;
        t->cap = cap;
    }
    int i = t->count++;
    st_node *n = &t->node[i];
    n->parent = parent;
    n->child = -1;
    n->sibling = -1;
    n->key = key;
    n->seat = (int8_t)seat;
    n->visits = 0;
    n->avail = 0;
    n->reward = 0;
    if (parent >= 0) {
        n->sibling = t->node[parent].child;
        t->node[parent].child = i;
    }
    return i;
}

/*
 * The value of g for seat's side as the rollout policy sees it: score
 * gained minus the others' best, cards won counted as points, the seat's
 * pending porrazo as if it stood, a win above all.
 */
static int st_policy_value(const pz_game *g, int side, int sides)
{
    if (pz_get_phase(g) == PZ_PHASE_GAME_OVER)
        return pz_get_winner(g) == side ? 100000 : -100000;
    int mine = 0, best_other = -100000;
    for (int t = 0; t < sides; t++) {
        int v = pz_get_score(g, t) + ST_CARD_WEIGHT * pz_get_pile(g, t);
        if (t == side)
            mine = v;
        else if (v > best_other)
            best_other = v;
    }
    int pseat = -1;
    pz_pending_kind pk = pz_get_pending(g, &pseat);
    if (pk != PZ_PENDING_NONE && pseat >= 0 && pz_side_of(g, pseat) == side) {
        pz_card cards[16];
        int n = pz_get_pending_cards(g, cards);
        int rank = n > 0 ? pz_card_rank(cards[0]) : 0;
        mine += ST_CARD_WEIGHT * n +
                (pk == PZ_PENDING_COUNTER ? pz_rondine_value(rank) : pz_ronda_value(rank));
    }
    return sides > 1 ? mine - best_other : mine;
}

/*
 * The rollout policy's move in g (which has a seat to move): with
 * probability epsilon a random choice, else the choice of best
 * st_policy_value after it (ties to the first listed). Writes the key.
 */
static uint16_t st_policy(st_search *s, const pz_game *g, const uint16_t *keys, int n)
{
    if (n == 1 || st_below(s, 1000) < ST_EPSILON_PERMILLE)
        return keys[st_below(s, n)];
    int seat = pz_get_turn(g), side = pz_side_of(g, seat);
    int best = 0, best_value = 0;
    for (int i = 0; i < n; i++) {
        memcpy(s->scratch, g, s->game_size);
        pz_action a = st_action(keys[i], seat);
        if (pz_apply(s->scratch, &a, NULL, NULL, 0) != 0)
            continue;
        int value = st_policy_value(s->scratch, side, s->sides);
        if (i == 0 || value > best_value)
            best = i, best_value = value;
    }
    return keys[best];
}

/*
 * The rewards of the end of a simulation, per side, in [0, 1]: a won
 * game 1 (0 for the others); else a squashed difference between the
 * side's gain since the root and the best gain of another side.
 */
static void st_rewards(const st_search *s, const pz_game *g, double reward[PZ_MAX_SIDES])
{
    pz_phase phase = pz_get_phase(g);
    if (phase == PZ_PHASE_GAME_OVER) {
        int w = pz_get_winner(g);
        for (int t = 0; t < s->sides; t++)
            reward[t] = t == w ? 1.0 : 0.0;
        return;
    }
    double gain[PZ_MAX_SIDES];
    bool open = phase != PZ_PHASE_HAND_OVER; /* piles not yet scored */
    for (int t = 0; t < s->sides; t++) {
        gain[t] = pz_get_score(g, t) - s->base_score[t];
        if (open)
            gain[t] += ST_CARD_WEIGHT * (pz_get_pile(g, t) - s->base_pile[t]);
    }
    for (int t = 0; t < s->sides; t++) {
        double other = -1e9;
        for (int u = 0; u < s->sides; u++)
            if (u != t && gain[u] > other)
                other = gain[u];
        double d = gain[t] - other;
        reward[t] = 0.5 + 0.5 * d / ((d < 0 ? -d : d) + ST_SCALE);
    }
}

/*
 * The UCB1 choice among node's children whose keys are in keys[0..n-1],
 * counting one more availability for each of them. The child's index.
 */
static int st_select(st_tree *t, int node, const uint16_t *keys, int n)
{
    int best = -1;
    double best_ucb = -1;
    for (int c = t->node[node].child; c >= 0; c = t->node[c].sibling) {
        st_node *ch = &t->node[c];
        bool legal = false;
        for (int i = 0; i < n && !legal; i++)
            legal = keys[i] == ch->key;
        if (!legal)
            continue;
        ch->avail++;
        double ucb = ch->reward / ch->visits +
                     ST_UCB_C * st_sqrt(st_log((double)ch->avail) / (double)ch->visits);
        if (ucb > best_ucb)
            best = c, best_ucb = ucb;
    }
    return best;
}

/*
 * The keys of keys[0..n-1] that node has no child for, moved to the front;
 * returns how many.
 */
static int st_untried(const st_tree *t, int node, uint16_t *keys, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int c = t->node[node].child; c >= 0 && !found; c = t->node[c].sibling)
            found = t->node[c].key == keys[i];
        if (!found) {
            uint16_t tmp = keys[k];
            keys[k++] = keys[i];
            keys[i] = tmp;
        }
    }
    return k;
}

/*
 * One iteration on the determinization g (consumed): selection, one
 * expansion, rollout to the end of the hand, back-up. Returns 0, or -1
 * when the engine refuses a move it listed (it never should).
 */
static int st_iterate(st_search *s, pz_game *g)
{
    st_tree *t = &s->tree;
    int node = 0;
    uint16_t keys[ST_MOVES_MAX];
    s->declared_deal = -1;
    bool in_tree = true;
    for (;;) {
        if (st_declare_all(s, g) != 0)
            return -1;
        int n = pz_get_deal(g) > s->last_deal ? 0 : st_moves(g, keys);
        if (n == 0)
            break;
        int seat = pz_get_turn(g);
        uint16_t key;
        if (in_tree) {
            int untried = st_untried(t, node, keys, n);
            if (untried > 0) {
                key = keys[st_below(s, untried)];
                int child = st_add(t, node, key, seat);
                if (child >= 0) {
                    node = child;
                    t->node[child].avail = 1;
                }
                in_tree = false;
            } else {
                node = st_select(t, node, keys, n);
                key = t->node[node].key;
            }
        } else {
            key = st_policy(s, g, keys, n);
        }
        pz_action a = st_action(key, seat);
        if (pz_apply(g, &a, NULL, NULL, 0) != 0)
            return -1;
    }
    double reward[PZ_MAX_SIDES];
    st_rewards(s, g, reward);
    for (int i = node; i > 0; i = t->node[i].parent) {
        st_node *n = &t->node[i];
        n->visits++;
        n->reward += reward[s->v->options.partnerships ? n->seat % (s->v->players / 2) : n->seat];
    }
    t->node[0].visits++;
    return 0;
}

/* The strong level's decision; see ai_int.h. */
int pzai__strong(const pz_view *v, const pz_record *r, uint64_t seed, const pzai_budget *budget,
                 pz_action *out)
{
    if (v->turn != v->seat)
        return PZ_EWRONG_PHASE;
    /* Measured: the expert's rule for now or later beats this search's
       choice (whose greedy rollouts undervalue keeping the option). */
    if (v->phase == PZ_PHASE_TENDIDO_CHOICE)
        return pzai__expert(v, r, seed, budget, out);
    if (v->phase == PZ_PHASE_ARRANGE) { /* the best row: nothing to search */
        *out = pz_act_arrange_best(v->seat);
        return 1;
    }
    st_search s = {.v = v, .r = r, .sides = v->sides, .last_deal = PZ_CARDS};
    if (ST_HORIZON >= 0 && v->phase == PZ_PHASE_PLAY)
        s.last_deal = v->deal + ST_HORIZON;
    pzai__rng_seed(&s.rng, seed);
    for (int t = 0; t < v->sides; t++) {
        s.base_score[t] = v->scores[t];
        s.base_pile[t] = v->piles[t];
    }
    s.game_size = pz_game_size();
    s.scratch = malloc(s.game_size);
    int rc = s.scratch && st_add(&s.tree, -1, 0, -1) == 0 ? 0 : PZ_ENO_MEMORY;
    int iterations = budget && budget->iterations > 0 ? budget->iterations : ST_ITERATIONS_DEFAULT;
    uint16_t root_keys[ST_MOVES_MAX];
    int nroot = 0;
    for (int it = 0; rc == 0 && it < iterations; it++) {
        if (it > 0 && budget && budget->stop && budget->stop(budget->stop_arg))
            break;
        pz_game *g = NULL;
        rc = pzai__sample(v, r, &s.rng, &g);
        if (rc != 0)
            break;
        if (it == 0)
            nroot = st_moves(g, root_keys);
        if (nroot <= 1) { /* nothing to weigh */
            pz_free(g);
            break;
        }
        rc = st_iterate(&s, g) == 0 ? 0 : PZ_EINVALID_ACTION;
        pz_free(g);
    }
    int best = -1;
    if (rc == 0 && nroot > 1)
        for (int c = s.tree.node[0].child; c >= 0; c = s.tree.node[c].sibling)
            if (best < 0 || s.tree.node[c].visits > s.tree.node[best].visits)
                best = c;
    if (rc == 0 && best >= 0)
        *out = st_action(s.tree.node[best].key, v->seat);
    else if (rc == 0 && nroot == 1)
        *out = st_action(root_keys[0], v->seat);
    else if (rc == 0)
        rc = PZ_EWRONG_PHASE; /* the seat has no move: not called for */
    free(s.tree.node);
    free(s.scratch);
    return rc == 0 ? 1 : rc;
}
