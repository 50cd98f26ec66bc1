/*
 * render_settings.c — a room's settings as players read them: each row of
 * settings.def gives its item in the "settings" line and the sentence
 * "set" answers with, this file fills in the value (a duration in words,
 * a level's or a language's name, the options in words, the prefix).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_settings.h"
#include "i18n.h"
#include "render.h"
#include "text.h"

const char *render_level(int level)
{
    static const char *const names[] = {N_("beginner"), N_("greedy"), N_("expert"), N_("strong")};
    return _(names[level >= 0 && level < 4 ? level : 3]);
}

/* The value of s's setting id in words into out; false when it is off
   (a duration of 0, a switch off, no options): the row's shown_off. */
static bool value_of(const cmd_settings *s, int id, const char *bot_prefix, char *out, size_t cap)
{
    const cmd_setting_row *r = cmd_setting_row_of(id);
    char why[PZ_WHY_MAX];
    out[0] = '\0';
    switch (r->kind) {
    case SK_OPTIONS: {
        if (s->options[0] == '\0')
            return false;
        pz_options o;
        pz_options_default(&o);
        for (const char *p = s->options; *p != '\0'; p += strspn(p, " ")) {
            size_t len = strcspn(p, " ");
            char w[64], *eq;
            if (len > 2 && len < sizeof w) {
                memcpy(w, p + 2, len - 2);
                w[len - 2] = '\0';
                if ((eq = strchr(w, '=')) != NULL) {
                    *eq = '\0';
                    (void)pz_options_set(&o, w, eq + 1, why, sizeof why); /* kept: checked */
                }
            }
            p += len;
        }
        render_options(&o, out, cap);
        return true;
    }
    case SK_DURATION:
        if (s->num[id] <= 0)
            return false;
        text_duration(s->num[id], out, cap);
        return true;
    case SK_LEVEL:
        snprintf(out, cap, "%s", render_level(s->num[id]));
        return true;
    case SK_PREFIX:
        snprintf(out, cap, "%s", s->prefix[0] != '\0' ? s->prefix : bot_prefix);
        return s->prefix[0] != '\0';
    case SK_SWITCH:
        return s->num[id] != 0;
    case SK_LANG:
        snprintf(out, cap, "%s", _(i18n_name((pz_lang)(s->num[id] >= 0 ? s->num[id] : 0))));
        return s->own[id];
    case SK_ZONE: /* a player's kinds: no room has them */
    case SK_WINDOW:
    case SK_UNTIL:
        return false;
    }
    return false;
}

/* The row's msgid fmt in the thread's language into out, its "%s" made
   value ("%%" a '%'): the table's sentences are not printf's literals. */
static void fill(const char *fmt, const char *value, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *f = _(fmt); *f != '\0' && n + 1 < cap; f++) {
        if (f[0] == '%' && (f[1] == 's' || f[1] == '%')) {
            const char *v = f[1] == 's' ? value : "%";
            size_t k = strlen(v) < cap - 1 - n ? strlen(v) : cap - 1 - n;
            memcpy(out + n, v, k);
            n += k;
            f++;
        } else {
            out[n++] = *f;
        }
    }
    out[n] = '\0';
    text_utf8_cut(out, n);
}

void render_setting_item(const cmd_settings *s, int id, const char *bot_prefix, char *out,
                         size_t cap)
{
    const cmd_setting_row *r = cmd_setting_row_of(id);
    char v[300], item[400];
    bool on = value_of(s, id, bot_prefix, v, sizeof v);
    fill(on || r->shown_off == NULL ? r->shown : r->shown_off, v, item, sizeof item);
    /* a value the room did not choose: the configuration's */
    if (!s->own[id] && r->kind != SK_SWITCH && r->kind != SK_OPTIONS)
        fill(N_("%s (the bot's)"), item, out, cap);
    else
        snprintf(out, cap, "%s", item);
}

void render_setting_told(const cmd_settings *s, int id, const char *bot_prefix, char *out,
                         size_t cap)
{
    const cmd_setting_row *r = cmd_setting_row_of(id);
    char v[300];
    bool on = value_of(s, id, bot_prefix, v, sizeof v);
    if (r->kind == SK_OPTIONS && !on) /* "new tables: default options" */
        fill(r->shown_off, "", out, cap);
    else
        fill(on || r->told_off == NULL ? r->told : r->told_off, v, out, cap);
}
