/*
 * test_command.c — the command parser (bot/parse/command.h): every verb and
 * alias, every card form, rooms, `new` and its option words, durations,
 * and what players get back from lines that are not commands: garbage,
 * over-long lines, invalid UTF-8, control characters and IRC formatting.
 * Ends with two robustness loops that feed the parser random bytes and
 * random word salad, checking only its contract.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "command.h"
#include "i18n.h"

static char err[CMD_ERROR_MAX];

/* Parses text in a channel (prefix "!") or in private. */
static cmd_result parse(const char *text, bool in_channel, cmd *c)
{
    err[0] = '\0';
    return cmd_parse(text, strlen(text), in_channel, "!", c, err, sizeof err);
}

/* Parses text that must be a command, and returns it. */
static cmd parse_ok(const char *text, bool in_channel)
{
    cmd c;
    cmd_result r = parse(text, in_channel, &c);
    if (r != CMD_OK)
        fail_msg("'%s' gave %d, not a command: %s", text, (int)r, err);
    return c;
}

/* True when s is valid UTF-8 (no overlong forms, surrogates or cut ends). */
static bool valid_utf8(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u != 0) {
        int k = *u < 0x80                 ? 1
                : *u >= 0xC2 && *u < 0xE0 ? 2
                : *u >= 0xE0 && *u < 0xF0 ? 3
                : *u >= 0xF0 && *u < 0xF5 ? 4
                                          : 0;
        if (k == 0)
            return false;
        unsigned cp = k == 1 ? *u : (unsigned)(*u & (0xFF >> (k + 1)));
        for (int i = 1; i < k; i++) {
            if ((u[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (u[i] & 0x3F);
        }
        if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        u += k;
    }
    return true;
}

/* Parses text that must be refused with a reply containing want. */
static void expect_error(const char *text, bool in_channel, const char *want)
{
    cmd c;
    cmd_result r = parse(text, in_channel, &c);
    if (r != CMD_ERROR)
        fail_msg("'%s' gave %d, not an error", text, (int)r);
    if (strstr(err, want) == NULL)
        fail_msg("'%s' replied \"%s\", without \"%s\"", text, err, want);
    assert_true(valid_utf8(err));
}

/* ------------------------------------------------------------------------ */
/* Verbs                                                                    */

/* Every verb's words, as lines separated by '|' (with arguments where needed). */
static const char *const ALIASES[CMD_NVERBS] = {
    [CMD_NEW] = "new|nuevo|nueva|crear|create|newgame|new-game",
    [CMD_JOIN] = "join|unir|unirse|entrar|sit|j",
    [CMD_LEAVE] = "leave|salir|dejar|unjoin",
    [CMD_START] = "start|empezar|comenzar|go|deal|repartir|begin|iniciar",
    [CMD_KICK] = "kick bob|remove bob|echar bob|sacar bob",
    [CMD_PLAY] = "play 7h|p 7h|jugar 7h|tirar 7h|juego 7h",
    [CMD_HAND] = "hand|mano|cards|cartas|h",
    [CMD_TABLE] = "table|mesa|t|board",
    [CMD_SCORE] = "score|scores|puntos|marcador|tanteo|points",
    [CMD_TURN] = "turn|turno|whose|who's|who’s|whos",
    [CMD_TENDIDO] = "tendido now|tend later",
    [CMD_ARRANGE] = "arrange best|acomodar mejor|ordenar best|row best",
    [CMD_DECLARE] =
        "ronda|rondine|rondo|randa|randine|rondín|rondin|declare|declarar|cantar|cantar ronda",
    [CMD_CLAIM] = "claim bob|reclamar bob",
    [CMD_PAUSE] = "pause|pausa",
    [CMD_RESUME] = "resume|seguir|continuar|reanudar|unpause|continue",
    [CMD_STOP] = "stop|parar|abandon|abandonar|quit-game|end|terminar",
    [CMD_OPTIONS] = "options|opciones|opts",
    [CMD_RULES] = "rules|reglas",
    [CMD_HELP] = "help|ayuda|?|commands|comandos",
    [CMD_STATS] = "stats|estadisticas|estadísticas",
    [CMD_TOP] = "top|mejores|ranking|leaderboard",
    [CMD_PLAYERS] = "players|jugadores|who|seats|teams",
    [CMD_DEADLINE] = "deadline off|plazo 10m",
    [CMD_PURGE] = "purge bob|purgar #porrazo|vaciar alice",
    [CMD_PROMPTS] = "prompts on|avisos off|prompt siempre",
    [CMD_GAMES] = "games|partidas all|juegos todos",
    [CMD_EXPORT] = "export 12|exportar #12|record 3",
    [CMD_FSTOP] = "fstop 12|forcestop 7|force-stop #9",
    [CMD_FLEAVE] = "fleave bob|forceleave ann|force-leave cat",
    [CMD_SKIP] = "skip|saltar",
    [CMD_ADDBOT] = "addbot|add-bot 2|robot expert|bot 1 strong|addbots 3 beginner",
    [CMD_REMOVEBOT] = "removebot|remove-bot 2|delbot|kickbot Robot",
    [CMD_BACK] = "back|volver|vuelvo|estoy",
    [CMD_SUB] = "sub bob|substitute ann|sustituir cat 1|replace dan",
    [CMD_TZ] = "tz|timezone Europe/Madrid|zona America/Chicago",
    [CMD_QUIET] = "quiet 23:00-08:00|silencio off|night 22-7",
    [CMD_AWAY] = "away 3d|vacaciones 2d bot|away off",
    [CMD_SET] = "set deadline 24h|set level expert|ajustar level strong",
    [CMD_SETTINGS] = "settings|ajustes|config",
    [CMD_REMINDERS] = "reminders on|recordatorios off|reminder off",
    [CMD_NOTICES] = "notices on|notice off|notices off",
    [CMD_REVIEW] = "review on|revision off|repaso on|analysis off",
    [CMD_LANG] = "lang es|idioma off|language en|lengua es",
    [CMD_LINK] = "link|vincular Ab2cd3Ef|enlazar off",
    [CMD_MOVES] = "moves|jugadas|movidas|m|legal|moves #t",
};

/*
 * Copies the next '|'-separated piece of *list into out (cap bytes) and
 * steps past it. Returns false at the end of the list.
 */
static bool next_piece(const char **list, char *out, size_t cap)
{
    if (**list == '\0')
        return false;
    size_t n = strcspn(*list, "|");
    assert_true(n < cap);
    memcpy(out, *list, n);
    out[n] = '\0';
    *list += (*list)[n] == '|' ? n + 1 : n;
    return true;
}

static void test_every_verb_and_alias_parses_in_channel_and_in_private(void **state)
{
    (void)state;
    char piece[64], line[80];
    for (int v = CMD_NEW; v < CMD_NVERBS; v++) {
        int count = 0;
        if (ALIASES[v] == NULL)
            continue;
        for (const char *list = ALIASES[v]; next_piece(&list, piece, sizeof piece); count++) {
            assert_true((size_t)snprintf(line, sizeof line, "!%s", piece) < sizeof line);
            assert_int_equal(parse_ok(line, true).verb, v);
            assert_int_equal(parse_ok(piece, false).verb, v);
            assert_int_equal(parse_ok(line, false).verb, v);
        }
        assert_true(count >= 2);
    }
}

static void test_verbs_are_understood_in_any_case(void **state)
{
    (void)state;
    char piece[64], line[80];
    for (int v = CMD_NEW; v < CMD_NVERBS; v++) {
        for (const char *list = ALIASES[v];
             list != NULL && next_piece(&list, piece, sizeof piece);) {
            size_t n = strlen(piece);
            line[0] = '!';
            for (size_t j = 0; j <= n; j++)
                line[j + 1] = (char)(piece[j] >= 'a' && piece[j] <= 'z' ? piece[j] - 32 : piece[j]);
            assert_int_equal(parse_ok(line, true).verb, v);
        }
    }
    assert_int_equal(parse_ok("!ESTADÍSTICAS", true).verb, CMD_STATS);
    assert_int_equal(parse_ok("!RONDÍN", true).verb, CMD_DECLARE);
    assert_true(parse_ok("!tendido DESPUÉS", true).now == false);
}

static void test_every_verb_has_its_canonical_english_name(void **state)
{
    (void)state;
    static const char *const names[CMD_NVERBS] = {[CMD_NEW] = "new",
                                                  [CMD_JOIN] = "join",
                                                  [CMD_LEAVE] = "leave",
                                                  [CMD_START] = "start",
                                                  [CMD_KICK] = "kick",
                                                  [CMD_PLAY] = "play",
                                                  [CMD_HAND] = "hand",
                                                  [CMD_TABLE] = "table",
                                                  [CMD_SCORE] = "score",
                                                  [CMD_TURN] = "turn",
                                                  [CMD_TENDIDO] = "tendido",
                                                  [CMD_ARRANGE] = "arrange",
                                                  [CMD_DECLARE] = "declare",
                                                  [CMD_CLAIM] = "claim",
                                                  [CMD_PAUSE] = "pause",
                                                  [CMD_RESUME] = "resume",
                                                  [CMD_STOP] = "stop",
                                                  [CMD_OPTIONS] = "options",
                                                  [CMD_RULES] = "rules",
                                                  [CMD_HELP] = "help",
                                                  [CMD_STATS] = "stats",
                                                  [CMD_TOP] = "top",
                                                  [CMD_PLAYERS] = "players",
                                                  [CMD_DEADLINE] = "deadline",
                                                  [CMD_PURGE] = "purge",
                                                  [CMD_PROMPTS] = "prompts",
                                                  [CMD_GAMES] = "games",
                                                  [CMD_EXPORT] = "export",
                                                  [CMD_FSTOP] = "fstop",
                                                  [CMD_FLEAVE] = "fleave",
                                                  [CMD_SKIP] = "skip",
                                                  [CMD_TZ] = "tz",
                                                  [CMD_QUIET] = "quiet",
                                                  [CMD_AWAY] = "away",
                                                  [CMD_REMINDERS] = "reminders",
                                                  [CMD_NOTICES] = "notices",
                                                  [CMD_REVIEW] = "review",
                                                  [CMD_LANG] = "lang"};
    int named = 0;
    for (int v = CMD_NEW; v < CMD_NVERBS; v++)
        if (names[v] != NULL) {
            assert_string_equal(cmd_verb_name((cmd_verb)v), names[v]);
            named++;
        }
    assert_int_equal(named, 38);
    assert_string_equal(cmd_verb_name((cmd_verb)99), "unknown");
    assert_string_equal(cmd_verb_name((cmd_verb)-1), "unknown");
}

static void test_link_takes_a_code_in_any_case_or_off(void **state)
{
    (void)state;
    cmd k = parse_ok("!link", true);
    assert_string_equal(k.name, "");
    assert_false(k.off);
    assert_string_equal(parse_ok("link AbCd2345", false).name, "abcd2345");
    assert_true(parse_ok("link off", false).off);
    expect_error("link ab cd", false, "say link for a code, then link CODE on your other network");
}

static void test_owner_commands_take_a_game_number_or_a_nick(void **state)
{
    (void)state;
    assert_false(parse_ok("!games", true).all);
    assert_true(parse_ok("games all", false).all);
    assert_int_equal(parse_ok("!export 12", true).game, 12);
    cmd k = parse_ok("export #12", false);
    assert_int_equal(k.game, 12);
    assert_string_equal(k.room, "");
    assert_int_equal(parse_ok("!fstop 123456789012345", true).game, 123456789012345LL);
    assert_string_equal(parse_ok("!fleave bob", true).name, "bob");
    k = parse_ok("fleave bob #porrazo", false);
    assert_string_equal(k.name, "bob");
    assert_string_equal(k.room, "#porrazo");
    assert_int_equal(parse_ok("!skip", true).verb, CMD_SKIP);
    assert_int_equal(parse_ok("skip #porrazo", false).verb, CMD_SKIP);
    static const char *const bad[] = {"!export",       "!export 0",  "!export twelve",
                                      "!export 12 13", "!export -3", "!fstop 1234567890123456",
                                      "!games some",   "!fleave",    "!fleave a b",
                                      "!skip now",     "!export #",  "!fstop #x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char error[CMD_ERROR_MAX];
        cmd out;
        if (cmd_parse(bad[i], strlen(bad[i]), true, "!", &out, error, sizeof error) != CMD_ERROR)
            fail_msg("'%s' was not refused", bad[i]);
        assert_true(error[0] != '\0');
    }
}

static void test_prompts_takes_on_or_off_and_nothing_else(void **state)
{
    (void)state;
    assert_true(parse_ok("!prompts on", true).on);
    assert_true(parse_ok("avisos siempre", false).on);
    assert_false(parse_ok("prompts off", false).on);
    assert_false(parse_ok("!avisos no", true).on);
    char error[CMD_ERROR_MAX];
    cmd c;
    assert_int_equal(cmd_parse("!prompts", 8, true, "!", &c, error, sizeof error), CMD_ERROR);
    assert_non_null(strstr(error, "!prompts on"));
    assert_int_equal(cmd_parse("prompts maybe", 13, false, "!", &c, error, sizeof error),
                     CMD_ERROR);
    assert_non_null(strstr(error, "prompts off"));
}

static void test_purge_takes_one_channel_or_nick(void **state)
{
    (void)state;
    cmd c = parse_ok("purge #porrazo", false);
    assert_int_equal(c.verb, CMD_PURGE);
    assert_string_equal(c.room, "#porrazo");
    assert_string_equal(c.name, "");
    c = parse_ok("!purge bob", true);
    assert_string_equal(c.name, "bob");
    cmd k;
    assert_int_equal(parse("purge", false, &k), CMD_ERROR);
    assert_non_null(strstr(err, "purge #channel or purge NICK"));
    assert_int_equal(parse("purge bob carl", false, &k), CMD_ERROR);
}

static void test_single_letter_verbs_win_over_cards_of_that_letter(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("!t", true).verb, CMD_TABLE);
    assert_int_equal(parse_ok("!j", true).verb, CMD_JOIN);
    assert_int_equal(parse_ok("!h", true).verb, CMD_HAND);
    assert_int_equal(parse_ok("!m", true).verb, CMD_MOVES);
    cmd c = parse_ok("!p j", true);
    assert_int_equal(c.verb, CMD_PLAY);
    assert_int_equal(c.card.rank, 10);
    c = parse_ok("!th", true);
    assert_int_equal(c.verb, CMD_PLAY);
    assert_int_equal(c.card.rank, 9);
    assert_int_equal(c.card.suit, 2);
}

static void test_verbs_without_arguments_refuse_words_after_them(void **state)
{
    (void)state;
    expect_error("!join please", true, "join takes nothing after it: say just !join");
    expect_error("!stop the game", true, "say just !stop");
    expect_error("!top 10", true, "say just !top");
    expect_error("!ronda bob", true, "say just !ronda");
    expect_error("join please", false, "join takes nothing after it: say just join");
}

static void test_an_unknown_verb_suggests_the_closest_verb(void **state)
{
    (void)state;
    expect_error("!plya", true, "unknown command 'plya' — did you mean !play? Try !help.");
    expect_error("!hepl", true, "did you mean !help?");
    expect_error("!jion", true, "did you mean !join?");
    expect_error("!optoins", true, "did you mean !options?");
    expect_error("!estadistcas", true, "did you mean !estadisticas?");
    /* a near-miss of a Spanish word is answered with the Spanish word */
    expect_error("!jugr 7h", true, "did you mean !jugar?");
    expect_error("!ayda", true, "did you mean !ayuda?");
    expect_error("!empesar", true, "did you mean !empezar?");
    expect_error("!regresr", true, "did you mean !regresar?");
    expect_error("!xyzzy", true, "unknown command 'xyzzy': say !help for the commands");
    expect_error("qqqqqq", false, "unknown command 'qqqqqq': say help");
    expect_error("plya", false, "unknown command 'plya' — did you mean play? Try help.");
}

/* ------------------------------------------------------------------------ */
/* Cards                                                                    */

/* Parses s as a card that must give rank and suit. */
static void expect_card(const char *s, int rank, int suit)
{
    cmd_card c = {99, 99, false};
    if (cmd_parse_card(s, strlen(s), &c) != 0)
        fail_msg("'%s' is not parsed as a card", s);
    if (c.rank != rank || c.suit != suit)
        fail_msg("'%s' gave rank %d suit %d, not %d %d", s, c.rank, c.suit, rank, suit);
}

/* In Spanish the suit letters are the Spanish suits' initials: c corazones,
   d diamantes, p picas, t tréboles; in English c is clubs and p and t no
   suit. h and s keep their English meaning in both. */
static void test_spanish_suit_letters_are_read_in_a_spanish_line(void **state)
{
    (void)state;
    cmd_card c;
    expect_card("7c", 6, 0);
    assert_int_equal(cmd_parse_card("6p", 2, &c), -1);
    assert_int_equal(cmd_parse_card("6t", 2, &c), -1);
    {
        I18N_SCOPE(PZ_LANG_ES);
        expect_card("7c", 6, 2);
        expect_card("7C", 6, 2);
        expect_card("6p", 5, 3);
        expect_card("6t", 5, 0);
        expect_card("kd", 12, 1);
        expect_card("10t", 9, 0);
        expect_card("7h", 6, 2);
        expect_card("7s", 6, 3);
        expect_card("7 de corazones", 6, 2);
        expect_card("as de treboles", 0, 0);
        cmd k = parse_ok("!jugar 7c", true);
        assert_int_equal(k.verb, CMD_PLAY);
        assert_int_equal(k.card.suit, 2);
    }
    expect_card("7c", 6, 0); /* the scope left: English again */
}

/* "paso" is what a player says for their own turn, and Porrazo has no
   passing: it is refused with what to do, never the owners' skip. */
static void test_pass_is_told_nobody_passes_not_skipped(void **state)
{
    (void)state;
    static const char *const said[] = {"!paso", "!pasar", "!pass", "!PASO"};
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++) {
        cmd c;
        assert_int_equal(parse(said[i], true, &c), CMD_ERROR);
        assert_non_null(strstr(err, "nobody passes in Porrazo"));
        assert_non_null(strstr(err, "!moves"));
    }
    assert_int_equal(parse_ok("!saltar", true).verb, CMD_SKIP);
}

/* removebot takes the robot as the table names it ("Robot 2") or its number. */
static void test_removebot_takes_robot_n(void **state)
{
    (void)state;
    cmd c = parse_ok("!quitarbot Robot 2", true);
    assert_int_equal(c.verb, CMD_REMOVEBOT);
    assert_string_equal(c.name, "2");
    assert_string_equal(parse_ok("!removebot 3", true).name, "3");
    assert_string_equal(parse_ok("!removebot bob", true).name, "bob");
    assert_int_equal(parse("!removebot bob cat", true, &c), CMD_ERROR);
    assert_non_null(strstr(err, "removebot takes one nick"));
    assert_int_equal(parse("!removebot Robot two", true, &c), CMD_ERROR);
}

static void test_every_rank_form_parses_alone_without_a_suit(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int rank;
    } ranks[] = {
        {"a", 0},      {"A", 0},     {"1", 0},        {"ace", 0},   {"ACE", 0},  {"uno", 0},
        {"2", 1},      {"two", 1},   {"dos", 1},      {"3", 2},     {"tres", 2}, {"4", 3},
        {"cuatro", 3}, {"5", 4},     {"cinco", 4},    {"6", 5},     {"seis", 5}, {"7", 6},
        {"seven", 6},  {"siete", 6}, {"8", 7},        {"ocho", 7},  {"9", 8},    {"nueve", 8},
        {"10", 9},     {"t", 9},     {"T", 9},        {"ten", 9},   {"diez", 9}, {"j", 10},
        {"J", 10},     {"jack", 10}, {"jota", 10},    {"sota", 10}, {"q", 11},   {"queen", 11},
        {"reina", 11}, {"dama", 11}, {"caballo", 11}, {"k", 12},    {"K", 12},   {"king", 12},
        {"KING", 12},  {"rey", 12},  {"Rey", 12},     {" 7 ", 6},
    };
    for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
        expect_card(ranks[i].s, ranks[i].rank, -1);
}

static void test_every_suit_form_parses_after_a_rank(void **state)
{
    (void)state;
    static const char *const suits[PZ_SUITS] = {
        "7c|7C|7♣|7♧|7♣\xef\xb8\x8f|7 clubs|7 of clubs|7 de tréboles|7 treboles|7 trébol",
        "7d|7D|7♦|7♢|7♦️|7 diamonds|7 de diamantes|7 OF DIAMONDS",
        "7h|7H|7♥|7♡|7♥️|7♥\xef\xb8\x8e|7 of hearts|7 hearts|7 de corazones|7 corazón",
        "7s|7S|7♠|7♤|7♠️|7 spades|7 of spades|7 de picas|7 ♠|7  of   spades",
    };
    char piece[64];
    for (int suit = 0; suit < PZ_SUITS; suit++)
        for (const char *list = suits[suit]; next_piece(&list, piece, sizeof piece);)
            expect_card(piece, 6, suit);
    expect_card("10h", 9, 2);
    expect_card("10♥", 9, 2);
    expect_card("th", 9, 2);
    expect_card("TH", 9, 2);
    expect_card("ah", 0, 2);
    expect_card("1s", 0, 3);
    expect_card("as de picas", 0, 3);
    expect_card("ace of spades", 0, 3);
    expect_card("king of hearts", 12, 2);
    expect_card("rey de corazones", 12, 2);
    expect_card("Qd", 11, 1);
    expect_card("jack♣", 10, 0);
}

static void test_as_alone_is_the_ace_of_spades_marked_as_spanish_for_ace(void **state)
{
    (void)state;
    static const char *const as[] = {"as", "As", "AS", "aS", " as ", "ás"};
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
        cmd_card c = {99, 99, false};
        assert_int_equal(cmd_parse_card(as[i], strlen(as[i]), &c), 0);
        assert_int_equal(c.rank, 0);
        assert_int_equal(c.suit, 3);
        assert_true(c.spanish_as);
    }
    static const struct {
        const char *s;
        int suit;
    } plain[] = {{"as de picas", 3}, {"as de corazones", 2},
                 {"a s", 3},         {"ace of spades", 3},
                 {"ah", 2},          {"a♠", 3},
                 {"ace", -1},        {"a", -1},
                 {"as♠", 3},         {"7s", 3}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        cmd_card c = {99, 99, true};
        assert_int_equal(cmd_parse_card(plain[i].s, strlen(plain[i].s), &c), 0);
        assert_int_equal(c.suit, plain[i].suit);
        if (c.spanish_as)
            fail_msg("'%s' was marked as the Spanish \"as\"", plain[i].s);
    }
    cmd c = parse_ok("!arrange 10h 5c As 4d", true);
    assert_int_equal(c.row[2].rank, 0);
    assert_int_equal(c.row[2].suit, 3);
    assert_true(c.row[2].spanish_as);
    assert_false(c.row[0].spanish_as);
    c = parse_ok("!play as", true);
    assert_int_equal(c.card.suit, 3);
    assert_true(c.card.spanish_as);
    c = parse_ok("AS", false);
    assert_int_equal(c.verb, CMD_PLAY);
    assert_true(c.card.spanish_as);
}

static void test_things_that_are_not_cards_are_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",          " ",     "7x",        "0",       "11",  "13h",   "7hh",
        "♥7",        "7 of",  "of hearts", "hearts",  "kx",  "7\xff", "7\xe2\x99",
        "7\xc0\xaf", "as de", "7h h",      "7 b",     "7 o", "7 e",   "7 copas",
        "x",         "10 10", "7\th",      "seven-h", "7h.",
    };
    cmd_card c = {99, 99, false};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (cmd_parse_card(bad[i], strlen(bad[i]), &c) == 0)
            fail_msg("'%s' was taken for a card", bad[i]);
    assert_int_equal(c.rank, 99);
    assert_int_equal(cmd_parse_card(NULL, 3, &c), -1);
    assert_int_equal(cmd_parse_card("7h", 2, NULL), -1);
    char big[200];
    memset(big, ' ', sizeof big);
    big[0] = '7';
    big[199] = 'h';
    assert_int_equal(cmd_parse_card(big, sizeof big, &c), -1);
}

static void test_a_bare_card_is_a_play(void **state)
{
    (void)state;
    cmd c = parse_ok("!7h", true);
    assert_int_equal(c.verb, CMD_PLAY);
    assert_int_equal(c.card.rank, 6);
    assert_int_equal(c.card.suit, 2);
    assert_int_equal(c.mode, PZ_MODE_ANY);
    c = parse_ok("7h", false);
    assert_int_equal(c.card.rank, 6);
    c = parse_ok("!k", true);
    assert_int_equal(c.verb, CMD_PLAY);
    assert_int_equal(c.card.rank, 12);
    assert_int_equal(c.card.suit, -1);
    c = parse_ok("!10 of hearts", true);
    assert_int_equal(c.card.rank, 9);
    assert_int_equal(c.card.suit, 2);
    c = parse_ok("as de picas", false);
    assert_int_equal(c.card.rank, 0);
    assert_int_equal(c.card.suit, 3);
    c = parse_ok("!4h capture", true);
    assert_int_equal(c.mode, PZ_MODE_CAPTURE);
    c = parse_ok("!rey", true);
    assert_int_equal(c.card.rank, 12);
}

static void test_play_takes_capture_or_place_in_english_or_spanish(void **state)
{
    (void)state;
    static const char *const capture[] = {"!play 4h capture", "!play 4h take",
                                          "!play 4h tomar",   "!jugar 4h capturar",
                                          "!play capture 4h", "!play 4h CAPTURA"};
    static const char *const place[] = {"!play 4h place",    "!play 4h put",
                                        "!play 4h poner",    "!play 4h en lugar",
                                        "!play 4h in place", "!tirar 4 de corazones en su lugar",
                                        "!play place 4h",    "!p 4h in-place"};
    for (size_t i = 0; i < sizeof capture / sizeof capture[0]; i++)
        assert_int_equal(parse_ok(capture[i], true).mode, PZ_MODE_CAPTURE);
    for (size_t i = 0; i < sizeof place / sizeof place[0]; i++) {
        cmd c = parse_ok(place[i], true);
        assert_int_equal(c.mode, PZ_MODE_PLACE);
        assert_int_equal(c.card.rank, 3);
    }
}

static void test_play_says_what_is_missing_or_wrong(void **state)
{
    (void)state;
    expect_error("!play", true, "play what? e.g. !play 7h");
    expect_error("!p capture", true, "play what? e.g. !play 7h");
    expect_error("play", false, "play what? e.g. play 7h");
    expect_error("!play 7x", true, "'7x' is not a card: try 7, 7h, 7♥ or king");
    expect_error("!7x", true, "'7x' is not a card: try 7, 7h, 7♥ or king");
    expect_error("!play 7 of harts", true, "'7 of harts' is not a card");
    expect_error("!play 7h 8h", true, "play one card at a time");
    expect_error("!play 4h capture place", true, "say capture or place, not both");
    expect_error("!play 7h please", true, "not 'please'");
}

/* ------------------------------------------------------------------------ */
/* Addressing, rooms, limits                                                */

static void test_channel_lines_not_addressed_to_the_bot_are_ignored(void **state)
{
    (void)state;
    static const char *const talk[] = {
        "hello", "play 7h", "7h",   "k",          "",       "   ",       "!",        "!   ",
        "!!!",   "! wow",   "!...", "hola !play", "!¿qué?", "!#friends", "\x02\x0f", "!-1"};
    for (size_t i = 0; i < sizeof talk / sizeof talk[0]; i++) {
        cmd c;
        if (parse(talk[i], true, &c) != CMD_IGNORED)
            fail_msg("'%s' was not ignored (%s)", talk[i], err);
    }
}

static void test_private_lines_need_no_prefix_and_tolerate_one(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("hand", false).verb, CMD_HAND);
    assert_int_equal(parse_ok("!hand", false).verb, CMD_HAND);
    assert_int_equal(parse_ok("  !hand  ", false).verb, CMD_HAND);
    expect_error("", false, "say help for the commands");
    expect_error("   \t ", false, "say help for the commands");
    expect_error("!", false, "say help for the commands");
    expect_error("!!!", false, "unknown command '!'");
}

static void test_other_prefixes_work_and_null_means_the_default(void **state)
{
    (void)state;
    cmd c;
    assert_int_equal(cmd_parse(".hand", 5, true, ".", &c, err, sizeof err), CMD_OK);
    assert_int_equal(cmd_parse("!hand", 5, true, ".", &c, err, sizeof err), CMD_IGNORED);
    const char *named = "Porrazo: play 7h";
    assert_int_equal(cmd_parse(named, strlen(named), true, "porrazo:", &c, err, sizeof err),
                     CMD_OK);
    assert_int_equal(c.card.rank, 6);
    assert_int_equal(cmd_parse("!hand", 5, true, NULL, &c, err, sizeof err), CMD_OK);
    assert_int_equal(cmd_parse("!hand", 5, true, "", &c, err, sizeof err), CMD_OK);
    assert_int_equal(cmd_parse(NULL, 0, false, "!", &c, err, sizeof err), CMD_ERROR);
    assert_int_equal(cmd_parse(NULL, 5, true, "!", &c, err, sizeof err), CMD_IGNORED);
}

static void test_a_trailing_room_is_taken_from_any_command(void **state)
{
    (void)state;
    cmd c = parse_ok("!play 7h #friends", true);
    assert_string_equal(c.room, "#friends");
    assert_int_equal(c.card.rank, 6);
    c = parse_ok("7h #friends", false);
    assert_string_equal(c.room, "#friends");
    c = parse_ok("!new 4 partners #porrazo:example.org", true);
    assert_string_equal(c.room, "#porrazo:example.org");
    assert_int_equal(c.players, 4);
    c = parse_ok("join !AbCdEf:matrix.org", false);
    assert_string_equal(c.room, "!AbCdEf:matrix.org");
    c = parse_ok("score #españa", false);
    assert_string_equal(c.room, "#españa");
    c = parse_ok("!score", true);
    assert_string_equal(c.room, "");
    expect_error("!score #fr/ends", true, "say just !score");
    expect_error("#friends", false, "unknown command '#friends'");
}

static void test_trailing_punctuation_and_spanish_marks_are_forgiven(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("!play 7h!", true).card.suit, 2);
    assert_int_equal(parse_ok("¿ayuda?", false).verb, CMD_HELP);
    assert_int_equal(parse_ok("!help?", true).verb, CMD_HELP);
    assert_string_equal(parse_ok("!kick bob:", true).name, "bob");
    assert_int_equal(parse_ok("!turn?", true).verb, CMD_TURN);
}

static void test_a_line_of_exactly_the_maximum_is_parsed_and_longer_is_refused(void **state)
{
    (void)state;
    char line[CMD_LINE_MAX + 2];
    cmd c;
    memset(line, ' ', sizeof line);
    memcpy(line, "!play 7h", 8);
    memcpy(line + CMD_LINE_MAX - 9, "#friends", 8);
    assert_int_equal(cmd_parse(line, CMD_LINE_MAX, true, "!", &c, err, sizeof err), CMD_OK);
    assert_string_equal(c.room, "#friends");
    assert_int_equal(cmd_parse(line, CMD_LINE_MAX + 1, true, "!", &c, err, sizeof err), CMD_ERROR);
    assert_string_equal(err, "that line is too long: 512 bytes at most");
    assert_int_equal(cmd_parse(line, CMD_LINE_MAX + 1, false, "!", &c, err, sizeof err), CMD_ERROR);
    line[0] = 'x';
    assert_int_equal(cmd_parse(line, CMD_LINE_MAX + 1, true, "!", &c, err, sizeof err),
                     CMD_IGNORED);
    static char huge[100000];
    memset(huge, 'a', sizeof huge);
    huge[0] = '!';
    assert_int_equal(cmd_parse(huge, sizeof huge, true, "!", &c, err, sizeof err), CMD_ERROR);
    expect_error("!aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true,
                 "'aaaaaaaaaaaaaaaaaaaaaaaa...'");
}

/* ------------------------------------------------------------------------ */
/* Bytes                                                                    */

static void test_invalid_utf8_makes_a_word_unknown_and_is_never_echoed(void **state)
{
    (void)state;
    /* overlong, cut short, surrogates, beyond U+10FFFF, never valid, stray */
    const char *list = "\xc0\xaf|\xc1\xbf|\xe0\x80\xaf|\xf0\x80\x80\xaf|\xe2\x99|\xe2|\xf0\x9f\x83|"
                       "\xed\xa0\x80|\xed\xbf\xbf|\xf4\x90\x80\x80|\xf5\x80\x80\x80|\xff|\xfe\xff|"
                       "\x80|\xbf\xbf";
    char bad[8];
    char line[64];
    while (next_piece(&list, bad, sizeof bad)) {
        assert_true((size_t)snprintf(line, sizeof line, "!pl%say", bad) < sizeof line);
        expect_error(line, true, "unknown command 'pl?");
        assert_true((size_t)snprintf(line, sizeof line, "!play 7%s", bad) < sizeof line);
        expect_error(line, true, "is not a card");
        assert_true((size_t)snprintf(line, sizeof line, "%s", bad) < sizeof line);
        expect_error(line, false, "unknown command '?");
        assert_true((size_t)snprintf(line, sizeof line, "!kick b%sb", bad) < sizeof line);
        expect_error(line, true, "is not a nick");
        assert_true((size_t)snprintf(line, sizeof line, "!new target=%s", bad) < sizeof line);
        expect_error(line, true, "is not a value for target");
        assert_true((size_t)snprintf(line, sizeof line, "!rules %s", bad) < sizeof line);
        expect_error(line, true, "is not a topic");
    }
    expect_error("!play 7\xe2\x99\xa5\xe2\x99", true,
                 "'7♥?"
                 "?' is not a card");
    expect_error("!hel\xe2\x80\xaep", true, "unknown command 'hel?p'");
}

static void test_control_characters_are_spaces_and_irc_formatting_vanishes(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "\002!play\002 7h",   "\00304,12!play\003 7h", "\0034!play 7\037h",
        "!play\t7h\r\n",      "\035\026!pl\017ay 7h",  "!play\1777h",
        "\004FF0000!play 7h", "!play\0017h\001",       "\00312,4\021!play 7\036h",
        "!play\302\2407h",    "!play\302\2057h",       "\00399,99!play 7h",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        cmd c = parse_ok(lines[i], true);
        assert_int_equal(c.verb, CMD_PLAY);
        assert_int_equal(c.card.rank, 6);
        assert_int_equal(c.card.suit, 2);
    }
    cmd c;
    assert_int_equal(cmd_parse("!play\0"
                               "7h",
                               8, true, "!", &c, err, sizeof err),
                     CMD_OK);
    assert_int_equal(c.card.suit, 2);
    assert_int_equal(parse("\x03,5!play 7h", true, &c), CMD_IGNORED);
    expect_error("!pl\x01"
                 "ay",
                 true, "unknown command 'pl'");
}

static void test_replies_fit_any_buffer_and_end_on_a_whole_character(void **state)
{
    (void)state;
    cmd c;
    char small[32];
    const char *line = "!7x";
    /* "'7x' is not a card: try 7, 7h, 7♥ or king": the cut falls inside ♥ */
    for (size_t cap = 1; cap <= sizeof small; cap++) {
        memset(small, 'Z', sizeof small);
        assert_int_equal(cmd_parse(line, 3, true, "!", &c, small, cap), CMD_ERROR);
        assert_non_null(memchr(small, '\0', cap));
        assert_true(valid_utf8(small));
    }
    assert_int_equal(cmd_parse(line, 3, true, "!", &c, NULL, 0), CMD_ERROR);
    assert_int_equal(cmd_parse("!hand", 5, true, "!", NULL, NULL, 0), CMD_OK);
}

static void test_out_is_untouched_unless_the_line_is_a_command(void **state)
{
    (void)state;
    static const char *const lines[] = {"!plya", "hello", "!play", "!new 99", "!", "!7x"};
    cmd c, before;
    memset(&c, 0xA5, sizeof c);
    before = c;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_not_equal(parse(lines[i], true, &c), CMD_OK);
        assert_memory_equal(&c, &before, sizeof c);
    }
    c = parse_ok("!hand", true);
    assert_int_equal(c.card.rank, -1);
    assert_int_equal(c.noptions, 0);
    assert_string_equal(c.name, "");
}

/* ------------------------------------------------------------------------ */
/* new                                                                      */

/* Asserts that c holds the option name=value. */
static void expect_option(const cmd *c, const char *name, const char *value)
{
    for (int i = 0; i < c->noptions; i++)
        if (strcmp(c->option_name[i], name) == 0) {
            assert_string_equal(c->option_value[i], value);
            return;
        }
    fail_msg("option %s is missing", name);
}

static void test_new_reads_every_option_word_as_an_r9_option(void **state)
{
    (void)state;
    static const struct {
        const char *line, *name, *value;
    } words[] = {
        // clang-format off
        {"new partners", "partnerships", "true"},   {"new partnerships", "partnerships", "true"},
        {"new teams", "partnerships", "true"},      {"new parejas", "partnerships", "true"},
        {"new target=31", "target", "31"},          {"new to 31", "target", "31"},
        {"nuevo a 31", "target", "31"},             {"new target 31", "target", "31"},
        {"new nowrap", "wrap", "false"},            {"new wrap", "wrap", "true"},
        {"new manual", "declarations", "manual"},   {"new silent", "declarations", "silent"},
        {"new AUTO", "declarations", "auto"},       {"new tendido=last", "tendido", "last"},
        {"new leftover=deal", "odd_leftover", "deal"},
        {"new odd_leftover=deal", "odd_leftover", "deal"},
        {"new sweep=dealer", "final_sweep", "dealer"},
        {"new final_sweep=dealer", "final_sweep", "dealer"},
        {"new cards=excess26", "card_score", "excess26"},
        {"new card_score=excess26", "card_score", "excess26"},
        {"new declarations=manual", "declarations", "manual"},
        {"new wrap=no", "wrap", "false"},           {"new wrap=off", "wrap", "false"},
        {"new wrap=yes", "wrap", "true"},           {"new wrap=on", "wrap", "true"},
        {"new wrap=si", "wrap", "true"},            {"new wrap=sí", "wrap", "true"},
        {"new wrap=TRUE", "wrap", "true"},          {"new wrap=false", "wrap", "false"},
        {"new partnerships=yes", "partnerships", "true"},
        {"new tendido=sometimes", "tendido", "sometimes"},
        // clang-format on
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        cmd c = parse_ok(words[i].line, false);
        assert_int_equal(c.verb, CMD_NEW);
        assert_int_equal(c.noptions, 1);
        expect_option(&c, words[i].name, words[i].value);
    }
}

static void test_new_reads_players_and_shuffled_seats(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("!new", true).players, 0);
    assert_int_equal(parse_ok("!new 4", true).players, 4);
    assert_int_equal(parse_ok("!new 2", true).players, 2);
    assert_int_equal(parse_ok("!new 8 players", true).players, 8);
    assert_int_equal(parse_ok("!new players=6", true).players, 6);
    assert_int_equal(parse_ok("!new game", true).noptions, 0);
    static const char *const shuffle[] = {"!new shuffle", "!new random", "!new shuffled",
                                          "!new barajar", "!new shuffle=yes"};
    for (size_t i = 0; i < sizeof shuffle / sizeof shuffle[0]; i++)
        assert_true(parse_ok(shuffle[i], true).shuffle_seats);
    assert_false(parse_ok("!new shuffle=no", true).shuffle_seats);
    cmd c = parse_ok("!new 4 partners to 31 nowrap manual shuffle #friends", true);
    assert_int_equal(c.players, 4);
    assert_int_equal(c.noptions, 4);
    expect_option(&c, "partnerships", "true");
    expect_option(&c, "target", "31");
    expect_option(&c, "wrap", "false");
    expect_option(&c, "declarations", "manual");
    assert_true(c.shuffle_seats);
    assert_string_equal(c.room, "#friends");
}

static void test_new_keeps_the_last_value_said_for_an_option(void **state)
{
    (void)state;
    cmd c = parse_ok("!new nowrap wrap manual silent to 31 target=41", true);
    assert_int_equal(c.noptions, 3);
    expect_option(&c, "wrap", "true");
    expect_option(&c, "declarations", "silent");
    expect_option(&c, "target", "41");
}

static void test_new_refuses_unknown_words_naming_them(void **state)
{
    (void)state;
    expect_error("!new 4 fast", true,
                 "new takes 2-8, partners, to 31, nowrap, manual, silent, auto, shuffle or "
                 "NAME=VALUE, not 'fast'");
    expect_error("!new colour=red", true, "'colour' is not an option: try target");
    expect_error("!new 9", true, "a game has 2 to 8 players, not 9");
    expect_error("!new 1", true, "a game has 2 to 8 players");
    expect_error("!new 61", true, "for a target, say !new to 61");
    expect_error("!new players=12", true, "a game has 2 to 8 players");
    expect_error("!new players=x", true, "'x' is not a player count");
    expect_error("!new to", true, "to what? e.g. !new target=31");
    expect_error("!new tendido", true, "tendido what? e.g. !new tendido=last");
    expect_error("new tendido", false, "tendido what? e.g. new tendido=last");
    expect_error("!new target=", true, "'' is not a value for target");
    expect_error("!new target=1234567890123456789012345", true,
                 "the target must be between 11 and 121");
    expect_error("!new shuffle=maybe", true, "shuffle takes yes or no");
}

static void test_new_reads_the_player_count_in_words(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        int players;
    } counts[] = {{"!new dos", 2},
                  {"!nuevo tres jugadores", 3},
                  {"!new four", 4},
                  {"!new Cinco", 5},
                  {"!new seis", 6},
                  {"!new seven", 7},
                  {"!crear ocho players", 8},
                  {"!new two partners", 2},
                  {"!new one", 0},
                  {"!nuevo un juego", 0},
                  {"!new players=cuatro", 4}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (parse_ok(counts[i].line, true).players != counts[i].players)
            fail_msg("'%s' is not %d players", counts[i].line, counts[i].players);
    expect_error("!new nueve", true, "a game has 2 to 8 players, not nueve");
    expect_error("!new treinta y uno", true,
                 "a game has 2 to 8 players, not treinta y uno (for a target, say !new to "
                 "treinta y uno)");
    expect_error("!new players=uno", true, "a game has 2 to 8 players, not uno");
}

static void test_new_reads_the_target_in_digits_or_words(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        const char *target;
    } targets[] = {
        // clang-format off
        {"!new to treinta y uno", "31"},     {"!new to thirty-one", "31"},
        {"!new to thirty one", "31"},        {"!nuevo a sesenta y uno", "61"},
        {"!new target=veintiuno", "21"},     {"!new target veintidós", "22"},
        {"!nuevo hasta cien", "100"},        {"!new to ciento veintiuno", "121"},
        {"!new to one hundred and twenty one", "121"},
        {"!new to hundred", "100"},          {"!new target=treinta y uno", "31"},
        {"!new to eleven", "11"},            {"!new to 121", "121"},
        {"!new to 011", "11"},               {"!new target=Forty-Five", "45"},
        // clang-format on
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        cmd c = parse_ok(targets[i].line, true);
        assert_int_equal(c.noptions, 1);
        expect_option(&c, "target", targets[i].target);
    }
    cmd c = parse_ok("!nuevo dos a treinta y uno manual", true);
    assert_int_equal(c.players, 2);
    expect_option(&c, "target", "31");
    expect_option(&c, "declarations", "manual");
    c = parse_ok("!new 3 to 41 partners", true);
    expect_option(&c, "target", "41");
    expect_option(&c, "partnerships", "true");
}

static void test_new_refuses_a_target_out_of_range_saying_the_range(void **state)
{
    (void)state;
    expect_error("!new 2 to 500", true, "the target must be between 11 and 121, not 500");
    expect_error("!new to 10", true, "the target must be between 11 and 121, not 10");
    expect_error("!new target=0", true, "the target must be between 11 and 121, not 0");
    expect_error("!new to ciento veintidos", true,
                 "the target must be between 11 and 121, not ciento veintidos");
    expect_error("!new to 99999999999", true, "the target must be between 11 and 121");
    expect_error("!new target=abc", true,
                 "'abc' is not a value for target: say a number from 11 to 121");
    expect_error("!new to soon", true, "'soon' is not a value for target");
    expect_error("!new to treinta y", true, "not 'y'");
}

/* ------------------------------------------------------------------------ */
/* The other verbs' arguments                                               */

static void test_tendido_is_now_or_later_in_either_language(void **state)
{
    (void)state;
    static const char *const now[] = {"!tendido now", "!tend ahora", "!tendido ya", "!TENDIDO NOW"};
    static const char *const later[] = {"!tendido later", "!tend luego", "!tendido después",
                                        "!tendido despues"};
    for (size_t i = 0; i < 4; i++) {
        assert_true(parse_ok(now[i], true).now);
        assert_false(parse_ok(later[i], true).now);
    }
    expect_error("!tendido", true, "tendido now or later? say !tendido now or !tendido later");
    expect_error("!tendido soon", true, "say !tendido now or !tendido later, not 'soon'");
    expect_error("tendido soon", false, "say tendido now or tendido later, not 'soon'");
    expect_error("!tendido now please", true, "not 'please'");
}

static void test_arrange_takes_best_or_four_cards_and_a_direction(void **state)
{
    (void)state;
    cmd c = parse_ok("!arrange best", true);
    assert_true(c.best);
    assert_true(parse_ok("!acomodar mejor", true).best);
    c = parse_ok("!arrange 4h 2c 3d 7s", true);
    assert_false(c.best);
    assert_false(c.has_direction);
    assert_int_equal(c.direction, PZ_LTR);
    assert_int_equal(c.row[0].rank, 3);
    assert_int_equal(c.row[0].suit, 2);
    assert_int_equal(c.row[3].rank, 6);
    assert_int_equal(c.row[3].suit, 3);
    static const struct {
        const char *dir;
        pz_direction d;
    } dirs[] = {{"ltr", PZ_LTR},           {"left", PZ_LTR},          {"izq", PZ_LTR},
                {"izquierda", PZ_LTR},     {"Left-to-right", PZ_LTR}, {"rtl", PZ_RTL},
                {"right", PZ_RTL},         {"der", PZ_RTL},           {"derecha", PZ_RTL},
                {"right-to-left", PZ_RTL}, {"DERECHA", PZ_RTL}};
    char line[80];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        assert_true((size_t)snprintf(line, sizeof line, "!arrange 4♥ 2♣ 3♦ 7♠ %s", dirs[i].dir) <
                    sizeof line);
        c = parse_ok(line, true);
        assert_true(c.has_direction);
        assert_int_equal(c.direction, dirs[i].d);
    }
    c = parse_ok("!ordenar rtl 4 de corazones 2 of clubs 3d 7 ♠", true);
    assert_int_equal(c.row[1].rank, 1);
    assert_int_equal(c.row[1].suit, 0);
    assert_int_equal(c.direction, PZ_RTL);
    expect_error("!arrange", true, "arrange how? say !arrange best");
    expect_error("!arrange 4h 2c", true, "arrange takes four cards, not 2");
    expect_error("!arrange 4h 2c 3d 7s 8s", true, "four cards, not more");
    expect_error("!arrange best ltr", true, "say !arrange best alone");
    expect_error("!arrange 4h 2c 3d 7s left rtl", true,
                 "count from the left or from the right, not both");
    expect_error("!arrange 4h 2c 3d 7x", true, "'7x' is not a card");
    static const char *const bad[] = {"!arrange", "!arrange 4h 2c", "!arrange best left",
                                      "!arrange 4 2 3 7 l r", "arrange"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cmd k;
        assert_int_equal(parse(bad[i], bad[i][0] == '!', &k), CMD_ERROR);
        if (strstr(err, "ltr") != NULL || strstr(err, "rtl") != NULL)
            fail_msg("'%s' replied with an engine word: %s", bad[i], err);
    }
}

static void test_arrange_takes_bare_ranks_for_the_host_to_match(void **state)
{
    (void)state;
    cmd c = parse_ok("!arrange 10 5 A 4 left", true);
    static const int ranks[4] = {9, 4, 0, 3};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c.row[i].rank, ranks[i]);
        assert_int_equal(c.row[i].suit, -1);
    }
    assert_true(c.has_direction);
    assert_int_equal(c.direction, PZ_LTR);
    c = parse_ok("!acomodar diez cinco as cuatro derecha", true);
    assert_int_equal(c.row[0].rank, 9);
    assert_int_equal(c.row[2].rank, 0);
    assert_true(c.row[2].spanish_as);
    assert_int_equal(c.direction, PZ_RTL);
    c = parse_ok("arrange 4h 2 3d k right", false);
    assert_int_equal(c.row[0].suit, 2);
    assert_int_equal(c.row[1].suit, -1);
    assert_int_equal(c.row[3].rank, 12);
    assert_int_equal(c.row[3].suit, -1);
    assert_false(parse_ok("!arrange 10 5 A 4", true).has_direction);
}

static void test_kick_claim_and_stats_take_one_nick(void **state)
{
    (void)state;
    assert_string_equal(parse_ok("!kick Bob", true).name, "Bob");
    assert_string_equal(parse_ok("!claim @ana:example.org", true).name, "@ana:example.org");
    assert_string_equal(parse_ok("!reclamar José", true).name, "José");
    assert_string_equal(parse_ok("!stats", true).name, "");
    assert_string_equal(parse_ok("!stats bob", true).name, "bob");
    expect_error("!kick", true, "kick whom? e.g. !kick bob");
    expect_error("kick", false, "kick whom? e.g. kick bob");
    expect_error("!claim", true, "claim whom?");
    expect_error("!kick bob ana", true, "kick takes one nick");
    expect_error("!stats bob ana", true, "stats takes one nick");
    expect_error("!kick aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true,
                 "is not a nick");
}

static void test_help_and_rules_take_a_topic(void **state)
{
    (void)state;
    assert_string_equal(parse_ok("!help", true).name, "");
    assert_string_equal(parse_ok("!help play", true).name, "play");
    assert_string_equal(parse_ok("!ayuda jugar", true).name, "play");
    assert_string_equal(parse_ok("!help !tirar", true).name, "play");
    assert_string_equal(parse_ok("!help !tirar", true).room, "");
    assert_string_equal(parse_ok("!help plya", true).name, "plya");
    assert_string_equal(parse_ok("!rules", true).name, "");
    assert_string_equal(parse_ok("!rules San Benito", true).name, "san benito");
    assert_string_equal(parse_ok("!reglas Porrazo", true).name, "porrazo");
    expect_error("!rules aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", true,
                 "that topic is too long: say just !rules");
}

static void test_declarations_and_pauses_need_no_words(void **state)
{
    (void)state;
    assert_int_equal(parse_ok("!cantar rondine", true).verb, CMD_DECLARE);
    assert_int_equal(parse_ok("!declare ronda", true).verb, CMD_DECLARE);
    expect_error("!declare ronda of kings", true, "say just !ronda, or !declare: not 'of'");
    expect_error("!pause now", true, "pause takes nothing after it");
}

static void test_deadline_is_off_or_a_duration(void **state)
{
    (void)state;
    static const char *const off[] = {"!deadline off", "!deadline none", "!deadline 0",
                                      "!plazo nunca", "!deadline OFF"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        assert_int_equal(parse_ok(off[i], true).deadline_secs, 0);
    assert_int_equal(parse_ok("!deadline 10m", true).deadline_secs, 600);
    assert_int_equal(parse_ok("!plazo 1h 30m", true).deadline_secs, 5400);
    assert_int_equal(parse_ok("!deadline 2 horas #friends", true).deadline_secs, 7200);
    expect_error("!deadline", true, "deadline off, or how long? e.g. !deadline 10m");
    expect_error("!deadline soon", true, "'soon' is not a time: say !deadline off");
    expect_error("deadline soon", false, "'soon' is not a time: say deadline off");
    expect_error("!deadline 10 parsecs", true, "'10 parsecs' is not a time");
}

static void test_durations_read_numbers_with_units_in_either_language(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int secs;
    } ok[] = {
        // clang-format off
        {"90", 90},            {"90s", 90},          {"10m", 600},           {"2h", 7200},
        {"1d", 86400},         {"1h30m", 5400},      {"1h30", 5400},         {"1h 30m", 5400},
        {"10 min", 600},       {"5 minutes", 300},   {"2 horas", 7200},      {"3 días", 259200},
        {"1 hour", 3600},      {"45 segundos", 45},  {"1d2h3m4s", 93784},    {"2m30", 150},
        {"off", 0},            {"none", 0},          {"0", 0},               {"0s", 0},
        {" 10M ", 600},        {"366d", 31622400},   {"30m1h", 5400},
        // clang-format on
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int secs = -1;
        if (cmd_parse_duration(ok[i].s, strlen(ok[i].s), &secs) != 0 || secs != ok[i].secs)
            fail_msg("'%s' gave %d, not %d", ok[i].s, secs, ok[i].secs);
    }
}

static void test_durations_refuse_garbage_and_huge_values(void **state)
{
    (void)state;
    const char *list = "|  |m|10x|1.5h|-5m|1h30 5|90 10m|30s5|367d|99999999999999999999|"
                       "2147483647s|10 min min|h1|1h\xff|1,5h|";
    char bad[32];
    while (next_piece(&list, bad, sizeof bad)) {
        int secs = 77;
        if (cmd_parse_duration(bad, strlen(bad), &secs) == 0)
            fail_msg("'%s' was taken for %d seconds", bad, secs);
        assert_int_equal(secs, 77);
    }
    int secs;
    assert_int_equal(cmd_parse_duration(NULL, 2, &secs), -1);
    assert_int_equal(cmd_parse_duration("10m", 3, NULL), -1);
}

/* ------------------------------------------------------------------------ */
/* Robustness                                                               */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

/* xorshift64*: a small deterministic generator for the loops below. */
static uint32_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 32);
}

/* Checks cmd_parse's contract on one input, whatever it is. */
static void check_contract(const char *text, size_t len, bool in_channel)
{
    cmd c, before;
    char e[CMD_ERROR_MAX];
    memset(&c, 0x5A, sizeof c);
    before = c;
    memset(e, 'Z', sizeof e);
    cmd_result r = cmd_parse(text, len, in_channel, "!", &c, e, sizeof e);
    assert_true(r == CMD_OK || r == CMD_IGNORED || r == CMD_ERROR);
    if (r == CMD_ERROR) {
        assert_non_null(memchr(e, '\0', sizeof e));
        assert_true(e[0] != '\0');
        assert_true(valid_utf8(e));
    }
    if (r != CMD_OK) {
        assert_memory_equal(&c, &before, sizeof c);
        return;
    }
    assert_true(c.verb >= CMD_NEW && c.verb < CMD_NVERBS);
    assert_non_null(memchr(c.room, '\0', sizeof c.room));
    assert_non_null(memchr(c.name, '\0', sizeof c.name));
    assert_true(c.card.rank >= -1 && c.card.rank < PZ_RANKS);
    assert_true(c.card.suit >= -1 && c.card.suit < PZ_SUITS);
    assert_true(c.noptions >= 0 && c.noptions <= CMD_OPTIONS_MAX);
    assert_true(c.players == 0 || (c.players >= 2 && c.players <= 8));
    assert_true(c.deadline_secs >= 0);
    assert_true(c.verb != CMD_PLAY || c.card.rank >= 0);
}

static void test_random_bytes_never_break_the_parser(void **state)
{
    (void)state;
    static const char favourite[] = " !#?=:-0123456789hdcs\x02\x03,\xc2\xa0\xe2\x99\xa5\xed\xff";
    char buf[CMD_LINE_MAX + 40];
    for (int i = 0; i < 100000; i++) {
        size_t len = next_random() % (i % 100 == 0 ? sizeof buf : 64);
        for (size_t j = 0; j < len; j++) {
            uint32_t x = next_random();
            buf[j] = x % 3 == 0 ? favourite[(x >> 8) % (sizeof favourite - 1)] : (char)(x >> 8);
        }
        if (len > 0 && i % 2 == 0)
            buf[0] = '!';
        check_contract(buf, len, i % 3 != 0);
    }
}

static void test_random_word_salad_never_breaks_the_parser(void **state)
{
    (void)state;
    static const char vocab[] =
        "new|play|p|7h|10|of|de|hearts|♥|♠️|capture|place|en|su|lugar|in|arrange|best|4h|ltr|"
        "rtl|tendido|now|later|kick|bob|claim|stats|help|rules|deadline|1h|30|off|to|31|target=|"
        "wrap=no|partners|4|9|#friends|!room:x.org|=|\xff|\xe2\x99|¿|?|!|as|rey|x|players=|"
        "shuffle=|a|new|manual|tendido=last|colour=red|?|";
    const char *words[80];
    size_t nvocab = 0;
    for (const char *p = vocab; *p != '\0'; p += strcspn(p, "|") + 1)
        words[nvocab++] = p;
    char buf[CMD_LINE_MAX + 40];
    for (int i = 0; i < 30000; i++) {
        size_t len = 0;
        if (i % 2 == 0)
            buf[len++] = '!';
        for (uint32_t w = next_random() % 9; w > 0; w--) {
            const char *word = words[next_random() % nvocab];
            size_t n = strcspn(word, "|");
            if (len + n + 1 > sizeof buf)
                break;
            memcpy(buf + len, word, n);
            len += n;
            if (next_random() % 4 != 0)
                buf[len++] = ' ';
        }
        check_contract(buf, len, i % 3 != 0);
    }
}

static void test_a_move_without_the_prefix_is_recognised_but_chat_is_not(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        cmd_verb verb;
    } moves[] = {{"play 4", CMD_PLAY},          {"  Play 7h ", CMD_PLAY},
                 {"jugar rey", CMD_PLAY},       {"tendido now", CMD_TENDIDO},
                 {"arrange best", CMD_ARRANGE}, {"arrange 10 5 A 4 right", CMD_ARRANGE},
                 {"claim bob", CMD_CLAIM},      {"play 4 #other", CMD_PLAY}};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        cmd c;
        memset(&c, 0, sizeof c);
        if (!cmd_move_without_prefix(moves[i].line, strlen(moves[i].line), "!", &c))
            fail_msg("'%s' was not taken for a move", moves[i].line);
        assert_int_equal(c.verb, moves[i].verb);
    }
    static const char *const chat[] = {
        "7h",         "k",    "as",    "p 4",   "play",         "play 4 please",
        "hand",       "turn", "ronda", "score", "i play 4 now", "hello there",
        "",           "   ",  "!",     "!!!",   "tendido no",   "play with me",
        "arrange it", "ÿþ"};
    cmd c, before;
    memset(&c, 0x5A, sizeof c);
    before = c;
    for (size_t i = 0; i < sizeof chat / sizeof chat[0]; i++) {
        if (cmd_move_without_prefix(chat[i], strlen(chat[i]), "!", &c))
            fail_msg("chat '%s' was taken for a move", chat[i]);
        assert_memory_equal(&c, &before, sizeof c);
    }
    assert_false(cmd_move_without_prefix(NULL, 0, "!", &c));
    cmd k;
    assert_true(cmd_move_without_prefix("play 4", 6, NULL, &k));
    assert_int_equal(k.card.rank, 3);
}

static void test_part_requests_are_recognised_only_in_their_exact_forms(void **state)
{
    (void)state;
    cmd k = parse_ok("!part", true);
    assert_int_equal(k.verb, CMD_PART);
    assert_string_equal(k.room, "");
    k = parse_ok("!PART #other", true);
    assert_int_equal(k.verb, CMD_PART);
    assert_string_equal(k.room, "#other");
    k = parse_ok("part  #x", false);
    assert_int_equal(k.verb, CMD_PART);
    assert_string_equal(k.room, "#x");
    assert_int_equal(parse("part", true, &k), CMD_IGNORED);      /* no prefix in a room */
    expect_error("!partner", true, "unknown command 'partner'"); /* another word */
    assert_int_equal(parse_ok("!play 7h", true).verb, CMD_PLAY);
    assert_int_equal(parse("", false, &k), CMD_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_part_requests_are_recognised_only_in_their_exact_forms),
        cmocka_unit_test(test_every_verb_and_alias_parses_in_channel_and_in_private),
        cmocka_unit_test(test_verbs_are_understood_in_any_case),
        cmocka_unit_test(test_every_verb_has_its_canonical_english_name),
        cmocka_unit_test(test_purge_takes_one_channel_or_nick),
        cmocka_unit_test(test_owner_commands_take_a_game_number_or_a_nick),
        cmocka_unit_test(test_link_takes_a_code_in_any_case_or_off),
        cmocka_unit_test(test_prompts_takes_on_or_off_and_nothing_else),
        cmocka_unit_test(test_single_letter_verbs_win_over_cards_of_that_letter),
        cmocka_unit_test(test_verbs_without_arguments_refuse_words_after_them),
        cmocka_unit_test(test_an_unknown_verb_suggests_the_closest_verb),
        cmocka_unit_test(test_every_rank_form_parses_alone_without_a_suit),
        cmocka_unit_test(test_every_suit_form_parses_after_a_rank),
        cmocka_unit_test(test_as_alone_is_the_ace_of_spades_marked_as_spanish_for_ace),
        cmocka_unit_test(test_things_that_are_not_cards_are_refused),
        cmocka_unit_test(test_a_bare_card_is_a_play),
        cmocka_unit_test(test_spanish_suit_letters_are_read_in_a_spanish_line),
        cmocka_unit_test(test_pass_is_told_nobody_passes_not_skipped),
        cmocka_unit_test(test_removebot_takes_robot_n),
        cmocka_unit_test(test_play_takes_capture_or_place_in_english_or_spanish),
        cmocka_unit_test(test_play_says_what_is_missing_or_wrong),
        cmocka_unit_test(test_channel_lines_not_addressed_to_the_bot_are_ignored),
        cmocka_unit_test(test_private_lines_need_no_prefix_and_tolerate_one),
        cmocka_unit_test(test_other_prefixes_work_and_null_means_the_default),
        cmocka_unit_test(test_a_trailing_room_is_taken_from_any_command),
        cmocka_unit_test(test_trailing_punctuation_and_spanish_marks_are_forgiven),
        cmocka_unit_test(test_a_line_of_exactly_the_maximum_is_parsed_and_longer_is_refused),
        cmocka_unit_test(test_invalid_utf8_makes_a_word_unknown_and_is_never_echoed),
        cmocka_unit_test(test_control_characters_are_spaces_and_irc_formatting_vanishes),
        cmocka_unit_test(test_replies_fit_any_buffer_and_end_on_a_whole_character),
        cmocka_unit_test(test_out_is_untouched_unless_the_line_is_a_command),
        cmocka_unit_test(test_new_reads_every_option_word_as_an_r9_option),
        cmocka_unit_test(test_new_reads_players_and_shuffled_seats),
        cmocka_unit_test(test_new_keeps_the_last_value_said_for_an_option),
        cmocka_unit_test(test_new_refuses_unknown_words_naming_them),
        cmocka_unit_test(test_new_reads_the_player_count_in_words),
        cmocka_unit_test(test_new_reads_the_target_in_digits_or_words),
        cmocka_unit_test(test_new_refuses_a_target_out_of_range_saying_the_range),
        cmocka_unit_test(test_tendido_is_now_or_later_in_either_language),
        cmocka_unit_test(test_arrange_takes_best_or_four_cards_and_a_direction),
        cmocka_unit_test(test_arrange_takes_bare_ranks_for_the_host_to_match),
        cmocka_unit_test(test_kick_claim_and_stats_take_one_nick),
        cmocka_unit_test(test_help_and_rules_take_a_topic),
        cmocka_unit_test(test_declarations_and_pauses_need_no_words),
        cmocka_unit_test(test_deadline_is_off_or_a_duration),
        cmocka_unit_test(test_durations_read_numbers_with_units_in_either_language),
        cmocka_unit_test(test_durations_refuse_garbage_and_huge_values),
        cmocka_unit_test(test_random_bytes_never_break_the_parser),
        cmocka_unit_test(test_random_word_salad_never_breaks_the_parser),
        cmocka_unit_test(test_a_move_without_the_prefix_is_recognised_but_chat_is_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
