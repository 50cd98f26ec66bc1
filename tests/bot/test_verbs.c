/*
 * test_verbs.c — the command table (bot/parse/verbs.def) as the parser and
 * the help read it: every word of every row parses to that row's verb,
 * with the arguments of the row's own example; no word names two verbs;
 * the help list shows every verb and "help WORD" answers for every word,
 * with the row's usage; the words help used to advertise while the parser
 * refused them (sentarse, irse, expulsar, juega, quien...) are the verbs
 * help says.
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
#include "render.h"

/* The table's rows, as the tests read them. */
typedef struct row {
    cmd_verb verb;
    const char *name, *shown, *more, *list, *usage, *example;
} row;

static const row ROWS[] = {
#define X(id, name, shown, more, flags, section, list, usage, what, example, refuse, handler)      \
    {CMD_##id, name, shown, more, list, usage, example},
#include "verbs.def"
#undef X
};
#define NROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

#define WORDS_MAX 24 /* words of one row, at most */

/* The words of a row: its name, then the shown and the other words. */
static int words_of(const row *r, char out[WORDS_MAX][64])
{
    const char *lists[3] = {r->name, r->shown, r->more};
    int n = 0;
    for (int l = 0; l < 3; l++)
        for (const char *p = lists[l]; *p != '\0';) {
            size_t k = strcspn(p, " ");
            assert_true(k > 0 && k < 64 && n < WORDS_MAX);
            memcpy(out[n], p, k);
            out[n++][k] = '\0';
            p += k;
            while (*p == ' ')
                p++;
        }
    return n;
}

/* Parses text (prefix "!"); fails unless it is a command of verb v. */
static void expect_verb(const char *text, bool in_channel, cmd_verb v)
{
    cmd c;
    char err[CMD_ERROR_MAX] = "";
    cmd_result r = cmd_parse(text, strlen(text), in_channel, "!", &c, err, sizeof err);
    if (r != CMD_OK)
        fail_msg("'%s' gave %d, not %s: %s", text, (int)r, cmd_verb_name(v), err);
    if (c.verb != v)
        fail_msg("'%s' is %s, not %s", text, cmd_verb_name(c.verb), cmd_verb_name(v));
}

/* The row's example with its first word replaced by word. */
static void example_with(const row *r, const char *word, char *out, size_t cap)
{
    const char *args = r->example + strcspn(r->example, " ");
    int n = snprintf(out, cap, "%s%s", word, args);
    assert_true(n > 0 && (size_t)n < cap);
}

static void test_every_word_of_every_row_parses_to_its_verb(void **state)
{
    (void)state;
    char words[WORDS_MAX][64], line[200], chan[210];
    assert_int_equal(NROWS, CMD_NVERBS);
    for (int i = 0; i < NROWS; i++) {
        assert_int_equal((int)ROWS[i].verb, i);
        assert_string_equal(cmd_verb_name(ROWS[i].verb), ROWS[i].name);
        int n = words_of(&ROWS[i], words);
        for (int w = 0; w < n; w++) {
            example_with(&ROWS[i], words[w], line, sizeof line);
            assert_true(snprintf(chan, sizeof chan, "!%s", line) < (int)sizeof chan);
            expect_verb(line, false, ROWS[i].verb);
            expect_verb(chan, true, ROWS[i].verb);
        }
    }
}

static void test_no_word_names_two_verbs(void **state)
{
    (void)state;
    char a[WORDS_MAX][64], b[WORDS_MAX][64];
    for (int i = 0; i < NROWS; i++) {
        int na = words_of(&ROWS[i], a);
        for (int j = i; j < NROWS; j++) {
            int nb = words_of(&ROWS[j], b);
            for (int x = 0; x < na; x++)
                for (int y = 0; y < nb; y++)
                    if ((i != j || x != y) && strcmp(a[x], b[y]) == 0)
                        fail_msg("'%s' names %s and %s", a[x], ROWS[i].name, ROWS[j].name);
        }
    }
}

/* True when a line of out holds s. */
static bool any_line_has(const render_lines *out, const char *s)
{
    for (int i = 0; i < out->n; i++)
        if (strstr(out->line[i], s) != NULL)
            return true;
    return false;
}

static void test_the_help_list_shows_every_verb_by_a_word_the_parser_takes(void **state)
{
    (void)state;
    render_lines out = {0};
    char entry[80], word[80], line[200];
    render_help("", "!", &out);
    assert_true(out.n >= 3 && out.n <= 5);
    for (int i = 0; i < NROWS; i++) {
        size_t k = strcspn(ROWS[i].list, " ");
        assert_true(snprintf(entry, sizeof entry, "!%.*s", (int)k, ROWS[i].list) <
                    (int)sizeof entry);
        if (!any_line_has(&out, entry))
            fail_msg("the help list lacks %s (%s)", entry, ROWS[i].name);
        snprintf(word, sizeof word, "%s", entry + 1);
        example_with(&ROWS[i], word, line, sizeof line);
        expect_verb(line, false, ROWS[i].verb);
    }
    for (int i = 0; i < out.n; i++) /* none cut at RENDER_LINE_MAX */
        assert_true(strlen(out.line[i]) < RENDER_LINE_MAX - 8);
}

static void test_help_answers_every_word_with_its_rows_usage(void **state)
{
    (void)state;
    char words[WORDS_MAX][64], usage[80];
    for (int i = 0; i < NROWS; i++) {
        size_t k = strcspn(ROWS[i].usage, "|");
        assert_true(snprintf(usage, sizeof usage, "!%.*s", (int)k, ROWS[i].usage) <
                    (int)sizeof usage);
        int n = words_of(&ROWS[i], words);
        for (int w = 0; w < n; w++) {
            render_lines out = {0};
            render_help(words[w], "!", &out);
            if (out.n != 2 || strncmp(out.line[0], usage, strlen(usage)) != 0)
                fail_msg("help %s: \"%s\", not %s's usage", words[w], out.line[0], ROWS[i].name);
            assert_int_equal(strncmp(out.line[1], "Example: !", 10), 0);
        }
    }
}

static void test_the_words_help_used_to_advertise_are_the_verbs_it_says(void **state)
{
    (void)state;
    static const struct {
        const char *word;
        cmd_verb verb;
    } drift[] = {
        {"sentarse", CMD_JOIN},         {"irse", CMD_LEAVE},          {"expulsar bob", CMD_KICK},
        {"juega 7h", CMD_PLAY},         {"juego 7h", CMD_PLAY},       {"quien", CMD_PLAYERS},
        {"arreglar best", CMD_ARRANGE}, {"tiempo 10m", CMD_DEADLINE},
    };
    char line[80];
    for (size_t i = 0; i < sizeof drift / sizeof drift[0]; i++) {
        expect_verb(drift[i].word, false, drift[i].verb);
        assert_true(snprintf(line, sizeof line, "!%s", drift[i].word) < (int)sizeof line);
        expect_verb(line, true, drift[i].verb);
        /* help names the same verb for the word as for its canonical name */
        render_lines by_word = {0}, by_name = {0};
        size_t k = strcspn(drift[i].word, " ");
        assert_true(snprintf(line, sizeof line, "%.*s", (int)k, drift[i].word) < (int)sizeof line);
        render_help(line, "!", &by_word);
        render_help(cmd_verb_name(drift[i].verb), "!", &by_name);
        assert_int_equal(by_word.n, 2);
        assert_string_equal(by_word.line[0], by_name.line[0]);
    }
}

/* Parses text in private; fails unless it is a command, which it writes. */
static void parse_ok(const char *text, cmd *c)
{
    char err[CMD_ERROR_MAX] = "";
    memset(c, 0, sizeof *c);
    if (cmd_parse(text, strlen(text), false, "!", c, err, sizeof err) != CMD_OK)
        fail_msg("'%s' is not a command: %s", text, err);
}

/*
 * A word of the table with its n-th vowel accented (or its n-th 'n' as
 * ñ, or upper case for n == -1): false when it has no n-th such letter.
 */
static bool accented(const char *w, int n, char *out, size_t cap)
{
    static const char *const plain = "aeioun", *const marked[] = {"á", "é", "í", "ó", "ú", "ñ"};
    size_t o = 0;
    bool done = false;
    for (const char *p = w; *p != '\0' && o + 4 < cap; p++) {
        const char *v = strchr(plain, *p);
        if (n == -1) {
            out[o++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
            done = true;
        } else if (v != NULL && *p != '\0' && n-- == 0) {
            const char *m = marked[v - plain];
            memcpy(out + o, m, strlen(m));
            o += strlen(m);
            done = true;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
    return done;
}

static void test_every_word_parses_accented_and_in_capitals(void **state)
{
    (void)state;
    char words[WORDS_MAX][64], word[96], line[200];
    for (int i = 0; i < NROWS; i++) {
        int n = words_of(&ROWS[i], words);
        for (int w = 0; w < n; w++)
            for (int k = -1; accented(words[w], k, word, sizeof word); k++) {
                example_with(&ROWS[i], word, line, sizeof line);
                expect_verb(line, false, ROWS[i].verb);
            }
    }
}

/* Spanish lines and the English ones they say: every verb, its arguments. */
static const char *const SPANISH[][2] = {
    {"nuevo dos contra la máquina difícil a treinta y uno", "new 2 bot expert to 31"},
    {"nueva partida 3 parejas sinvuelta silenciosas", "new 3 partners nowrap silent"},
    {"crear 4 revolver automáticas", "new 4 shuffle auto"},
    {"abrir 2 computadora fácil", "new 2 bot beginner"},
    {"unirse", "join"},
    {"sentarme", "join"},
    {"salir", "leave"},
    {"irme", "leave"},
    {"empezar", "start"},
    {"arrancar", "start"},
    {"echar bob", "kick bob"},
    {"expulsar bob", "kick bob"},
    {"jugar 7 de corazones", "play 7h"},
    {"tirar rey de picas capturar", "play king of spades capture"},
    {"juega 4♦ colocar", "play 4d place"},
    {"jugar 4d en su lugar", "play 4d place"},
    {"tira As", "play As"},
    {"jugar as de tréboles", "play ace of clubs"},
    {"mano", "hand"},
    {"mesa", "table"},
    {"puntos", "score"},
    {"puntaje", "score"},
    {"turno", "turn"},
    {"tendido ahora", "tendido now"},
    {"tendido ahorita", "tendido now"},
    {"tender después", "tendido later"},
    {"tendido despues", "tendido later"},
    {"tendido más tarde", "tendido later"},
    {"acomodar mejor", "arrange best"},
    {"ordenar 2 4 3 7 izquierda", "arrange 2 4 3 7 left"},
    {"arreglar 10 5 A 4 derecha", "arrange 10 5 A 4 right"},
    {"ronda", "declare"},
    {"cantar rondín", "declare"},
    {"reclamar bob", "claim bob"},
    {"pausa", "pause"},
    {"pausar", "pause"},
    {"seguir", "resume"},
    {"parar", "stop"},
    {"terminar", "stop"},
    {"opciones", "options"},
    {"reglas porrazo", "rules porrazo"},
    {"ayuda jugar", "help play"},
    {"ayuda", "help"},
    {"estadísticas alice", "stats alice"},
    {"mejores", "top"},
    {"mejores máquinas", "top bots"},
    {"jugadores", "players"},
    {"quién", "players"},
    {"plazo 10 minutos", "deadline 10m"},
    {"tiempo nunca", "deadline off"},
    {"límite 1 hora", "deadline 1h"},
    {"purgar #porrazo", "purge #porrazo"},
    {"avisos sí", "prompts on"},
    {"avisos apagado", "prompts off"},
    {"partidas todas", "games all"},
    {"juegos", "games"},
    {"exportar 12", "export 12"},
    {"fparar 12", "fstop 12"},
    {"fsacar bob", "fleave bob"},
    {"saltar", "skip"},
    {"agregarbot 2 fuerte", "addbot 2 strong"},
    {"añadirbot", "addbot"},
    {"robot 3 principiante", "addbot 3 beginner"},
    {"quitarbot 2", "removebot 2"},
    {"volver", "back"},
    {"regresar", "back"},
    {"sustituir bob", "sub bob"},
    {"reemplazar dan bob", "sub dan bob"},
    {"zona America/Chicago", "tz America/Chicago"},
    {"silencio 23:00-08:00", "quiet 23:00-08:00"},
    {"silencio no", "quiet off"},
    {"vacaciones 3 días", "away 3d"},
    {"ausente 3d computadora", "away 3d bot"},
    {"vacaciones apagado", "away off"},
    {"ajustar plazo 24h", "set deadline 24h"},
    {"configurar nivel experto", "set level expert"},
    {"ajustar colores no", "set colours off"},
    {"ajustar prefijo apagado", "set prefix off"},
    {"ajustar opciones no", "set options off"},
    {"ajustar ausente 3d", "set away 3d"},
    {"ajustes", "settings"},
    {"configuración", "settings"},
    {"recordatorios no", "reminders off"},
    {"recordatorios sí", "reminders on"},
    {"notificaciones sí", "notices on"},
    {"vincular", "link"},
    {"vincular no", "link off"},
    {"marcharse #porrazo", "part #porrazo"},
    {"jugadas", "moves"},
    {"pista", "hint"},
    {"consejo", "hint"},
    {"repaso sí", "review on"},
    {"revisión no", "review off"},
    {"aprender", "learn"},
    {"aprende codicioso", "learn greedy"},
    {"practicar fuerte", "learn strong"},
    {"página", "web"},
    {"paginas", "web"},
    {"idioma es", "lang es"},
    {"lengua en", "lang en"},
    {"ajustar pistas no", "set hints off"},
    {"ajustar páginas sí", "set web on"},
    {"ajustar idioma en", "set lang en"},
    /* the examples of es-host.po's help */
    {"nuevo 2 bot experto a 31", "new 2 bot expert to 31"},
    {"jugar 7h", "play 7h"},
    {"ordenar 2 4 3 7 izquierda", "arrange 2 4 3 7 left"},
    {"plazo 10m", "deadline 10m"},
    {"partidas", "games"},
    {"zona America/Chicago", "tz America/Chicago"},
    {"vacaciones 3d", "away 3d"},
    {"poner plazo 24h", "set deadline 24h"},
    {"poner colores no", "set colours off"},
    {"notice sí", "notices on"},
    {"estadísticas alice", "stats alice"},
    {"avisos sí", "prompts on"},
    {"recordatorios no", "reminders off"},
};

/* Whether two cards are the same card, as typed. */
static bool same_card(cmd_card a, cmd_card b)
{
    return a.rank == b.rank && a.suit == b.suit && a.spanish_as == b.spanish_as;
}

/* Whether two commands say the same, field by field (not their padding). */
static bool same_cmd(const cmd *a, const cmd *b)
{
    bool same = a->verb == b->verb && strcmp(a->room, b->room) == 0 &&
                same_card(a->card, b->card) && a->mode == b->mode && a->now == b->now &&
                a->on == b->on && a->best == b->best && a->has_direction == b->has_direction &&
                a->direction == b->direction && strcmp(a->name, b->name) == 0 &&
                strcmp(a->name2, b->name2) == 0 && a->players == b->players &&
                a->shuffle_seats == b->shuffle_seats && a->noptions == b->noptions &&
                a->deadline_secs == b->deadline_secs && a->all == b->all && a->game == b->game &&
                a->robots == b->robots && a->level == b->level && a->count == b->count &&
                a->off == b->off;
    for (int i = 0; i < 4; i++)
        same = same && same_card(a->row[i], b->row[i]);
    for (int i = 0; same && i < a->noptions; i++)
        same = strcmp(a->option_name[i], b->option_name[i]) == 0 &&
               strcmp(a->option_value[i], b->option_value[i]) == 0;
    return same;
}

static void test_spanish_lines_are_the_english_commands(void **state)
{
    (void)state;
    bool seen[CMD_NVERBS] = {false};
    for (size_t i = 0; i < sizeof SPANISH / sizeof SPANISH[0]; i++) {
        cmd es, en;
        parse_ok(SPANISH[i][0], &es);
        parse_ok(SPANISH[i][1], &en);
        if (!same_cmd(&es, &en))
            fail_msg("'%s' is not '%s' (%s, %s; '%s' '%s' / '%s' '%s')", SPANISH[i][0],
                     SPANISH[i][1], cmd_verb_name(es.verb), cmd_verb_name(en.verb), es.name,
                     es.name2, en.name, en.name2);
        seen[es.verb] = true;
    }
    for (int v = 0; v < CMD_NVERBS; v++)
        if (!seen[v])
            fail_msg("no Spanish line says %s", cmd_verb_name((cmd_verb)v));
}

/* Each Spanish argument word, in a line of its verb, says its English word. */
static const struct {
    const char *line; /* %s: the word */
    const char *english;
    const char *spanish; /* space-separated */
} ARGUMENTS[] = {
    {"play 7h %s", "capture", "captura capturar capturo tomar llevar"},
    {"play 7h %s", "place", "poner pongo colocar coloco lugar en-su-lugar"},
    {"tendido %s", "now", "ahora ya ahorita"},
    {"tendido %s", "later", "luego después despues mas-tarde"},
    {"arrange %s", "best", "mejor"},
    {"arrange 2 4 3 7 %s", "left", "izq izquierda izquierda-a-derecha"},
    {"arrange 2 4 3 7 %s", "right", "der derecha derecha-a-izquierda"},
    {"prompts %s", "on", "sí si siempre prendido activado encendido"},
    {"reminders %s", "off", "no apagado desactivado"},
    {"games %s", "all", "todas todos"},
    {"top %s", "bots", "máquina máquinas computadora computadoras robots"},
    {"addbot %s", "beginner", "principiante novato fácil"},
    {"addbot %s", "greedy", "codicioso intermedio"},
    {"addbot %s", "expert", "experto avanzado difícil"},
    {"addbot %s", "strong", "fuerte"},
    {"deadline %s", "off", "nunca ninguno apagado"},
    {"deadline 10 %s", "minutes", "minuto minutos"},
    {"deadline 2 %s", "hours", "hora horas"},
    {"away 3 %s", "days", "día días"},
    {"away 3d %s", "bot", "máquina computadora"},
    {"set %s 24h", "deadline", "plazo tiempo límite"},
    {"set %s expert", "level", "nivel"},
    {"set level %s", "strong", "fuerte"},
    {"set %s on", "colours", "colores color"},
    {"set colours %s", "off", "no apagado"},
    {"set %s 3d", "away", "ausente vacaciones ausencia"},
    {"set %s partners", "options", "opciones"},
    {"set %s .", "prefix", "prefijo"},
    {"set %s on", "hints", "pistas pista consejos"},
    {"set %s off", "web", "páginas página"},
    {"set %s es", "lang", "idioma lengua"},
    {"new 2 %s", "partners", "parejas equipos"},
    {"new 2 %s", "shuffle", "barajar revolver azar al-azar"},
    {"new 2 %s", "nowrap", "sinvuelta sin-vuelta"},
    {"new 2 %s", "silent", "silenciosas silencioso"},
    {"new 2 %s", "auto", "automático automáticas"},
    {"new 2 bot %s", "expert", "experto avanzado difícil"},
    {"new 2 partners=%s", "yes", "sí verdadero"},
    {"new 2 partners=%s", "no", "falso"},
    {"new 2 declarations=%s", "manual", "a-mano"},
    {"new 2 %s", "manual", "a-mano"},
    {"new 2 declaraciones=%s", "silent", "silencioso calladas"},
    {"new 2 tendido=%s", "last", "último última"},
    {"new 2 tendido %s", "choice", "elección escoger"},
    {"new 2 sobrantes=%s", "deal", "reparto"},
    {"new 2 leftover %s", "table", "mesa"},
    {"new 2 barrida=%s", "dealer", "repartidor"},
    {"new 2 final_sweep=%s", "last_capturer", "último"},
    {"new 2 cartas=%s", "difference", "diferencia"},
    {"new 2 %s", "excess26", "exceso26"},
};

/* Writes template with its "%s" replaced by word into out (cap bytes). */
static void fill(const char *template, const char *word, char *out, size_t cap)
{
    const char *at = strstr(template, "%s");
    assert_non_null(at);
    int n = snprintf(out, cap, "%.*s%s%s", (int)(at - template), template, word, at + 2);
    assert_true(n > 0 && (size_t)n < cap);
}

static void test_every_spanish_argument_word_says_its_english_word(void **state)
{
    (void)state;
    char line[120], word[64];
    for (size_t i = 0; i < sizeof ARGUMENTS / sizeof ARGUMENTS[0]; i++) {
        cmd es, en;
        fill(ARGUMENTS[i].line, ARGUMENTS[i].english, line, sizeof line);
        parse_ok(line, &en);
        for (const char *p = ARGUMENTS[i].spanish; *p != '\0';) {
            size_t k = strcspn(p, " ");
            assert_true(snprintf(word, sizeof word, "%.*s", (int)k, p) < (int)sizeof word);
            fill(ARGUMENTS[i].line, word, line, sizeof line);
            parse_ok(line, &es);
            if (!same_cmd(&es, &en))
                fail_msg("'%s' does not say %s", line, ARGUMENTS[i].english);
            p += k + strspn(p + k, " ");
        }
    }
}

/*
 * In Spanish (the catalogue's language once it is built): each row's
 * example, its help list entry and each form of its usage, as help shows
 * them, start with a word of the row's verb, and the example parses to it.
 * With no catalogue the texts are the English ones, which hold too.
 */
static void test_the_help_in_spanish_names_words_the_parser_takes(void **state)
{
    (void)state;
    char word[80];
    cmd c;
    pz_lang before = i18n_use(PZ_LANG_ES);
    for (int i = 0; i < NROWS; i++) {
        const char *texts[3] = {_(ROWS[i].example), _(ROWS[i].list), _(ROWS[i].usage)};
        expect_verb(texts[0], false, ROWS[i].verb);
        for (int t = 1; t < 3; t++)
            for (const char *p = texts[t]; p != NULL;) {
                size_t k = strcspn(p, " ");
                /* help WORD names the verb WORD says */
                assert_true(snprintf(word, sizeof word, "help %.*s", (int)k, p) < (int)sizeof word);
                parse_ok(word, &c);
                if (c.verb != CMD_HELP || strcmp(c.name, ROWS[i].name) != 0)
                    fail_msg("'%s' does not name %s", word + 5, ROWS[i].name);
                /* set's later forms are its keys ("deadline DURATION|off") */
                p = t == 2 && ROWS[i].verb != CMD_SET ? strstr(p, " | ") : NULL;
                p = p != NULL ? p + 3 : NULL;
            }
    }
    i18n_use(before);
}

/* help VERB's example line names each word once, in English and in
   Spanish (the Spanish example's word, "pista", is one of hint's words
   too: "(also ...)" leaves it out). */
static void test_the_example_line_names_each_word_once(void **state)
{
    (void)state;
    for (int lang = PZ_LANG_EN; lang < PZ_LANG_COUNT; lang++) {
        pz_lang before = i18n_use((pz_lang)lang);
        for (int i = 0; i < NROWS; i++) {
            render_lines out = {0};
            render_help(ROWS[i].name, "!", &out);
            assert_true(out.n >= 2);
            const char *line = out.line[out.n - 1];
            char seen[16][32];
            int n = 0;
            for (const char *p = strchr(line, '!'); p != NULL; p = strchr(p + 1, '!')) {
                size_t k = strcspn(p + 1, " ,)");
                assert_true(k < sizeof seen[0] && n < 16);
                snprintf(seen[n], sizeof seen[n], "%.*s", (int)k, p + 1);
                for (int j = 0; j < n; j++)
                    if (strcmp(seen[j], seen[n]) == 0)
                        fail_msg("'%s' names !%s twice", line, seen[n]);
                n++;
            }
            assert_true(n >= 1);
        }
        i18n_use(before);
    }
}

/* Fails when line was cut to fit (render ends a cut line with "…"). */
static void expect_whole(const char *line, const char *what)
{
    size_t n = strlen(line);
    if (n + 1 >= RENDER_LINE_MAX || (n >= 3 && strcmp(line + n - 3, "\xE2\x80\xA6") == 0))
        fail_msg("%s: a line cut at %zu bytes: %s", what, n, line);
}

/* Every help VERB and rules TOPIC line fits one chat line whole, in
   English and in Spanish, with a room's longest prefix (3 characters). */
static void test_help_and_rules_lines_fit_whole(void **state)
{
    (void)state;
    static const char *const topics[] = {"",        "capture", "place",   "limpia", "porrazo",
                                         "tendido", "ronda",   "scoring", "end",    "sealed"};
    for (int lang = PZ_LANG_EN; lang < PZ_LANG_COUNT; lang++) {
        pz_lang before = i18n_use((pz_lang)lang);
        for (int i = 0; i < NROWS; i++) {
            render_lines out = {0};
            render_help(ROWS[i].name, ">>>", &out);
            for (int k = 0; k < out.n; k++)
                expect_whole(out.line[k], ROWS[i].name);
        }
        for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
            render_lines out = {0};
            render_rules(topics[i], &out);
            assert_true(out.n >= 1);
            for (int k = 0; k < out.n; k++)
                expect_whole(out.line[k], topics[i]);
        }
        i18n_use(before);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_word_of_every_row_parses_to_its_verb),
        cmocka_unit_test(test_no_word_names_two_verbs),
        cmocka_unit_test(test_the_help_list_shows_every_verb_by_a_word_the_parser_takes),
        cmocka_unit_test(test_help_answers_every_word_with_its_rows_usage),
        cmocka_unit_test(test_the_words_help_used_to_advertise_are_the_verbs_it_says),
        cmocka_unit_test(test_every_word_parses_accented_and_in_capitals),
        cmocka_unit_test(test_spanish_lines_are_the_english_commands),
        cmocka_unit_test(test_every_spanish_argument_word_says_its_english_word),
        cmocka_unit_test(test_the_help_in_spanish_names_words_the_parser_takes),
        cmocka_unit_test(test_the_example_line_names_each_word_once),
        cmocka_unit_test(test_help_and_rules_lines_fit_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
