/*
 * i18n.h — the language a line is written in.
 *
 * Every sentence a person reads goes through _() (or P_() when it counts
 * something), written whole, in English, with printf placeholders in the
 * order of the arguments ("%s takes %s": the compiler checks them against
 * the arguments, and -Wpedantic refuses "%1$s" in a checked format); a
 * translation reorders them with "%2$s ... %1$s" (msgfmt --check holds
 * it to the msgid's). Never a sentence built from fragments. N_() marks a
 * string for the catalogues where it is stored in a table and translated
 * later with _(); C_(context, s) and NC_() tell the same English word
 * apart by context ("month"/"Mar").
 *
 * The language is per thread and per line: whoever writes a line for a
 * room or a person calls i18n_use() with that reader's language first and
 * puts the previous one back after (the host does this where it knows the
 * reader). The catalogues are GNU gettext's (bot/po: .po made with
 * xgettext, compiled with msgfmt); English is the msgid itself.
 */
#ifndef PZ_I18N_H
#define PZ_I18N_H

#include <stdbool.h>

typedef enum pz_lang { PZ_LANG_EN = 0, PZ_LANG_ES = 1, PZ_LANG_COUNT } pz_lang;

/* The language of the lines this thread writes from now on; returns the
   one before, for the caller to put back. */
pz_lang i18n_use(pz_lang lang);
pz_lang i18n_lang(void);

/*
 * I18N_SCOPE(lang); as a statement: the rest of the enclosing block is
 * written in lang, and the language before is put back when the block is
 * left, at its end or by a return or break (the cleanup attribute of GCC
 * and Clang, the compilers this builds with). One per block. The way to
 * write for one reader; i18n_use pairs by hand are for what no block
 * bounds.
 */
void i18n_restore(const pz_lang *before);
#define I18N_SCOPE(lang)                                                                           \
    pz_lang i18n_scope_before_ __attribute__((cleanup(i18n_restore), unused)) = i18n_use(lang)

/* Finds the catalogues and readies gettext (i18n.c says how); called once
   by main before any thread starts, else by the first lookup. */
void i18n_init(void);
/* The folder the catalogues are read from (es/LC_MESSAGES/porrazo-es.mo). */
const char *i18n_dir(void);

/* msgid in the current language (msgid itself when untranslated). */
const char *i18n_text(const char *msgid)
#if defined(__GNUC__)
    __attribute__((format_arg(1)))
#endif
    ;
/* one or many by n, in the current language's plural rule. */
const char *i18n_plural(const char *one, const char *many, unsigned long n)
#if defined(__GNUC__)
    __attribute__((format_arg(1), format_arg(2)))
#endif
    ;

/* msgid in the current language, told apart from the same English word
   elsewhere by its context (gettext's msgctxt: C_("month", "Mar")). */
const char *i18n_ptext(const char *context, const char *msgid)
#if defined(__GNUC__)
    __attribute__((format_arg(2)))
#endif
    ;

/* A language's code or a word for it ("en", "es", "english", "español",
   "espanol", "ingles"...: i18n.c's table of languages) to a language;
   false for anything else. i18n_code gives its code ("en", "es"). */
bool i18n_parse(const char *word, pz_lang *out);
const char *i18n_code(pz_lang lang);
/* The language's name, a msgid ("Spanish"): _(i18n_name(l)) for a reader. */
const char *i18n_name(pz_lang lang);
/* True when its catalogue was found (English always): a language the
   configuration may choose. */
bool i18n_available(pz_lang lang);

/*
 * The configured language of rooms and networks, as data: the rules in
 * order (each network's rooms before the network's own), the first whose
 * network is network and whose room is room (ASCII case ignored, as IRC
 * does) or "" (the network's); else fallback, the bot's. The one reading
 * of the configuration's languages: the host (through cfg_room_lang) and
 * the pages (web_set_langs) both call i18n_rules_lang.
 */
typedef struct i18n_rule {
    char network[32];
    char room[256]; /* "": the network's own */
    int lang;       /* a pz_lang */
} i18n_rule;
typedef struct i18n_rules {
    int fallback; /* a pz_lang */
    int n;
    const i18n_rule *rule;
} i18n_rules;
pz_lang i18n_rules_lang(const i18n_rules *r, const char *network, const char *room);

/*
 * The language of a person's private lines, the rule of every private
 * line: their own choice (own, -1 none), else the language of the room
 * where they are seated or last spoke (room_lang, -1 none known), else
 * their network's (network_lang, -1 none), else the bot's.
 */
pz_lang i18n_reader_lang(int own, int room_lang, int network_lang, pz_lang bot);

#define _(s) i18n_text(s)
#define N_(s) (s)
#define C_(context, s) i18n_ptext((context), (s))
#define NC_(context, s) (s)
#define P_(one, many, n) i18n_plural((one), (many), (n))

#endif
