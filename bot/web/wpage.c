/*
 * wpage.c — the frame of every page and text with cards (wpage.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "render.h"
#include "wpage.h"

void wp_head(wbuf *b, const char *title, const char *live)
{
    wb_raw(b, "<!doctype html>\n<html lang=\"");
    wb_raw(b, i18n_code(i18n_lang()));
    wb_raw(b, "\"><head><meta charset=\"utf-8\">"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
              "<meta name=\"referrer\" content=\"no-referrer\">"
              "<link rel=\"stylesheet\" href=\"/static/web.css\">"
              "<link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">"
              "<script src=\"/static/live.js\" defer></script><title>");
    wb_marked(b, title, false, WB_FSI, WB_PDI);
    wb_raw(b, "</title></head><body");
    if (live != NULL && live[0] != '\0') {
        wb_raw(b, " data-live=\"");
        wb_html(b, live);
        wb_raw(b, "\"");
    }
    wb_raw(b, "><main id=\"main\">");
}

void wp_foot(wbuf *b)
{
    wb_raw(b, "</main></body></html>\n");
}

const char *wp_status_word(store_status s)
{
    static const char *const WORD[] = {N_("open for players"), N_("under way"), N_("paused"),
                                       N_("finished"), N_("stopped")};
    return _(WORD[s >= STORE_LOBBY && s <= STORE_STOPPED ? s : STORE_STOPPED]);
}

void wp_date(int64_t t, char *buf, size_t cap)
{
    static const char *const MONTH[12] = {
        NC_("month", "Jan"), NC_("month", "Feb"), NC_("month", "Mar"), NC_("month", "Apr"),
        NC_("month", "May"), NC_("month", "Jun"), NC_("month", "Jul"), NC_("month", "Aug"),
        NC_("month", "Sep"), NC_("month", "Oct"), NC_("month", "Nov"), NC_("month", "Dec")};
    time_t tt = (time_t)t;
    struct tm tm;
    if (gmtime_r(&tt, &tm) == NULL || tm.tm_mon < 0 || tm.tm_mon > 11) {
        snprintf(buf, cap, "?");
        return;
    }
    /* TRANSLATORS: a game's date on its room's page: the day, the month
       abbreviated (as in the chat's dates) and the year, "28 Nov 2026" */
    snprintf(buf, cap, C_("date", "%d %s %d"), tm.tm_mday, C_("month", MONTH[tm.tm_mon]),
             tm.tm_year + 1900);
}

static const char *const RANK_NAME[PZ_RANKS] = {
    N_("ace"),   N_("two"),  N_("three"), N_("four"), N_("five"),  N_("six"), N_("seven"),
    N_("eight"), N_("nine"), N_("ten"),   N_("jack"), N_("queen"), N_("king")};

void wp_card_name(pz_card c, char *buf, size_t cap)
{
    if (c >= PZ_CARDS) {
        snprintf(buf, cap, "?");
        return;
    }
    /* the card's rank and suit, as a screen reader says it */
    const char *rank = _(RANK_NAME[pz_card_rank(c)]);
    switch (pz_card_suit(c)) {
    case 0:
        snprintf(buf, cap, _("%s of clubs"), rank);
        break;
    case 1:
        snprintf(buf, cap, _("%s of diamonds"), rank);
        break;
    case 2:
        snprintf(buf, cap, _("%s of hearts"), rank);
        break;
    default:
        snprintf(buf, cap, _("%s of spades"), rank);
        break;
    }
}

void wp_card(wbuf *b, pz_card c)
{
    char name[64], text[8];
    int suit = pz_card_suit(c);
    wp_card_name(c, name, sizeof name);
    render_card(c, text);
    wb_printf(b, "<span class=\"card%s\" role=\"img\" aria-label=\"",
              suit == 1 || suit == 2 ? " red" : "");
    wb_html(b, name);
    wb_raw(b, "\">");
    wb_html(b, text);
    wb_raw(b, "</span>");
}

/* The card written at p ("7♥", "10♣"), its length in *len; PZ_NO_CARD. */
static pz_card card_at(const char *p, size_t *len)
{
    static const char *const SUIT[PZ_SUITS] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5",
                                               "\xE2\x99\xA0"};
    static const char RANKS[] = "A23456789?JQK";
    int rank = -1;
    size_t n = 0;
    if (p[0] == '1' && p[1] == '0')
        rank = 9, n = 2;
    else if (p[0] != '\0' && p[0] != '?' && strchr(RANKS, p[0]) != NULL)
        rank = (int)(strchr(RANKS, p[0]) - RANKS), n = 1;
    if (rank < 0)
        return PZ_NO_CARD;
    for (int s = 0; s < PZ_SUITS; s++)
        if (strncmp(p + n, SUIT[s], 3) == 0) {
            *len = n + 3;
            return pz_card_make(rank, s);
        }
    return PZ_NO_CARD;
}

/* The length of a score board's bar at p ("[███░░]"), 0 when none. */
static size_t bar_at(const char *p)
{
    static const char FULL[] = "\xE2\x96\x88", EMPTY[] = "\xE2\x96\x91";
    size_t n = 1;
    if (p[0] != '[')
        return 0;
    while (strncmp(p + n, FULL, 3) == 0 || strncmp(p + n, EMPTY, 3) == 0)
        n += 3;
    return n > 1 && p[n] == ']' ? n + 1 : 0;
}

/* Appends plain[from, to) escaped, its marks as <bdi>. */
static void span(wbuf *b, const char *plain, size_t from, size_t to)
{
    char chunk[1024];
    while (from < to) {
        size_t n = to - from < sizeof chunk - 1 ? to - from : sizeof chunk - 1;
        while (n > 1 && from + n < to && ((unsigned char)plain[from + n] & 0xC0) == 0x80)
            n--; /* a chunk ends at a character's end */
        memcpy(chunk, plain + from, n);
        chunk[n] = '\0';
        wb_marked(b, chunk, false, "<bdi>", "</bdi>");
        from += n;
    }
}

void wp_text(wbuf *b, const char *plain)
{
    size_t done = 0, i = 0;
    bool open = false; /* a name cut short at the line's end */
    while (plain[i] != '\0') {
        if (plain[i] == WB_OPEN) { /* a name: never a card, whatever it says */
            const char *close = strchr(plain + i, WB_CLOSE);
            open = close == NULL;
            i = close != NULL ? (size_t)(close - plain) + 1 : strlen(plain);
            continue;
        }
        size_t len = 0, bar = bar_at(plain + i);
        bool start = i == 0 || plain[i - 1] == ' ' || plain[i - 1] == '(' || plain[i - 1] == ',' ||
                     plain[i - 1] == WB_CLOSE;
        pz_card c = start && bar == 0 ? card_at(plain + i, &len) : PZ_NO_CARD;
        if (c == PZ_NO_CARD && bar == 0) {
            i++;
            continue;
        }
        span(b, plain, done, i);
        if (bar > 0) { /* the number beside it says it: not read out glyph by glyph */
            wb_raw(b, "<span class=\"bar\" aria-hidden=\"true\">");
            span(b, plain, i, i + bar);
            wb_raw(b, "</span>");
            len = bar;
        } else {
            wp_card(b, c);
        }
        i += len;
        done = i;
    }
    span(b, plain, done, i);
    if (open)
        wb_raw(b, "</bdi>");
}
