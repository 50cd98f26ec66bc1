/*
 * help.c — the help and rules texts of render.h and help.h: the list of
 * commands, one command's usage with an example, a short summary of
 * Porrazo and its rules by topic, with the target and options of the game
 * they are asked about. Written for players: no rule IDs of RULES.md, no
 * seat numbers, no engine words ("ltr"); directions are "from the left"
 * and "from the right".
 *
 * The commands' words and texts are the command table's (verbs.def, which
 * the parser reads too: help never names a word the parser refuses).
 * Texts are constant tables; lines go out through render_add() and the
 * bounded builder of render_text.h, which cut them. A topic typed by a
 * player is matched against the tables (case-insensitive, prefix and
 * Spanish aliases allowed) and echoed only as valid UTF-8 without control
 * characters. Not here: parsing commands
 * (command.c) or knowing whether a command is allowed now (the host).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_settings.h"
#include "command.h"
#include "help.h"
#include "i18n.h"
#include "render_text.h"
#include "text.h"

#define TOPIC_ECHO_MAX 33 /* bytes of a player's topic echoed back, NUL included */

/* Where the list of commands shows a verb (verbs.def's SECTION). */
enum help_section {
    HELP_LOBBY,
    HELP_PLAY,
    HELP_DECLARE,
    HELP_GAME,
    HELP_MORE,
    HELP_HELPS,
    HELP_OWNERS
};

/* The list's sections in order: what comes before the first entry, and
   whether the section starts a line of its own. */
static const struct {
    const char *lead;
    bool new_line;
} SECTIONS[] = {
    [HELP_LOBBY] = {N_("Lobby: "), true},     [HELP_PLAY] = {N_("Play: "), true},
    [HELP_DECLARE] = {N_("Declare: "), true}, [HELP_GAME] = {N_(" — Game: "), false},
    [HELP_MORE] = {N_("More: "), true},       [HELP_HELPS] = {" · ", false},
    [HELP_OWNERS] = {N_("Owners: "), true},
};
#define NSECTIONS ((int)(sizeof SECTIONS / sizeof SECTIONS[0]))

/* One command's help, from its row of the command table (verbs.def). */
typedef struct help_cmd {
    const char *name;
    const char *words[2]; /* other words for it: shown, then not shown */
    int section;          /* enum help_section */
    const char *list;     /* its entry in the list, after the prefix ('^': the prefix) */
    const char *usage;    /* after the prefix */
    const char *what;
    const char *example; /* after the prefix */
} help_cmd;

static const help_cmd COMMANDS[] = {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    [CMD_##id] = {name, {shown, more}, section, list, usage, what, example},
#include "verbs.def"
#undef X
};

#define NCOMMANDS ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

/* True when the n bytes at a equal the NUL-terminated word b, ignoring case. */
static bool word_equal(const char *a, size_t n, const char *b)
{
    size_t k = 0;
    for (; k < n && b[k] != '\0'; k++) {
        char x = a[k], y = b[k];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (x != y)
            return false;
    }
    return k == n && b[k] == '\0';
}

/* True when the word a[0..n) is one of the space-separated words of list. */
static bool word_in_list(const char *a, size_t n, const char *list)
{
    while (*list != '\0') {
        size_t len = strcspn(list, " ");
        char word[32];
        if (len > 0 && len < sizeof word) {
            memcpy(word, list, len);
            word[len] = '\0';
            if (word_equal(a, n, word))
                return true;
        }
        list += len;
        while (*list == ' ')
            list++;
    }
    return false;
}

/*
 * The topic's word without the prefix, surrounding spaces and anything
 * after its first word: sets *start and returns its length.
 */
static size_t topic_word(const char *topic, const char *prefix, const char **start)
{
    size_t plen = prefix != NULL ? strlen(prefix) : 0;
    while (*topic == ' ')
        topic++;
    if (plen > 0 && strncmp(topic, prefix, plen) == 0)
        topic += plen;
    *start = topic;
    return strcspn(topic, " \t");
}

/* The command a topic names (its word or an alias), or NULL. */
static const help_cmd *find_command(const char *word, size_t n)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (word_equal(word, n, COMMANDS[i].name) || word_in_list(word, n, COMMANDS[i].words[0]) ||
            word_in_list(word, n, COMMANDS[i].words[1]))
            return &COMMANDS[i];
    return NULL;
}

/* The length of the valid UTF-8 character at s (control bytes are not
   characters here), or 0 when it is not one. */
static size_t utf8_char(const unsigned char *s)
{
    if (s[0] >= 0x20 && s[0] < 0x7F)
        return 1;
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Copies a player's topic into buf[TOPIC_ECHO_MAX]: whole valid UTF-8
   characters only, control and invalid bytes and invisible format
   characters (text_invisible_len) dropped. */
static void topic_echo(const char *topic, char buf[TOPIC_ECHO_MAX])
{
    const unsigned char *t = (const unsigned char *)topic;
    size_t n = 0;
    while (*t != '\0') {
        size_t len = utf8_char(t);
        if (len == 0) {
            t++;
            continue;
        }
        if (text_invisible_len((const char *)t, len) > 0) {
            t += len;
            continue;
        }
        if (n + len >= TOPIC_ECHO_MAX)
            break;
        memcpy(buf + n, t, len);
        n += len;
        t += len;
    }
    buf[n] = '\0';
}

/* Appends a list entry of the table after the prefix p, each '^' in it
   the prefix too: "ronda · ^rondine" → "!ronda · !rondine". */
static void put_entry(rtext *b, const char *entry, const char *p)
{
    rtext_addf(b, "%s", p);
    for (const char *hat; (hat = strchr(entry, '^')) != NULL; entry = hat + 1)
        rtext_addf(b, "%.*s%s", (int)(hat - entry), entry, p);
    rtext_addf(b, "%s", entry);
}

/* The list of commands, each with the prefix: the command table's rows
   section by section, a line for each section that starts one. */
static void help_list(const char *p, render_lines *out)
{
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    for (int s = 0; s < NSECTIONS; s++) {
        if (SECTIONS[s].new_line && s > 0) {
            rtext_line(out, &b);
            rtext_init(&b, line, sizeof line);
        }
        rtext_addf(&b, "%s", _(SECTIONS[s].lead));
        int k = 0;
        for (int i = 0; i < NCOMMANDS; i++) {
            if (COMMANDS[i].section != s)
                continue;
            if (k++ > 0)
                rtext_addf(&b, " · ");
            put_entry(&b, _(COMMANDS[i].list), p);
        }
    }
    rtext_line(out, &b);
}

/* The command table's words are folded (no accents, as the parser compares
   them); the ones a reader writes with an accent are shown with it. */
static const char *const WRITTEN[][2] = {
    {"quien", "quién"},       {"revision", "revisión"},
    {"practica", "práctica"}, {"estadisticas", "estadísticas"},
    {"pagina", "página"},     {"rondin", "rondín"},
};

/* words[0..len) as a reader writes it: WRITTEN's form, else as it is. */
static void put_written(rtext *b, const char *words, size_t len)
{
    for (size_t i = 0; i < sizeof WRITTEN / sizeof WRITTEN[0]; i++)
        if (word_equal(words, len, WRITTEN[i][0])) {
            rtext_addf(b, "%s", WRITTEN[i][1]);
            return;
        }
    rtext_addf(b, "%.*s", (int)len, words);
}

/*
 * Appends words (separated by sep in the table) to b, each after the
 * prefix p and separated by joint, less the word skip when not NULL:
 * "jugar juega tirar" → "!juega, !tirar" (skip "jugar"); accents as
 * WRITTEN puts them.
 */
static void put_words(rtext *b, const char *words, const char *sep, const char *joint,
                      const char *p, const char *skip)
{
    size_t seplen = strlen(sep);
    for (int k = 0; *words != '\0';) {
        const char *end = strstr(words, sep);
        size_t len = end != NULL ? (size_t)(end - words) : strlen(words);
        if (skip == NULL || !word_equal(words, len, skip)) {
            rtext_addf(b, "%s%s", k++ > 0 ? joint : "", p);
            put_written(b, words, len);
        }
        words += len + (end != NULL ? seplen : 0);
    }
}

/* Appends usage's forms ("arrange best | arrange CARD...") to b, each
   form that starts with a word of the command after the prefix p, the
   others as they are: set's later forms are its keys ("set options
   WORDS|off | deadline DURATION|off"), not commands. */
static void put_usage(rtext *b, const help_cmd *c, const char *usage, const char *p)
{
    for (int k = 0; *usage != '\0'; k++) {
        const char *end = strstr(usage, " | ");
        size_t len = end != NULL ? (size_t)(end - usage) : strlen(usage);
        char first[32];
        if (text_fold(usage, strcspn(usage, " "), first, sizeof first) < 0)
            first[0] = '\0';
        size_t n = strlen(first);
        bool command = k == 0 || word_equal(first, n, c->name) ||
                       word_in_list(first, n, c->words[0]) || word_in_list(first, n, c->words[1]);
        rtext_addf(b, "%s%s%.*s", k > 0 ? " | " : "", command ? p : "", (int)len, usage);
        usage += len + (end != NULL ? 3 : 0);
    }
}

/* Appends one command's help: usage and what it does, then an example
   and the other words that name it. */
static void help_command(const help_cmd *c, const char *p, render_lines *out)
{
    char line[RENDER_LINE_MAX];
    rtext b;
    rtext_init(&b, line, sizeof line);
    put_usage(&b, c, _(c->usage), p);
    if (c == &COMMANDS[CMD_SET]) /* its keys, from the settings table */
        for (int id = 0; id < CMD_ROOM_SETTINGS; id++)
            rtext_addf(&b, "%s%s", id > 0 ? " | " : ": ", _(cmd_setting_row_of(id)->usage));
    rtext_addf(&b, " — %s.", _(c->what));
    rtext_line(out, &b);
    rtext_init(&b, line, sizeof line);
    const char *example = _(c->example);
    rtext_addf(&b, _("Example: %s%s"), p, example);
    /* the other words, less the one the example already says (a Spanish
       example's "pista" is one of hint's words) */
    char said[32];
    if (text_fold(example, strcspn(example, " "), said, sizeof said) < 0)
        said[0] = '\0';
    if (c->words[0][0] != '\0' &&
        !(word_in_list(said, strlen(said), c->words[0]) && strchr(c->words[0], ' ') == NULL)) {
        char also[RENDER_LINE_MAX / 2];
        rtext a;
        rtext_init(&a, also, sizeof also);
        put_words(&a, c->words[0], " ", ", ", p, said);
        rtext_addf(&b, " ");
        rtext_addf(&b, _("(also %s)"), also);
    }
    rtext_line(out, &b);
}

/* Appends the list of commands (topic ""), one command's usage and example,
   or for an unknown topic a line saying so and the list. */
void render_help(const char *topic, const char *prefix, render_lines *out)
{
    const char *p = prefix != NULL ? prefix : "";
    const char *word;
    size_t n = topic_word(topic != NULL ? topic : "", p, &word);
    if (n == 0) {
        help_list(p, out);
        return;
    }
    const help_cmd *c = find_command(word, n);
    if (c == NULL) {
        char echo[TOPIC_ECHO_MAX];
        topic_echo(topic, echo);
        render_add(out, _("There is no command \"%s\". The commands are:"), echo);
        help_list(p, out);
        return;
    }
    /* "help set plazo": that setting's row */
    const char *rest = word + n + strspn(word + n, " ");
    int id = c == &COMMANDS[CMD_SET] && *rest != '\0' ? cmd_setting_find(rest) : -1;
    if (id >= 0) {
        const cmd_setting_row *r = cmd_setting_row_of(id);
        char usage[RENDER_LINE_MAX];
        snprintf(usage, sizeof usage, "%s", _(r->usage));
        render_add(out, _("%sset %s — %s."), p, usage, _(r->what));
        return;
    }
    help_command(c, p, out);
}

/* One rules topic: its word, other words for it, its lines, and one
   worked example (from RULES.md's own, its rule in brackets there). */
typedef struct rules_topic {
    const char *name;
    const char *aliases;
    const char *line[4]; /* NULL after the last */
    const char *example; /* N_(): translated where it is said */
} rules_topic;

static const rules_topic TOPICS[] = {
    {"capture",
     "captures sequence take captura capturar escalera",
     {N_("A card takes one table card of its rank, then one of each next rank while they last: "
         "on a table of 5 6 6 7 9, a 5 takes 5 6 7."),
      NULL, /* how a sequence ends, by the game's options: see rules_capture() */
      N_("With no match the card stays on the table. Capturing is compulsory: a card that can "
         "take must take, except in place (rules place)."),
      NULL},
     N_("Example: on a table of A 2 5 6 6 7 9 J Q K, a 5 takes 5 6 7 (one 6 stays), a 6 takes 6 "
        "7, a 9 takes the 9, and an 8 or a 10 takes nothing.")},
    {"place",
     "inplace in-place lugar colocar",
     {N_("A card scores in place when it captures nothing and its value is the number of "
         "cards on the table once it lies there: an A on an empty table scores 1, a 2 laid as "
         "the table's second card 2, a 3 as the third 3, a 4 as the fourth 4."),
      N_("If it could capture too, you choose: play 4 capture, or play 4 place."), NULL},
     N_("Example: on a table of 4 5 9, a 4 may capture 4 5 or go in place as the fourth card for "
        "4; on a lone 2, a 2 may capture it (a limpia of 1) or go in place for 2.")},
    {"limpia",
     "clean sweep limpiar",
     {N_("A capture that empties the table is a limpia: 1 point, or 2 for a J, 3 for a Q, 4 for "
         "a K, by the last card taken."),
      N_("Not a limpia: the final sweep of the table, or a capture with the hand's last card."),
      NULL},
     N_("Example: a K that takes K A 2 3 4, the whole table, scores a limpia of 1, since the "
        "last card it took is the 4.")},
    {"porrazo",
     "counter san sanbenito benito contra contraporrazo",
     {N_("Porrazo: play the rank of the card just laid (one that took nothing): you take it and "
         "its sequence, and score 1 (2 for a J, 3 for a Q, 4 for a K)."),
      N_("It is pending until the next player plays, and stands (scores) when they play another "
         "rank or the deal ends: a porrazo with a deal's last card stands at once."),
      N_("If the next player plays the third card of the rank it is a counter porrazo: your "
         "porrazo scores nothing; they take all its cards and score 3 (6 for a J, 9 for a Q, "
         "12 for a K), plus the limpia again if yours was one."),
      N_("After a counter porrazo, the fourth card of the rank is a san benito: that side wins "
         "the game at once.")},
     N_("Example: a porrazo of a 5 that empties the table will score 1 and a limpia of 1 when "
        "it stands; if the next player plays the third 5 instead, your porrazo scores nothing "
        "and their counter porrazo scores 3 plus that limpia of 1.")},
    {"tendido",
     "layout arrange ordenar",
     {N_("Once a hand (the dealer's turn, several deals of 3 cards each) the dealer takes the "
         "next 4 cards of the undealt pack and lays them face up in two pairs: tendido now, "
         "right after this deal, or later, after another; at the hand's last deal it is now."),
      N_("The dealer lays them in a row, each pair in either order, counted from left to right "
         "or from right to left: each A, 2, 3, 4 in its own position scores its value."),
      N_("Sets made with a tendido card score too: a pair 1 to 4, three of a rank 3 to 12, four "
         "6 to 24."),
      N_("Say tendido now or tendido later, then arrange best, or the row: arrange 4 2 3 7 left "
         "(or right).")},
     N_("Example: on a table of 5 6 Q, pairs 4-Q and 4-Q laid 4 Q Q 4 score 14: the two 4s 1, "
        "three queens 9, and the 4 in position 4 counted from right to left 4.")},
    {"ronda",
     "rondine rondina declare declarations holding cantar declarar",
     {N_("A pair in the three cards dealt to you is a ronda, three of a rank a rondine."),
      N_("At the end of the deal only the best declared one at the table scores (a rondine "
         "beats a ronda; then the higher rank; then the one nearest the dealer's left): ronda "
         "K 4, Q 3, J 2, others 1; rondine K 12, Q 9, J 6, others 3."),
      N_("With manual declarations (pagat's rule) say ronda or rondine before the deal's first "
         "card; one not declared can be claimed by the other side: claim NICK."),
      NULL},
     N_("Example: you are dealt K K 5 and bob 7 7 2: both rondas are declared, only your kings "
        "score, 4; had carl been dealt 5 5 5, his rondine would beat both and score 3 "
        "instead.")},
    {"scoring",
     "score points puntos puntuacion tanteo",
     {N_("Points come from porrazos, counter porrazos, limpias, cards in place, the tendido, "
         "rondas and rondines, and the cards won."),
      N_("At the end of the hand the table goes to the last side to capture; then the side with "
         "the most cards scores the difference to the next."),
      NULL},
     N_("Example: at the hand's end a side with 30 cards against the next side's 22 scores 8; "
        "with excess26 (two sides) it scores 4, its cards over 26.")},
    {"end", /* its line names the target: see rules_end() */
     "win winning game target fin ganar meta",
     {NULL},
     N_("Example: a side 2 points short of the target whose porrazo on a J scores 2 wins at "
        "once, mid-deal: nothing after that card is scored.")},
    {"sealed", /* FAIRNESS.md */
     "seal fair fairness pack sellado sello justo justa baraja",
     {N_("\"pack sealed 847e357ca8ab\" on a hand's first line is a seal of its shuffled pack, "
         "made before the first card: the bot cannot change that deal afterwards."),
      N_("Once the game is over its record reveals each hand's seed and the game's salt: "
         "porrazo-replay --verify, or the game's page, checks each seal and deals every hand "
         "again."),
      N_("A game's page is its record, every card of every hand; the same address ending in "
         ".json is that record for programs."),
      NULL},
     N_("Example: the seed and salt of a hand sealed 847e357ca8ab must give 847e357ca8ab again "
        "and the very cards dealt; anything else fails the check.")},
    {"options", /* R9 */
     "option variants variant wrap nowrap declarations manual silent excess26 partners "
     "partnerships leftover sweep opciones variantes",
     {N_("Options are set when a game is made, after the number of players: new 3 to 31 "
         "nowrap. Unset, a game is: to 61, sequences go on after K, rondas declared for you, "
         "the tendido's time the dealer's choice."),
      N_("to N: the target. nowrap: a sequence stops at K. declarations manual: say ronda "
         "yourself, or be claimed; silent: nothing is said until the deal ends. tendido last: "
         "the pack's last 4 cards."),
      N_("partners: sides of two (an even number of players, 4 or more). excess26 (two sides): "
         "the side with more than 26 cards scores the excess instead of the difference. "
         "Leftover cards go to the table, or with leftover deal to the players."),
      N_("The table's last cards go to the last side to capture, or with sweep dealer to the "
         "dealer. During a game, rules shows its options.")},
     N_("Example: new 2 to 31 excess26 is a two-player game to 31 where, at each hand's end, "
        "30 cards against 18 score 4 (30 less 26), not 12.")},
};

#define NTOPICS ((int)(sizeof TOPICS / sizeof TOPICS[0]))

/* The target of the game (the default of the rules without one). */
static int target_of(const pz_options *game)
{
    pz_options o;
    if (game != NULL)
        return game->target;
    pz_options_default(&o);
    return o.target;
}

/* The line of the game's options, when there is a game. */
static void game_options(const pz_options *game, render_lines *out)
{
    char opts[300];
    if (game == NULL)
        return;
    render_options(game, opts, sizeof opts);
    render_add(out, _("This game: %s."), opts);
}

/* The topic "end": how a game is won, with the target. */
static void rules_end(const pz_options *game, render_lines *out)
{
    render_add(out,
               _("The first side to reach %d points wins at once, even in the middle of a deal. "
                 "A san benito wins outright."),
               target_of(game));
}

/* Whether sequences go on after K (R1.3): the game's option, else the
   default. */
static bool wraps(const pz_options *game)
{
    pz_options o;
    if (game != NULL)
        return game->wrap;
    pz_options_default(&o);
    return o.wrap;
}

/* The topic "capture"'s line on how a sequence ends (R1.3): after K
   comes A only where the game's options allow it. */
static void rules_capture(const pz_options *game, render_lines *out)
{
    if (wraps(game) && game == NULL)
        render_add(out, "%s",
                   _("After K comes A, then 2: on a table of K A 2 5, a Q takes Q K A 2. (A game "
                     "with the option nowrap stops at K.)"));
    else if (wraps(game))
        render_add(out, "%s",
                   _("After K comes A, then 2: on a table of K A 2 5, a Q takes Q K A 2."));
    else
        render_add(out, "%s", _("This game stops at K: nothing follows it (option nowrap)."));
}

/* The summary of Porrazo, for "rules" without a topic. */
static void rules_summary(const pz_options *game, render_lines *out)
{
    render_add(out,
               _("Porrazo: 2–8 players, alone or in partners, one pack; the first side to reach "
                 "%d points wins."),
               target_of(game));
    render_add(out, "%s",
               _("The dealer deals 3 cards each, several times a hand; in turn you play one "
                 "card."));
    if (wraps(game))
        render_add(out, "%s",
                   _("A card takes the table card of its rank and the ranks that follow, K then "
                     "A then 2: a 5 takes 5 6 7. Capturing is compulsory. An A on an empty "
                     "table, or a 2, 3 or 4 laid as the table's 2nd, 3rd or 4th card, scores "
                     "in place."));
    else
        render_add(out, "%s",
                   _("A card takes the table card of its rank and the ranks that follow, up to "
                     "K: a 5 takes 5 6 7. Capturing is compulsory. An A on an empty table, "
                     "or a 2, 3 or 4 laid as the table's 2nd, 3rd or 4th card, scores in "
                     "place."));
    render_add(out, "%s",
               _("Emptying the table is a limpia. Matching the card just laid is a porrazo, the "
                 "third of the rank a counter porrazo, the fourth a san benito: game."));
    render_add(out, "%s",
               _("Also: the tendido, rondas and rondines, the most cards. Topics: capture, "
                 "place, limpia, porrazo, tendido, ronda, scoring, end, sealed, options."));
    game_options(game, out);
}

/* Appends the summary of Porrazo (topic ""), one topic's lines, or for an
   unknown topic the list of topics; for the game *game when not NULL. */
void help_rules(const char *topic, const pz_options *game, render_lines *out)
{
    const char *word;
    size_t n = topic_word(topic != NULL ? topic : "", "", &word);
    if (n == 0) {
        rules_summary(game, out);
        return;
    }
    for (int i = 0; i < NTOPICS; i++) {
        if (!word_equal(word, n, TOPICS[i].name) && !word_in_list(word, n, TOPICS[i].aliases))
            continue;
        if (strcmp(TOPICS[i].name, "end") == 0) {
            rules_end(game, out);
            game_options(game, out);
        }
        bool capture = strcmp(TOPICS[i].name, "capture") == 0;
        for (int k = 0; k < 4 && (TOPICS[i].line[k] != NULL || (capture && k == 1)); k++) {
            if (TOPICS[i].line[k] == NULL)
                rules_capture(game, out);
            else
                render_add(out, "%s", _(TOPICS[i].line[k]));
        }
        render_add(out, "%s", _(TOPICS[i].example));
        return;
    }
    char echo[TOPIC_ECHO_MAX];
    topic_echo(topic, echo);
    render_add(out,
               _("No rules topic \"%s\". Topics: capture, place, limpia, porrazo, tendido, "
                 "ronda, scoring, end, sealed, options."),
               echo);
}

/* Rules without a game (render.h). */
void render_rules(const char *topic, render_lines *out)
{
    help_rules(topic, NULL, out);
}
