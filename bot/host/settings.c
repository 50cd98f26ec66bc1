/*
 * settings.c — a game's host-side settings (seats offered, shuffle, turn
 * deadline, first dealer, votes, reminders, absent seats, a countdown, a
 * practice table)
 * kept as "key=value" words in store_game.settings, followed by the R9
 * options in the engine's words. Not here: what the settings mean (lobby.c,
 * play.c, absent.c, timers.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hgame.h"

void host__settings_default(settings *s)
{
    memset(s, 0, sizeof *s);
    s->max_players = PZ_MAX_PLAYERS;
    s->dealer = -1;
    pz_options_default(&s->opt);
}

/* Words: "max=4 shuffle=0 deadline=0 dealer=-1 pause=0 resume=0 stop=0
   reminders=0", "away=N missed=N" when not 0, then the R9 options
   ("target=61 ..."). */
void host__settings_format(const settings *s, char *buf, size_t cap)
{
    char opts[160], absent[80] = "";
    if (pz_options_format(&s->opt, opts, sizeof opts) < 0)
        opts[0] = '\0';
    if (s->away != 0 || s->missed != 0)
        snprintf(absent, sizeof absent, "away=%u missed=%u ", s->away, s->missed);
    if (s->start_at != 0) {
        size_t n = strlen(absent);
        snprintf(absent + n, sizeof absent - n, "start=%lld ", (long long)s->start_at);
    }
    if (s->practice) {
        size_t n = strlen(absent);
        snprintf(absent + n, sizeof absent - n, "practice=1 ");
    }
    snprintf(buf, cap,
             "max=%d shuffle=%d deadline=%d dealer=%d pause=%u resume=%u stop=%u "
             "reminders=%d %s%s",
             s->max_players, s->shuffle, s->deadline, s->dealer, s->pause_votes, s->resume_votes,
             s->stop_votes, s->reminders, absent, opts);
}

/* A whole decimal number in [lo, hi]; 0 or -1. */
static int parse_int(const char *v, long lo, long hi, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* Applies one "key=value" word to t; 0 or -1. */
static int settings_word(settings *t, const char *word, size_t len)
{
    static const struct {
        const char *key;
        long lo, hi;
    } ints[] = {{"max", 2, 8},
                {"shuffle", 0, 1},
                {"deadline", 0, 1 << 30},
                {"dealer", -1, 7},
                {"pause", 0, 255},
                {"resume", 0, 255},
                {"stop", 0, 255},
                {"reminders", 0, 1000},
                {"away", 0, 255},
                {"missed", 0, 0xFFFFFFFFL},
                {"start", 0, LONG_MAX},
                {"practice", 0, 1}};
    char key[32], val[32];
    const char *eq = memchr(word, '=', len);
    long v;
    if (eq == NULL || (size_t)(eq - word) >= sizeof key || len - (size_t)(eq - word) > sizeof val)
        return -1;
    memcpy(key, word, (size_t)(eq - word));
    key[eq - word] = '\0';
    memcpy(val, eq + 1, len - (size_t)(eq - word) - 1);
    val[len - (size_t)(eq - word) - 1] = '\0';
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (strcmp(key, ints[i].key) != 0)
            continue;
        if (parse_int(val, ints[i].lo, ints[i].hi, &v) != 0)
            return -1;
        switch (i) {
        case 0:
            t->max_players = (int)v;
            break;
        case 1:
            t->shuffle = v != 0;
            break;
        case 2:
            t->deadline = (int)v;
            break;
        case 3:
            t->dealer = (int)v;
            break;
        case 4:
            t->pause_votes = (unsigned)v;
            break;
        case 5:
            t->resume_votes = (unsigned)v;
            break;
        case 6:
            t->stop_votes = (unsigned)v;
            break;
        case 7:
            t->reminders = (int)v;
            break;
        case 8:
            t->away = (unsigned)v;
            break;
        case 9:
            t->missed = (unsigned)v;
            break;
        case 10:
            t->start_at = v;
            break;
        default:
            t->practice = v != 0;
            break;
        }
        return 0;
    }
    return pz_options_set(&t->opt, key, val, NULL, 0) == 0 ? 0 : -1;
}

int host__settings_parse(settings *s, const char *text)
{
    settings t;
    host__settings_default(&t);
    for (const char *p = text; *p != '\0';) {
        size_t len = strcspn(p, " ");
        if (len > 0 && settings_word(&t, p, len) != 0)
            return -1;
        p += len;
        p += strspn(p, " ");
    }
    *s = t;
    return 0;
}
