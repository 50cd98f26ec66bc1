/*
 * wbuf.h — the web layer's growing text buffer and its escapes: HTML text
 * and attributes, JSON strings, and URL path parts. Everything a page
 * shows that came from a person (nicks, room names) goes through
 * wb_html or wb_json; C0 controls, DEL, invalid UTF-8 and the bidi
 * controls (U+200E/F, U+202A–E, U+2066–9) become U+FFFD, so no name can
 * reorder the text around it. Prefix wb_. Not here: what a page says.
 */
#ifndef PZ_WBUF_H
#define PZ_WBUF_H

#ifndef PZ_INSIDE_WEB
#error "wbuf.h is the web layer's inside: others include web.h (ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stddef.h>

typedef struct wbuf {
    char *s;
    size_t len, cap;
    bool failed; /* out of memory: s stays NUL-terminated, nothing more is added */
} wbuf;

/* Appends formatted text as it is (no escaping). */
void wb_printf(wbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s as it is. */
void wb_raw(wbuf *b, const char *s);
/* Appends s as HTML text or a quoted attribute's value (& < > " ' escaped). */
void wb_html(wbuf *b, const char *s);
/* Appends s as the inside of a JSON string ("\"", "\\", controls, < > &). */
void wb_json(wbuf *b, const char *s);
/*
 * A person's name inside text the pages build (a chat line, a title) is
 * marked: WB_OPEN name WB_CLOSE (wb_mark). wb_marked writes such text
 * escaped as wb_html or wb_json would, each mark as the caller says: HTML
 * text "<bdi>" and "</bdi>", an attribute or a <title> U+2068 and U+2069
 * (first-strong isolate), JSON nothing. A right-to-left name so isolated
 * cannot reorder the words and cards around it. wb_html and wb_json treat
 * the marks as any control (U+FFFD): only wb_mark's output carries them.
 */
#define WB_OPEN '\x0e'
#define WB_CLOSE '\x0f'
#define WB_FSI "\xE2\x81\xA8" /* U+2068 */
#define WB_PDI "\xE2\x81\xA9" /* U+2069 */
/* s marked as a name into out (cap bytes incl. NUL; any marks inside s
   become U+001A, shown as U+FFFD); cut short at a character's end if it
   does not fit. */
void wb_mark(const char *s, char *out, size_t cap);
/* Appends marked text s: HTML-escaped (json false) or JSON-escaped, its
   marks as open and close. */
void wb_marked(wbuf *b, const char *s, bool json, const char *open, const char *close);

/* Appends s's bytes as lowercase hex (a player id in a URL path). */
void wb_hex(wbuf *b, const char *s);
/* Frees b->s and empties b. */
void wb_free(wbuf *b);

/* Decodes hex text into out (cap bytes incl. NUL): 0, or -1 when it is not
   even-length lowercase hex or does not fit. */
int wb_unhex(const char *hex, size_t len, char *out, size_t cap);

#endif /* PZ_WBUF_H */
