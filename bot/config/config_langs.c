/*
 * config_langs.c — the configuration's languages as data: the keys
 * lang_CODE of an [irc NAME] or [matrix NAME] section, one for each
 * language of i18n.c's table ("lang_es = #canal, #mesa", "lang_en =
 * #porrazo": the keys this file has always taken, and a language added to
 * the table brings its own), read into the section's list of rooms; and,
 * once the file is read, every network's rooms and language made the rules
 * of i18n.h, which the host (cfg_room_lang) and the pages (cfg_lang_rules,
 * web_set_langs) read through the same i18n_rules_lang.
 */
#include <stdio.h>
#include <string.h>

#include "config_int.h"
#include "i18n.h"

const key_def *cfg__lang_key(const section_def *sec, const char *name, int *lang)
{
    pz_lang l;
    const char *code = name + 5;
    if (strncmp(name, "lang_", 5) != 0 || !i18n_parse(code, &l) || strcmp(i18n_code(l), code) != 0)
        return NULL;
    const key_def *k = cfg__find_key(sec, CFG_LANG_KEY);
    if (k != NULL)
        *lang = (int)l;
    return k;
}

int cfg__set_langs(parser *p, const key_def *k, int lang, const char *raw)
{
    cfg_lang_room *rooms = cfg__field(p, k);
    int *n = (int *)((char *)p->base + k->count_off);
    char value[LINE_MAX_BYTES + 1], key[16], what[64];
    snprintf(key, sizeof key, "lang_%s", i18n_code((pz_lang)lang));
    for (int i = 0; i < *n; i++)
        if (rooms[i].lang == lang)
            return cfg__fail(p, p->line, "%s is set twice in %s; keep one of them", key, p->title);
    int d = cfg__decode_value(p, k, raw, value, sizeof value);
    if (d != 0)
        return d == 1 ? 0 : -1;
    int entry = 0;
    for (char *next = value[0] != '\0' ? value : NULL; next != NULL; entry++) {
        char *comma = strchr(next, ',');
        if (comma != NULL)
            *comma++ = '\0';
        char *room = next;
        next = comma;
        while (*room == ' ' || *room == '\t')
            room++;
        for (size_t len = strlen(room); len > 0 && (room[len - 1] == ' ' || room[len - 1] == '\t');)
            room[--len] = '\0';
        if (*room == '\0')
            return cfg__fail(p, p->line, "%s has an empty entry; remove the extra comma", key);
        if (*n == CFG_LANG_ROOMS)
            return cfg__fail(p, p->line, "%s gives more than %d rooms a language; keep at most %d",
                             p->title, CFG_LANG_ROOMS, CFG_LANG_ROOMS);
        snprintf(what, sizeof what, "entry %d of %s", entry + 1, key);
        if (cfg__store_text(p, k, what, room, rooms[*n].room) != 0)
            return -1;
        for (int i = 0; i < *n; i++)
            if (strcmp(rooms[i].room, room) == 0)
                return cfg__fail(p, p->line, "%s is in lang_%s too; give a room one language", what,
                                 i18n_code((pz_lang)rooms[i].lang));
        rooms[(*n)++].lang = lang;
    }
    return 0;
}

/* Appends one network's rules to c's: its rooms, then its own language. */
static void add_network(cfg *c, const char *network, const char *language,
                        const cfg_lang_room *rooms, int nrooms)
{
    pz_lang l;
    for (int i = 0; i < nrooms && c->nlang_rules < CFG_LANG_RULES; i++) {
        i18n_rule *r = &c->lang_rules[c->nlang_rules++];
        snprintf(r->network, sizeof r->network, "%s", network);
        snprintf(r->room, sizeof r->room, "%s", rooms[i].room);
        r->lang = rooms[i].lang;
    }
    if (language[0] != '\0' && i18n_parse(language, &l) && c->nlang_rules < CFG_LANG_RULES) {
        i18n_rule *r = &c->lang_rules[c->nlang_rules++];
        snprintf(r->network, sizeof r->network, "%s", network);
        r->room[0] = '\0';
        r->lang = (int)l;
    }
}

void cfg_make_lang_rules(cfg *c)
{
    c->nlang_rules = 0;
    for (int i = 0; i < c->nirc; i++)
        add_network(c, c->irc[i].name, c->irc[i].language, c->irc[i].lang_rooms,
                    c->irc[i].nlang_rooms);
    for (int i = 0; i < c->nmatrix; i++)
        add_network(c, c->matrix[i].name, c->matrix[i].language, c->matrix[i].lang_rooms,
                    c->matrix[i].nlang_rooms);
}

i18n_rules cfg_lang_rules(const cfg *c)
{
    pz_lang l;
    i18n_rules r = {.fallback = i18n_parse(c->bot.language, &l) ? (int)l : PZ_LANG_EN,
                    .n = c->nlang_rules,
                    .rule = c->lang_rules};
    return r;
}

int cfg_room_lang(const cfg *c, const char *network, const char *room)
{
    i18n_rules r = cfg_lang_rules(c);
    return (int)i18n_rules_lang(&r, network, room);
}
