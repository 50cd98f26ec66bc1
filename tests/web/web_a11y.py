#!/usr/bin/env python3
"""web_a11y.py -- the game pages as a wider audience meets them, in Debian's
chromium headless (python3-selenium, chromium-driver), while porrazo-bot
--console serves them and scripted players (tests/bot/console_game.py) play.

  web_a11y.py BOT AXE_JS pages OUTDIR
      Players named right to left (Hebrew), with combining marks and very
      long, and "K♥". The game's page live and finished, the room's page and
      a player's page, each at desktop (1280 px) and phone (390 px) widths,
      light and dark: axe-core (AXE_JS, npm, pinned in tests/web) finds no
      violation of WCAG 2.1 A and AA; no page scrolls sideways; every text
      of the chart is drawn 11 px or more; every name in the text is in a
      <bdi> and no nick is read as a card. A screenshot of each in OUTDIR.
  web_a11y.py BOT AXE_JS live OUTDIR
      The live page updated in place: a reader tabs to a link and to the
      current hand's fold, a move is made: focus and scroll are where they
      were, the aria-live line says the move (the room's own line); after
      set web off the page stops polling.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_e2e as we  # noqa: E402

check = we.check
RTL = "\u05e9\u05dc\u05d5\u05dd"  # shalom
KING = "K\u2665"
LONG = "Zoe\u0301\u0308\u0323" + "W" * 23  # combining marks, then no break: 32 bytes, the console's most
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def driver_for():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
              "--disable-dev-shm-usage", "--hide-scrollbars"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def view(driver, width, dark):
    """The viewport's width (a phone's is mobile) and colour scheme."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900 if width > 600 else 844, "deviceScaleFactor": 1,
        "mobile": width <= 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def axe(driver, source):
    """axe-core's violations of WCAG 2.1 A/AA on the page now."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(source)
    driver.set_script_timeout(60)
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then(function (r) {"
        "  done(r.violations.map(function (v) { return v.id + ' (' + v.impact + '): ' +"
        "    v.nodes.slice(0, 3).map(function (n) { return n.target.join(' ') + ' ' +"
        "    n.failureSummary; }).join(' | '); }));"
        "}, function (e) { done(['axe failed: ' + e]); });", AXE_TAGS)


# Text nodes naming a player outside a <bdi> (the players' list, the
# record, the status, the score, the legend, the titles), the sideways
# scroll and the smallest chart text in CSS pixels.
PROBE = """
var names = arguments[0], loose = [];
var walk = document.createTreeWalker(document.getElementById('main'), NodeFilter.SHOW_TEXT);
for (var n = walk.nextNode(); n; n = walk.nextNode()) {
  if (n.parentElement.closest('svg, .card')) continue; // a card K♥ is no nick
  names.forEach(function (nick) {
    if (n.data.indexOf(nick) >= 0 && !n.parentElement.closest('bdi'))
      loose.push(nick + ' in <' + n.parentElement.tagName + '> "' + n.data + '"');
  });
}
var small = null;
document.querySelectorAll('svg.chart text').forEach(function (t) {
  var px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
  if (small === null || px < small) small = px;
});
var kings = Array.prototype.filter.call(document.querySelectorAll('bdi .card, .card bdi'),
                                        function (e) { return true; }).length;
return {loose: loose, scroll: document.documentElement.scrollWidth - window.innerWidth,
        small: small, cards_in_names: kings};
"""


def audit(driver, source, name, outdir, names):
    """Every width and scheme of the page now: (violations, figures)."""
    seen = []
    for width in (1280, 390):
        for dark in (False, True):
            view(driver, width, dark)
            time.sleep(0.2)
            what = "%s at %d px, %s" % (name, width, "dark" if dark else "light")
            bad = axe(driver, source)
            check(not bad, "%s: axe-core finds %s" % (what, bad))
            p = driver.execute_script(PROBE, names)
            check(not p["loose"], "%s: names outside <bdi>: %s" % (what, p["loose"][:5]))
            check(p["scroll"] <= 0, "%s: scrolls sideways by %d px" % (what, p["scroll"]))
            check(p["small"] is None or p["small"] >= 11,
                  "%s: chart text drawn at %.1f px" % (what, p["small"] or 0))
            check(p["cards_in_names"] == 0, "%s: a name holds a card" % what)
            driver.save_screenshot(os.path.join(outdir, "a11y_%s_%d_%s.png" % (
                name, width, "dark" if dark else "light")))
            seen.append(p["small"])
    return [s for s in seen if s is not None]


def play(g, step, moves):
    for _ in range(moves):
        line = g.table.next_line(step)
        check(line is not None, "nobody is told to act")
        g.table.need_capture = False
        g.send(line)
        step += 1
    return step


def move(g, step):
    """One move the room reads (a play that must say capture or place asks
    first, privately): the room's lines, the next step and the last line sent."""
    for _ in range(3):
        line = g.table.next_line(step)
        check(line is not None, "nobody is told to act")
        said = g.send(line)
        step += 1
        room = [l for l in said if l.startswith("#console ")]
        if room:
            g.table.need_capture = False
            return room, step, line
    raise AssertionError("no move the room read after %s" % line)


# The page's version, read in one script: the live script may replace
# #now between a lookup and a read of its attribute (a stale element).
VERSION = "var n = document.getElementById('now'); return n && n.getAttribute('data-version');"


def page_version(driver):
    return driver.execute_script(VERSION)


def caught_up(driver, g, before, line):
    """Waits (5 s at most) for the page to show the server's version after
    the move `line` (its /v, read once the room has read the move): the
    version that holds the move, not merely another one. The seconds it
    took; on failure what it waited for and what the page showed."""
    status, want = we.fetch(g.game_url + "/v")
    want = want.strip()
    check(status == 200 and want != before,
          "after %s the server's version is %r (%d), the page's %r before it" %
          (line, want, status, before))
    t0 = time.monotonic()
    seen = [before]
    while True:
        now = page_version(driver)
        if now != seen[-1]:
            seen.append(now)
        if now == want:
            return time.monotonic() - t0
        check(time.monotonic() - t0 < 5, "the live page did not reach version %r within 5 s "
              "of %s: it showed %s" % (want, line, " then ".join(map(repr, seen))))
        time.sleep(0.05)


def pages(bot_exe, axe_js, outdir):
    check(os.path.exists(axe_js), "%s is missing: npm ci in tests/web (tests/check does)" % axe_js)
    with open(axe_js) as f:
        source = f.read()
    players = ["ann", RTL, KING, LONG]
    driver = driver_for()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            g = we.Game(bot_exe, tmp, players, seed=3301)
            step = play(g, 0, 6)
            driver.get(g.game_url)
            check(driver.execute_script("return document.title").count("\u2068") == 1,
                  "the title's room name is not isolated")
            small = audit(driver, source, "live", outdir, players)
            check(driver.execute_script(
                "return document.querySelectorAll('[aria-label=\"king of hearts\"] bdi,"
                " bdi [aria-label]').length") == 0, "a nick K\u2665 was drawn as a card")
            while not g.table.over:
                step = play(g, step, 1)
            driver.get(g.game_url)
            small += audit(driver, source, "finished", outdir, players)
            hands = driver.execute_script("return document.querySelectorAll('#record details')"
                                          ".length")
            folded = driver.execute_script("return document.querySelectorAll("
                                           "'#record details:not([open])').length")
            check(hands > 1 and folded == hands - 1, "%d hands, %d folded" % (hands, folded))
            driver.get(g.room_url)
            audit(driver, source, "room", outdir, players)
            player = driver.execute_script(
                "return document.querySelector('table.standings a').href")
            driver.get(player)
            audit(driver, source, "player", outdir, players)
            errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
            check(not errors, "browser console errors: %s" % errors)
            rc, _, err = g.bot.close()
            check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
            print("a11y pages: live, finished, room and player pages at 1280 and 390 px, light "
                  "and dark: 0 axe-core violations (WCAG 2.1 AA), no sideways scroll, chart "
                  "text %.1f px at least, every name in <bdi>; %d hands, %d folded; screenshots "
                  "in %s" % (min(small), hands, folded, outdir))
    finally:
        driver.quit()


def live(bot_exe, axe_js, outdir):
    from selenium.webdriver.common.keys import Keys
    players = ["ann", RTL]
    driver = driver_for()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            g = we.Game(bot_exe, tmp, players, seed=3302)
            step = play(g, 0, 2)
            view(driver, 390, False)
            driver.get(g.game_url)
            body = driver.find_element("tag name", "body")
            kept, waits = 0, []
            for target in ("a[href$='.json']", "summary"):
                # a reader tabs to it, scrolls a little, and a move is made
                for _ in range(60):
                    body.send_keys(Keys.TAB) if driver.switch_to.active_element == body else \
                        driver.switch_to.active_element.send_keys(Keys.TAB)
                    if driver.execute_script("return document.activeElement.matches(arguments[0])",
                                             target):
                        break
                focused = driver.execute_script("var a = document.activeElement;"
                                                "return a.id || a.getAttribute('href')")
                check(driver.execute_script("return document.activeElement.matches(arguments[0])",
                                            target), "tabbing never reached %s" % target)
                driver.execute_script("window.scrollTo(0, 120)")
                y = driver.execute_script("return window.scrollY")
                before = page_version(driver)
                said, step, line = move(g, step)
                waits.append(caught_up(driver, g, before, line))
                now = driver.execute_script("var a = document.activeElement;"
                                            "return a.id || a.getAttribute('href')")
                check(now == focused, "focus on %r before the move, on %r after" % (focused, now))
                y_now = driver.execute_script("return window.scrollY")
                check(y_now == y, "the page scrolled from %d to %d px on the update after %s" %
                      (y, y_now, line))
                polite, announced = driver.execute_script(
                    "var l = document.getElementById('last');"
                    "return l ? [l.getAttribute('aria-live'), l.textContent] : [null, null];")
                check(polite == "polite", "the live line's aria-live is %r" % polite)
                check(any(announced.split(": ", 1)[-1][:12] in l for l in said),
                      "the live line says %r, the room read %s" % (announced, said))
                kept += 1
            driver.save_screenshot(os.path.join(outdir, "a11y_live_focus.png"))
            # set web off: the page stops asking
            g.send("ann: !set web off")
            time.sleep(2.5)
            count = "return performance.getEntriesByType('resource').filter(function (e) {" \
                    "return e.name.endsWith('/v'); }).length"
            n = driver.execute_script(count)
            time.sleep(3)
            check(driver.execute_script(count) == n, "the page polls on after set web off")
            rc, _, err = g.bot.close()
            check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
            print("a11y live: focus and scroll kept over %d moves (a link, a fold), the "
                  "page at the server's version %.2f s after the move at most, the aria-live "
                  "line says each move; polling stops after set web off" % (kept, max(waits)))
    finally:
        driver.quit()


def main():
    bot_exe, axe_js, mode, outdir = sys.argv[1:5]
    os.makedirs(outdir, exist_ok=True)
    {"pages": pages, "live": live}[mode](bot_exe, axe_js, outdir)


if __name__ == "__main__":
    main()
