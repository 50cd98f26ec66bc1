/*
 * i18n.c — the current language per thread, the words that name a
 * language, and the lookups in GNU gettext's catalogues (glibc's libintl).
 *
 * How a thread reads Spanish on a host that generated no locale (only C
 * and C.UTF-8): each language other than English is a text domain of its
 * own, "porrazo-es", whose only catalogue is es/LC_MESSAGES/porrazo-es.mo.
 * LC_MESSAGES is set to "C.UTF-8" (glibc ignores LANGUAGE only when it is
 * "C" or "POSIX") and LANGUAGE to every language the bot has ("es"), once,
 * before the threads start. dgettext("porrazo-es", id) then finds the
 * Spanish file whatever the host's locales, and the language of a line is
 * just which domain is asked: a per-thread variable, so a room line and a
 * private line in another language are written one after the other.
 * English is the msgid itself and asks nothing.
 *
 * The catalogues' folder, first found: $PORRAZO_LOCALEDIR; ../locale
 * beside the running program (the build tree: bin/ and locale/ are
 * siblings); ../share/locale beside it (an install, moved or not); the
 * install's LOCALEDIR compiled in.
 */
#include "i18n.h"

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef PZ_LOCALEDIR
#define PZ_LOCALEDIR "/usr/share/locale"
#endif

static _Thread_local pz_lang current = PZ_LANG_EN;

/* The languages, one row each in pz_lang's order: its code, its text
   domain (NULL: the msgid itself), its name as players read it, and the
   words that name it (lower case; i18n_parse compares in any case). A new
   language: its row here and in pz_lang, and its bot/po/CODE.po. */
static const struct lang_row {
    const char *code, *domain, *name, *words;
} LANGS[PZ_LANG_COUNT] = {
    [PZ_LANG_EN] = {"en", NULL, N_("English"), "english ingles inglés"},
    [PZ_LANG_ES] = {"es", "porrazo-es", N_("Spanish"), "spanish espanol español castellano"},
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char dir_found[PATH_MAX];

/* True when dir holds language l's catalogue (English needs none). */
static bool has_catalogue_of(const char *dir, int l)
{
    char path[PATH_MAX + 64];
    if (LANGS[l].domain == NULL)
        return true;
    int n =
        snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/%s.mo", dir, LANGS[l].code, LANGS[l].domain);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* True when dir holds a catalogue of a language other than English. */
static bool has_catalogue(const char *dir)
{
    for (int l = 0; l < PZ_LANG_COUNT; l++)
        if (LANGS[l].domain != NULL && has_catalogue_of(dir, l))
            return true;
    return false;
}

/* Writes the catalogues' folder into dir_found (see the top comment). */
static void find_dir(void)
{
    const char *env = getenv("PORRAZO_LOCALEDIR");
    if (env && *env) {
        snprintf(dir_found, sizeof dir_found, "%s", env);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            static const char *const rel[] = {"/../locale", "/../share/locale"};
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                char dir[PATH_MAX];
                if (snprintf(dir, sizeof dir, "%s%s", exe, rel[i]) < (int)sizeof dir &&
                    has_catalogue(dir)) {
                    snprintf(dir_found, sizeof dir_found, "%s", dir);
                    return;
                }
            }
        }
    }
    snprintf(dir_found, sizeof dir_found, "%s", PZ_LOCALEDIR);
}

static void init_once(void)
{
    find_dir();
    /* Not "C": glibc would ignore LANGUAGE. C.UTF-8 is in every glibc
       since 2.35 (and Debian's before it); else the environment's. */
    const char *lc = setlocale(LC_MESSAGES, "C.UTF-8");
    if (!lc)
        setlocale(LC_MESSAGES, "");
    char langs[64] = "";
    size_t used = 0;
    for (int l = 0; l < PZ_LANG_COUNT; l++)
        if (LANGS[l].domain != NULL) {
            int n = snprintf(langs + used, sizeof langs - used, "%s%s", used > 0 ? ":" : "",
                             LANGS[l].code);
            if (n > 0 && (size_t)n < sizeof langs - used)
                used += (size_t)n;
            bindtextdomain(LANGS[l].domain, dir_found);
            bind_textdomain_codeset(LANGS[l].domain, "UTF-8");
        }
    setenv("LANGUAGE", langs, 1);
    /* LANGUAGE is the process's: the C library's own messages (strerror,
       in the operator's log) would follow it where libc-l10n is installed.
       Its domain is bound to a folder that cannot exist, so they stay
       English. */
    bindtextdomain("libc", "/dev/null/porrazo");
}

void i18n_init(void)
{
    pthread_once(&once, init_once);
}

const char *i18n_dir(void)
{
    i18n_init();
    return dir_found;
}

pz_lang i18n_use(pz_lang lang)
{
    pz_lang before = current;
    if (lang >= 0 && lang < PZ_LANG_COUNT)
        current = lang;
    return before;
}

void i18n_restore(const pz_lang *before)
{
    (void)i18n_use(*before);
}

pz_lang i18n_lang(void)
{
    return current;
}

const char *i18n_text(const char *msgid)
{
    const char *domain = LANGS[current].domain;
    if (!domain || !msgid || !*msgid)
        return msgid;
    i18n_init();
    return dgettext(domain, msgid);
}

const char *i18n_ptext(const char *context, const char *msgid)
{
    const char *domain = LANGS[current].domain;
    char key[256];
    if (!domain || !msgid || !*msgid)
        return msgid;
    int n = snprintf(key, sizeof key, "%s\004%s", context, msgid);
    if (n < 0 || (size_t)n >= sizeof key)
        return msgid;
    i18n_init();
    const char *t = dgettext(domain, key);
    return t == key ? msgid : t; /* untranslated: gettext gives key back */
}

const char *i18n_plural(const char *one, const char *many, unsigned long n)
{
    const char *domain = LANGS[current].domain;
    if (!domain)
        return n == 1 ? one : many;
    i18n_init();
    return dngettext(domain, one, many, n);
}

bool i18n_parse(const char *word, pz_lang *out)
{
    if (!word || !*word)
        return false;
    size_t n = strlen(word);
    for (int l = 0; l < PZ_LANG_COUNT; l++) {
        if (strcasecmp(word, LANGS[l].code) == 0) {
            *out = (pz_lang)l;
            return true;
        }
        for (const char *w = LANGS[l].words; *w != '\0'; w += strspn(w, " ")) {
            size_t k = strcspn(w, " ");
            if (k == n && strncasecmp(w, word, n) == 0) {
                *out = (pz_lang)l;
                return true;
            }
            w += k;
        }
    }
    return false;
}

const char *i18n_code(pz_lang lang)
{
    return lang >= 0 && lang < PZ_LANG_COUNT ? LANGS[lang].code : "en";
}

const char *i18n_name(pz_lang lang)
{
    return LANGS[lang >= 0 && lang < PZ_LANG_COUNT ? lang : PZ_LANG_EN].name;
}

bool i18n_available(pz_lang lang)
{
    return lang >= 0 && lang < PZ_LANG_COUNT && has_catalogue_of(i18n_dir(), lang);
}

/* ASCII case ignored, other bytes exact (IRC's rule for channels). */
static bool same_room(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

pz_lang i18n_rules_lang(const i18n_rules *r, const char *network, const char *room)
{
    int lang = -1;
    for (int i = 0; r != NULL && network != NULL && i < r->n && lang < 0; i++) {
        const i18n_rule *k = &r->rule[i];
        if (strcmp(k->network, network) == 0 &&
            (k->room[0] == '\0' || (room != NULL && same_room(k->room, room))))
            lang = k->lang;
    }
    if (lang < 0 && r != NULL)
        lang = r->fallback;
    return lang >= 0 && lang < PZ_LANG_COUNT ? (pz_lang)lang : PZ_LANG_EN;
}

pz_lang i18n_reader_lang(int own, int room_lang, int network_lang, pz_lang bot)
{
    int pick = own >= 0            ? own
               : room_lang >= 0    ? room_lang
               : network_lang >= 0 ? network_lang
                                   : (int)bot;
    return pick >= 0 && pick < PZ_LANG_COUNT ? (pz_lang)pick : PZ_LANG_EN;
}
