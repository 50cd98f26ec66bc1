/*
 * tz.c — players' clocks (see tz.h).
 */
#include "tz.h"

#include "i18n.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "text.h"

#define TZ_DEFAULT_DIR "/usr/share/zoneinfo"
#define TZ_ENV_MAX 128
#define DAY_MIN 1440

static const char *zone_dir(void)
{
    const char *d = getenv("TZDIR");
    return d != NULL && d[0] != '\0' ? d : TZ_DEFAULT_DIR;
}

/* Whether name could be a zone's file name: letters, digits, _ + - and
   single slashes, no dot, not absolute. */
static bool plausible(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= TZ_NAME_MAX || name[0] == '/' || name[n - 1] == '/')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (!(isalnum(ch) || ch == '_' || ch == '+' || ch == '-' || ch == '/') ||
            (ch == '/' && name[i + 1] == '/'))
            return false;
    }
    return true;
}

/* Whether dir/name is a TZif file. */
static bool is_zone_file(const char *name)
{
    char path[512], magic[4];
    struct stat st;
    if (snprintf(path, sizeof path, "%s/%s", zone_dir(), name) >= (int)sizeof path ||
        stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    bool ok = fread(magic, 1, 4, f) == 4 && memcmp(magic, "TZif", 4) == 0;
    fclose(f);
    return ok;
}

/* The edit distance of a and b, case-insensitive, capped at 99. */
static int distance(const char *a, const char *b)
{
    size_t d = text_distance(a, strlen(a), b, strlen(b));
    return d > 99 ? 99 : (int)d;
}

/* The zone names listed in zone1970.tab (third column), one call each. */
static void each_listed(void (*fn)(void *arg, const char *zone), void *arg)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/zone1970.tab", zone_dir());
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#')
            continue;
        char *col = strchr(line, '\t');
        col = col != NULL ? strchr(col + 1, '\t') : NULL;
        if (col == NULL)
            continue;
        col++;
        col[strcspn(col, "\t\r\n")] = '\0';
        fn(arg, col);
    }
    fclose(f);
}

typedef struct nearest {
    const char *want;
    char exact[TZ_NAME_MAX];
    char best[2][TZ_NAME_MAX];
    int dist[2];
} nearest;

static void consider(void *arg, const char *zone)
{
    nearest *n = arg;
    if (strlen(zone) >= TZ_NAME_MAX)
        return;
    if (strcasecmp(zone, n->want) == 0)
        snprintf(n->exact, sizeof n->exact, "%s", zone);
    int d = distance(n->want, zone);
    for (int i = 0; i < 2; i++)
        if (d < n->dist[i]) {
            if (i == 0) {
                n->dist[1] = n->dist[0];
                memcpy(n->best[1], n->best[0], sizeof n->best[0]);
            }
            n->dist[i] = d;
            snprintf(n->best[i], sizeof n->best[i], "%s", zone);
            break;
        }
}

int tz_check(const char *name, char *canon, size_t canon_cap, char *hint, size_t hint_cap)
{
    hint[0] = '\0';
    if (plausible(name) && is_zone_file(name)) {
        snprintf(canon, canon_cap, "%s", name);
        return 0;
    }
    nearest n = {.want = name, .dist = {99, 99}};
    each_listed(consider, &n);
    if (n.exact[0] != '\0' && is_zone_file(n.exact)) {
        snprintf(canon, canon_cap, "%s", n.exact);
        return 0;
    }
    int near = (int)strlen(name) / 3 + 2;
    if (n.dist[0] <= near && n.dist[1] <= near)
        snprintf(hint, hint_cap, _("%s or %s"), n.best[0], n.best[1]);
    else if (n.dist[0] <= near)
        snprintf(hint, hint_cap, "%s", n.best[0]);
    return -1;
}

/* localtime_r of t in zone: TZ is set for the call and put back after. */
static void local(int64_t t, const char *zone, struct tm *out)
{
    char saved[TZ_ENV_MAX], want[TZ_ENV_MAX];
    const char *old = getenv("TZ");
    bool had = old != NULL && strlen(old) < sizeof saved;
    if (had)
        snprintf(saved, sizeof saved, "%s", old);
    snprintf(want, sizeof want, zone != NULL && zone[0] != '\0' ? ":%s" : "UTC0", zone);
    setenv("TZ", want, 1);
    tzset();
    time_t tt = (time_t)t;
    if (localtime_r(&tt, out) == NULL)
        memset(out, 0, sizeof *out);
    if (had)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    tzset();
}

void tz_format(int64_t t, const char *zone, bool with_date, char *out, size_t cap)
{
    /* In the thread's language (i18n.h), not the C library's locale:
       "Sat 28 Nov 05:44 CET", "sáb 28 nov 05:44 CET". */
    /* TRANSLATORS: weekdays and months abbreviated in dates ("sáb 28 nov 05:44") */
    static const char *const DAY[7] = {
        NC_("weekday", "Sun"), NC_("weekday", "Mon"), NC_("weekday", "Tue"), NC_("weekday", "Wed"),
        NC_("weekday", "Thu"), NC_("weekday", "Fri"), NC_("weekday", "Sat")};
    static const char *const MONTH[12] = {
        NC_("month", "Jan"), NC_("month", "Feb"), NC_("month", "Mar"), NC_("month", "Apr"),
        NC_("month", "May"), NC_("month", "Jun"), NC_("month", "Jul"), NC_("month", "Aug"),
        NC_("month", "Sep"), NC_("month", "Oct"), NC_("month", "Nov"), NC_("month", "Dec")};
    struct tm tm;
    char zname[16];
    local(t, zone, &tm);
    if (strftime(zname, sizeof zname, "%Z", &tm) == 0)
        zname[0] = '\0';
    const char *day = tm.tm_wday >= 0 && tm.tm_wday < 7 ? C_("weekday", DAY[tm.tm_wday]) : "?";
    const char *mon = tm.tm_mon >= 0 && tm.tm_mon < 12 ? C_("month", MONTH[tm.tm_mon]) : "?";
    int n = with_date ? snprintf(out, cap, "%s %02d %s %02d:%02d %s", day, tm.tm_mday, mon,
                                 tm.tm_hour, tm.tm_min, zname)
                      : snprintf(out, cap, "%s %02d:%02d %s", day, tm.tm_hour, tm.tm_min, zname);
    if ((n < 0 || (size_t)n >= cap) && cap > 0)
        out[0] = '\0';
}

int tz_quiet_parse(const char *s, tz_quiet *q)
{
    int mins[2];
    const char *p = s;
    for (int k = 0; k < 2; k++) {
        char *end;
        long h = strtol(p, &end, 10), m = 0;
        if (end == p || h < 0 || h > 24)
            return -1;
        p = end;
        if (*p == ':' || *p == 'h' || *p == '.') {
            p++;
            if (isdigit((unsigned char)*p)) {
                m = strtol(p, &end, 10);
                if (end == p || m < 0 || m > 59)
                    return -1;
                p = end;
            }
        }
        mins[k] = (int)((h * 60 + m) % DAY_MIN);
        if (k == 0 && *p++ != '-')
            return -1;
    }
    if (*p != '\0' || mins[0] == mins[1])
        return -1;
    q->from = mins[0];
    q->to = mins[1];
    return 0;
}

void tz_quiet_format(const tz_quiet *q, char *out, size_t cap)
{
    snprintf(out, cap, "%02d:%02d-%02d:%02d", q->from / 60, q->from % 60, q->to / 60, q->to % 60);
}

/* Minutes after local midnight of tm. */
static int minute_of(const struct tm *tm)
{
    return tm->tm_hour * 60 + tm->tm_min;
}

static bool in_window(int m, const tz_quiet *q)
{
    if (q->from == q->to)
        return false;
    return q->from < q->to ? m >= q->from && m < q->to : m >= q->from || m < q->to;
}

bool tz_in_quiet(int64_t t, const char *zone, const tz_quiet *q)
{
    struct tm tm;
    local(t, zone, &tm);
    return in_window(minute_of(&tm), q);
}

/* The first time after t (t in or out) whose local minute is `minute`. */
static int64_t next_minute(int64_t t, const char *zone, int minute)
{
    struct tm tm;
    local(t, zone, &tm);
    int delta = (minute - minute_of(&tm) + DAY_MIN) % DAY_MIN;
    if (delta == 0)
        delta = DAY_MIN;
    int64_t at = t + (int64_t)delta * 60 - tm.tm_sec;
    for (int i = 0; i < 180; i++) { /* a daylight-saving change moved it: nudge */
        local(at, zone, &tm);
        if (minute_of(&tm) == minute)
            break;
        at += 60;
    }
    return at;
}

int64_t tz_quiet_end(int64_t t, const char *zone, const tz_quiet *q)
{
    if (!tz_in_quiet(t, zone, q))
        return t;
    return next_minute(t, zone, q->to);
}

int64_t tz_paused_deadline(int64_t start, int64_t secs, const char *zone, const tz_quiet *q)
{
    if (q == NULL || q->from == q->to)
        return start + secs;
    int64_t t = start, left = secs;
    for (int i = 0; i < 2000 && left > 0; i++) {
        if (tz_in_quiet(t, zone, q)) {
            t = tz_quiet_end(t, zone, q);
            continue;
        }
        int64_t quiet = next_minute(t, zone, q->from), step = quiet - t;
        if (step > left)
            step = left;
        t += step;
        left -= step;
    }
    return t + left;
}
