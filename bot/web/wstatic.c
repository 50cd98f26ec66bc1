/*
 * wstatic.c — the files every page uses: the stylesheet (phones first,
 * red suits red, the chart's lines), the live script (external: the
 * Content-Security-Policy forbids inline code) and the icon.
 */
#include <string.h>

#include "wstatic.h"

static const char CSS[] =
    "body{font:16px/1.45 system-ui,sans-serif;margin:0;padding:0 .8em;color:#111;background:#fff}"
    "main{max-width:48em;margin:0 auto}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.4em}h3{font-size:1.05em}"
    "h4{font-size:.95em;margin:.6em 0 .2em}"
    ".card{white-space:nowrap;font-weight:600}.card.red{color:#c00}"
    ".chart{width:100%;height:auto;max-height:22em}"
    ".chart .axis{stroke:#444}.chart .target{stroke:#888;stroke-dasharray:6 4}"
    ".chart .hand{stroke:#ddd}.chart .line{fill:none;stroke-width:2}"
    ".chart .lbl,.chart .legend{font-size:11px;fill:#333}"
    "pre.board{background:#f4f4f4;padding:.4em;overflow-x:auto}"
    "table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;"
    "border-bottom:1px solid #ddd}.won{font-weight:700}"
    "ol.plays{padding-left:1.6em}.note{color:#555;font-size:.9em}"
    ".fair code{word-break:break-all}.fair .ok{color:#070}.fair .bad{color:#c00;font-weight:700}"
    "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}"
    ".card.red{color:#f66}pre.board{background:#222}.chart .lbl,.chart .legend{fill:#ccc}"
    ".chart .axis{stroke:#ccc}a{color:#8cf}}\n";

/* Polls the page's version each second; when it changed, fetches the page
   and swaps its <main>, its language and title (the room may have changed
   its language). Stops when the page is no longer live. */
static const char JS[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var url = document.body.getAttribute('data-live');\n"
    "  if (!url) return;\n"
    "  function version(doc) {\n"
    "    var now = doc.getElementById('now');\n"
    "    return now ? now.getAttribute('data-version') : null;\n"
    "  }\n"
    "  function swap(html) {\n"
    "    var doc = new DOMParser().parseFromString(html, 'text/html');\n"
    "    var fresh = doc.getElementById('main'), old = document.getElementById('main');\n"
    "    if (fresh && old) old.replaceWith(document.importNode(fresh, true));\n"
    "    if (doc.documentElement.lang) document.documentElement.lang = doc.documentElement.lang;\n"
    "    if (doc.title) document.title = doc.title;\n"
    "    if (!doc.body.getAttribute('data-live')) url = null;\n"
    "  }\n"
    "  function tick() {\n"
    "    if (!url) return;\n"
    "    fetch(url, {cache: 'no-store'}).then(function (r) {\n"
    "      return r.ok ? r.text() : null;\n"
    "    }).then(function (v) {\n"
    "      if (v === null || v.trim() === version(document)) return null;\n"
    "      return fetch(location.pathname, {cache: 'no-store'}).then(function (r) {\n"
    "        return r.ok ? r.text() : null;\n"
    "      }).then(function (html) { if (html) swap(html); });\n"
    "    }).catch(function () {}).then(function () {\n"
    "      if (url) setTimeout(tick, 1000);\n"
    "    });\n"
    "  }\n"
    "  setTimeout(tick, 1000);\n"
    "})();\n";

static const char ICON[] =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">"
    "<rect x=\"2\" y=\"1\" width=\"12\" height=\"14\" rx=\"2\" fill=\"#fff\" "
    "stroke=\"#333\"/><text x=\"8\" y=\"12\" font-size=\"10\" "
    "text-anchor=\"middle\" fill=\"#c00\">&#9829;</text></svg>\n";

const char *wstatic_get(const char *path, size_t *len, const char **type)
{
    static const struct {
        const char *path, *type, *body;
        size_t len;
    } FILES[] = {
        {"/static/web.css", "text/css; charset=utf-8", CSS, sizeof CSS - 1},
        {"/static/live.js", "text/javascript; charset=utf-8", JS, sizeof JS - 1},
        {"/static/icon.svg", "image/svg+xml", ICON, sizeof ICON - 1},
    };
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        if (strcmp(path, FILES[i].path) == 0) {
            *len = FILES[i].len;
            *type = FILES[i].type;
            return FILES[i].body;
        }
    return NULL;
}
