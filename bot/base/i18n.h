/*
 * i18n.h — the language a line is written in.
 *
 * Every sentence a person reads goes through _() (or P_() when it counts
 * something), written whole, in English, with printf placeholders a
 * translator may reorder ("%1$s takes %2$s"): never a sentence built from
 * fragments. N_() marks a string for the catalogues where it is stored in
 * a table and translated later with _().
 *
 * The language is per thread and per line: whoever writes a line for a
 * room or a person calls i18n_use() with that reader's language first and
 * puts the previous one back after (the host does this where it knows the
 * reader). The catalogues are GNU gettext's (.po made with xgettext,
 * compiled with msgfmt); English is the msgid itself.
 */
#ifndef PZ_I18N_H
#define PZ_I18N_H

#include <stdbool.h>

typedef enum pz_lang {
    PZ_LANG_EN = 0,
    PZ_LANG_ES = 1,
    PZ_LANG_COUNT
} pz_lang;

/* The language of the lines this thread writes from now on; returns the
   one before, for the caller to put back. */
pz_lang i18n_use(pz_lang lang);
pz_lang i18n_lang(void);

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

/* "en"/"es" (and "english", "español", "espanol", "ingles"...) to a
   language; false for anything else. i18n_code gives "en" or "es". */
bool i18n_parse(const char *word, pz_lang *out);
const char *i18n_code(pz_lang lang);

#define _(s) i18n_text(s)
#define N_(s) (s)
#define P_(one, many, n) i18n_plural((one), (many), (n))

#endif
