/*
 * render.h — Porrazo in words: engine events, tables, hands and the score
 * board turned into short chat lines (UTF-8, suits as ♣ ♦ ♥ ♠), plus the
 * help and rules texts.
 *
 * Pure functions from engine state to text: no I/O, no protocol. Lines are
 * plain text; adapters add colour (IRC colour codes, Matrix HTML) by
 * recognising the suit symbols. Public lines never show a hand's cards.
 * Every function fills a caller buffer and cuts cleanly (at a UTF-8
 * boundary) rather than overflow.
 */
#ifndef PZ_RENDER_H
#define PZ_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "porrazo.h"

#define RENDER_LINE_MAX 400 /* bytes of one line, NUL included */
#define RENDER_LINES_MAX 48

typedef struct render_lines {
    int n;
    char line[RENDER_LINES_MAX][RENDER_LINE_MAX];
} render_lines;

/* Starts an empty list. Only the count is set: each line is written whole
   when it is added, and nothing reads past the count (a list is ~19 KB,
   zeroed it cost a command more than the rest of its rendering). */
void render_init(render_lines *out);

/* Appends a formatted line (cut at a UTF-8 boundary if too long); does
   nothing when full. */
void render_add(render_lines *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The display names of the seats of one game, and the command prefix of
   its room ("!"; NULL or "" in private), written in prompts. */
typedef struct render_names {
    int players;
    const char *nick[PZ_MAX_PLAYERS];
    const char *prefix;
} render_names;

/* "7♥", "10♠", "K♣" (no "T": players read 10) into buf[8]. */
void render_card(pz_card c, char buf[8]);
/* The word of rank r as cards show it: "A", "2", ..., "10", "J", "Q", "K"
   ("?" for none). */
const char *render_rank(int r);
/* Cards separated by spaces; "(empty)" for none. */
void render_cards(const pz_card *cards, int n, char *buf, size_t cap);
/* The same, sorted by rank then suit (hands and the table everywhere). */
void render_cards_sorted(const pz_card *cards, int n, char *buf, size_t cap);

/* A side's name: the nick, or "alice & carol" with partnerships. */
void render_side(const pz_game *g, const render_names *names, int side, char *buf, size_t cap);

/*
 * The public segments of one action's events (from pz_new or pz_apply),
 * as the room sees them, appended to out, one segment per entry (the host
 * joins them with " · "). One segment per play: the player, the card,
 * what it took, points and why (porrazo, limpia, in place, ...) with the
 * side's new total ("ann 7♥ takes 7♣ 8♦, limpia +1 → 12"). A deal says
 * which deal of the hand it is and that hands come privately; the
 * tendido, its arrangement and points; declarations without rank; the
 * sweep, the cards won and their score, and the winner. `after` is the
 * game after the action (for names of sides and the target). Does not add
 * the table or the next player (see render_status).
 */
void render_events(const pz_game *after, const render_names *names, const pz_events *ev,
                   render_lines *out);

/*
 * What action a of the seat to act would do, as that player reads it in
 * their list of moves, from the events ev that pz_apply() gave for it on a
 * copy of the game (after: that copy): "7♥ takes 7♣ 8♦: limpia +1", "K♠
 * lays", "4♦ in place +4", "7♥ capture takes 7♣" (a play whose mode must
 * be said), "tendido now", "arrange best +3", "ronda". Only the move is
 * told, never what follows it (the next deal, the tendido's cards, the
 * hand's card score), so nothing hidden from the player is.
 */
void render_outcome(const pz_game *after, const render_names *names, const pz_action *a,
                    const pz_events *ev, char *buf, size_t cap);

/*
 * The state in one line: the table (sorted), and who is to act and what
 * ("table 3♠ J♦ · bob to play", "table ... · alice deals and chooses:
 * !tendido now or !tendido later", "alice arranges the tendido ..."), with
 * the nick to act written plainly so chat clients highlight it and the
 * room's prefix (names->prefix) in every command it suggests; at
 * hand_over "the hand is over" (the host deals the next hand at once); at
 * game_over the winner.
 */
void render_status(const pz_game *g, const render_names *names, char *buf, size_t cap);

/* The score in one line: "ann 12, bob 9 (to 61)". */
void render_score_line(const pz_game *g, const render_names *names, char *buf, size_t cap);

/*
 * The score board: a header ("Score — first to 61") then one line per
 * side with a bar towards the target, like pegs on a cribbage board:
 * "alice  [██████░░░░░░░░░░░░░░] 19". Appended to out.
 */
void render_board(const pz_game *g, const render_names *names, render_lines *out);

/*
 * A seat's private hand line from its view, cards sorted by rank: "Your
 * hand in #friends (deal 2 of 8): 2♣ 7♥ K♠ · table 5♣ Q♥" plus, when it
 * is the seat's turn, what to do ("your turn: play a card, e.g. play 2");
 * while the dealer's hand is hidden (R4.2): "you deal: choose the tendido
 * first (tendido now or tendido later); your cards follow". room may be "".
 */
void render_hand(const pz_view *v, const char *room, char *buf, size_t cap);

/*
 * The private turn prompt, one line: "Your turn in #friends (deal 2 of 8)
 * — since your last play: bob 3♠ takes 3♦ · carl 5♣ — hand 2♣ 5♦ · table
 * 5♣ J♦ · your turn: play a card, e.g. play 2". since ("" or NULL: nothing) is what
 * the room saw since the seat's last play. room may be "".
 */
void render_prompt(const pz_view *v, const char *room, const char *since, char *buf, size_t cap);

/* The options in words: "2–8 players · to 61 · partners · declarations
   manual · ..." (only what differs from R9's defaults after the target). */
void render_options(const pz_options *o, char *buf, size_t cap);

/* A room's setting id (cmd_settings.h) as its "settings" line lists it
   ("turn deadline 24 h", "computer players expert (the bot's)") and as
   "set" tells its change ("new tables have a turn deadline of 24 h"),
   from settings.def's words, in the thread's language. bot_prefix: what
   commands start with where the room set none. */
struct cmd_settings;
void render_setting_item(const struct cmd_settings *s, int id, const char *bot_prefix, char *out,
                         size_t cap);
void render_setting_told(const struct cmd_settings *s, int id, const char *bot_prefix, char *out,
                         size_t cap);
/* A computer players' level as players read it ("strong", "fuerte"). */
const char *render_level(int level);

/* Help: with topic "" the list of commands (a few lines); with a command
   word, its usage and one example. Unknown topic: a line saying so and
   listing the commands. prefix is the channel prefix ("!"). */
void render_help(const char *topic, const char *prefix, render_lines *out);

/* Rules: with topic "" a 4–6 line summary of Porrazo; topics: capture,
   place, limpia, porrazo, tendido, ronda, scoring, end. Cites rule IDs of
   RULES.md ("(R6.2)"). Unknown topic: list the topics. */
void render_rules(const char *topic, render_lines *out);

#endif /* PZ_RENDER_H */
