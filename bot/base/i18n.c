/*
 * i18n.c — the current language per thread, and the words that name a
 * language. Lookups answer the English msgid until catalogues are loaded.
 */
#include "i18n.h"

#include <string.h>
#include <strings.h>

static _Thread_local pz_lang current = PZ_LANG_EN;

pz_lang i18n_use(pz_lang lang)
{
    pz_lang before = current;
    if (lang >= 0 && lang < PZ_LANG_COUNT)
        current = lang;
    return before;
}

pz_lang i18n_lang(void) { return current; }

const char *i18n_text(const char *msgid) { return msgid; }

const char *i18n_plural(const char *one, const char *many, unsigned long n)
{
    return n == 1 ? one : many;
}

bool i18n_parse(const char *word, pz_lang *out)
{
    static const struct {
        const char *word;
        pz_lang lang;
    } words[] = {
        {"en", PZ_LANG_EN},      {"english", PZ_LANG_EN}, {"ingles", PZ_LANG_EN},
        {"inglés", PZ_LANG_EN},  {"es", PZ_LANG_ES},      {"spanish", PZ_LANG_ES},
        {"espanol", PZ_LANG_ES}, {"español", PZ_LANG_ES},
    };
    if (!word)
        return false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(word, words[i].word) == 0) {
            *out = words[i].lang;
            return true;
        }
    return false;
}

const char *i18n_code(pz_lang lang) { return lang == PZ_LANG_ES ? "es" : "en"; }
