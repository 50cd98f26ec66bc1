/*
 * wstatic.c — the files every page uses: the stylesheet (phones first,
 * red suits red, the chart's lines), the live script (external: the
 * Content-Security-Policy forbids inline code) and the icon.
 */
#include <string.h>

#include "wstatic.h"

/* Series colours (wsvg.c's classes s0..s7): each 4.4:1 or more on the
   light page and on the board's grey, 8:1 or more on the dark page. */
#define SERIES_LIGHT                                                                               \
    ".s0{--c:#0072b2}.s1{--c:#c04a00}.s2{--c:#007a55}.s3{--c:#b3407a}"                             \
    ".s4{--c:#8a6400}.s5{--c:#6a3fb5}.s6{--c:#4d4d4d}.s7{--c:#007c91}"
#define SERIES_DARK                                                                                \
    ".s0{--c:#56b4e9}.s1{--c:#ff9d4d}.s2{--c:#3fd69f}.s3{--c:#f08cc4}"                             \
    ".s4{--c:#f0e442}.s5{--c:#b9a3ff}.s6{--c:#d0d0d0}.s7{--c:#4fd8e8}"

static const char CSS[] =
    "body{font:16px/1.45 system-ui,sans-serif;margin:0;padding:0 .8em;color:#111;background:#fff;"
    "overflow-wrap:anywhere}"
    "main{max-width:48em;margin:0 auto}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.4em}h3{font-size:1.05em;display:inline}"
    "h4{font-size:.95em;margin:.6em 0 .2em}"
    ".vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);"
    "white-space:nowrap}"
    ".card{white-space:nowrap;font-weight:600}.card.red{color:#c00}"
    "nav.jump a,nav.hands a,td a{display:inline-block;min-width:2.75em;min-height:2.75em;"
    "line-height:2.75em;text-align:center}"
    "summary{cursor:pointer;padding:.5em 0}details{margin:.4em 0}"
    "#last{min-height:1.45em;font-weight:600}"
    ".chart{width:100%;height:auto;max-height:22em}"
    ".chart .axis{stroke:#444}.chart .grid{stroke:#e4e4e4}"
    ".chart .target{stroke:#767676;stroke-dasharray:6 4}"
    ".chart .hand{stroke:#ccc}.chart .line{fill:none;stroke-width:2.5;stroke:var(--c)}"
    ".chart .pt{fill:var(--c)}.key{background:var(--c)}"
    ".chart text{font-size:14px;fill:#333}"
    "@media (max-width:40em){.chart text{font-size:22px}}" SERIES_LIGHT
    "ul.legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:.2em 1.2em}"
    ".key{display:inline-block;width:.9em;height:.9em;margin-right:.35em;vertical-align:-.05em}"
    "pre.board{background:#f4f4f4;padding:.4em;white-space:pre-wrap;overflow-wrap:anywhere}"
    "table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;"
    "border-bottom:1px solid #ddd}.won{font-weight:700}"
    "ol.plays{padding-left:1.6em}.note{color:#555;font-size:.9em}"
    ".fair code{word-break:break-all}.fair .ok{color:#070}.fair .bad{color:#c00;font-weight:700}"
    "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}"
    ".card.red{color:#f66}pre.board{background:#222}.chart text{fill:#ccc}"
    ".chart .axis{stroke:#ccc}.chart .grid{stroke:#333}.chart .hand{stroke:#444}"
    ".chart .target{stroke:#999}a{color:#8cf}.note{color:#bbb}"
    ".fair .ok{color:#6d6}.fair .bad{color:#f77}td,th{border-color:#444}" SERIES_DARK "}\n";

/* Polls the page's version (each second while the page is seen, every 10
   s while it is hidden); when it changed, fetches the page and puts in
   place each part of <main> that changed (by id), keeping the reader's
   focus, scroll and folded hands, the last play in the live line
   (#last, aria-live: a screen reader says it), the language and the
   title. Stops when the page is no longer live or no longer there (404:
   set web off). */
static const char JS[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var url = document.body.getAttribute('data-live');\n"
    "  if (!url) return;\n"
    "  var timer = null;\n"
    "  function version(doc) {\n"
    "    var now = doc.getElementById('now');\n"
    "    return now ? now.getAttribute('data-version') : null;\n"
    "  }\n"
    "  function copy(node) { return document.importNode(node, true); }\n"
    "  function focusKey(el, main) {\n"
    "    if (!el || !main.contains(el) || el === main) return null;\n"
    "    if (el.id) return '#' + CSS.escape(el.id);\n"
    "    var href = el.getAttribute('href');\n"
    "    return href ? 'a[href=\"' + CSS.escape(href) + '\"]' : null;\n"
    "  }\n"
    "  function place(old, fresh) {\n"
    "    var keep = {}, prev = null;\n"
    "    Array.prototype.forEach.call(fresh.children, function (part) {\n"
    "      var here = part.id ? document.getElementById(part.id) : null;\n"
    "      keep[part.id] = true;\n"
    "      if (!here) {\n"
    "        here = copy(part);\n"
    "        if (prev) prev.after(here); else old.prepend(here);\n"
    "      } else if (part.id === 'last') {\n"
    "        if (here.textContent !== part.textContent)\n"
    "          here.replaceChildren.apply(here, Array.prototype.map.call(part.childNodes, copy));\n"
    "      } else if (here.outerHTML !== part.outerHTML) {\n"
    "        var next = copy(part);\n"
    "        here.replaceWith(next);\n"
    "        here = next;\n"
    "      }\n"
    "      prev = here;\n"
    "    });\n"
    "    Array.prototype.slice.call(old.children).forEach(function (part) {\n"
    "      if (!keep[part.id]) part.remove();\n"
    "    });\n"
    "  }\n"
    "  function swap(html) {\n"
    "    var doc = new DOMParser().parseFromString(html, 'text/html');\n"
    "    var fresh = doc.getElementById('main'), old = document.getElementById('main');\n"
    "    if (!fresh || !old) return;\n"
    "    var key = focusKey(document.activeElement, old), x = window.scrollX, y = window.scrollY;\n"
    "    var folded = {};\n"
    "    old.querySelectorAll('details[id]').forEach(function (d) { folded[d.id] = d.open; });\n"
    "    place(old, fresh);\n"
    "    old.querySelectorAll('details[id]').forEach(function (d) {\n"
    "      if (d.id in folded) d.open = folded[d.id];\n"
    "    });\n"
    "    if (key && !old.contains(document.activeElement)) {\n"
    "      var again = old.querySelector(key);\n"
    "      if (again) again.focus({preventScroll: true});\n"
    "    }\n"
    "    window.scrollTo(x, y);\n"
    "    if (doc.documentElement.lang) document.documentElement.lang = doc.documentElement.lang;\n"
    "    if (doc.title) document.title = doc.title;\n"
    "    if (!doc.body.getAttribute('data-live')) url = null;\n"
    "  }\n"
    "  function later() {\n"
    "    clearTimeout(timer);\n"
    "    if (url) timer = setTimeout(tick, document.hidden ? 10000 : 1000);\n"
    "  }\n"
    "  function tick() {\n"
    "    if (!url) return;\n"
    "    fetch(url, {cache: 'no-store'}).then(function (r) {\n"
    "      if (r.status === 404) url = null;\n"
    "      return r.ok ? r.text() : null;\n"
    "    }).then(function (v) {\n"
    "      if (v === null || v.trim() === version(document)) return null;\n"
    "      return fetch(location.pathname, {cache: 'no-store'}).then(function (r) {\n"
    "        if (r.status === 404) url = null;\n"
    "        return r.ok ? r.text() : null;\n"
    "      }).then(function (html) { if (html) swap(html); });\n"
    "    }).catch(function () {}).then(later);\n"
    "  }\n"
    "  document.addEventListener('visibilitychange', function () {\n"
    "    if (!document.hidden && url) tick();\n"
    "  });\n"
    "  later();\n"
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
