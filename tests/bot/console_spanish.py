#!/usr/bin/env python3
"""console_spanish.py -- a whole 3-player game in a Spanish room, through
`porrazo-bot --console` (issue 20), where cat chose English privately.

The room is Spanish by the configuration ([bot] language = es); ann and
bob read Spanish privately (the room's), cat says "lang en" first and
reads English. The same seed is then played in an English room, and:

  - the transcript of the Spanish game is the golden one,
    tests/irc/golden/console-3p-es-seed<N>.txt (--update writes it);
  - no English word the bot uses is left in a Spanish room line (nicks
    and cards aside): ENGLISH is the list, checked word by word in every
    " · " segment of the room's lines;
  - ann's and bob's hands and prompts are Spanish, cat's English, and no
    private line mixes the two;
  - nor in ann's and bob's private lines, nor in any reply (room or
    private) to SCRIPT, the options' refusals and values and the errors a
    Spanish player meets, then help on every verb of verbs.def and every
    rules topic, in a Spanish room;
  - every line fits one IRC line (LINE_MAX bytes), and the Spanish room
    has as many lines as the English one for the same game (the room line
    per play stays one line), with the figures printed.

HOST_PHRASES: room segments the English-word check skips; empty since the
host's replies are in es.po too, so the check covers every room line.

usage: console_spanish.py BOT [--update]
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import console_game as cg  # noqa: E402

GOLDEN = os.path.join(TESTS, "irc", "golden")
SEED = 31
PLAYERS = ["ann", "bob", "cat"]
OPTIONS = "to 21"
LINE_MAX = 400  # bytes of a line's text: a PRIVMSG with its prefixes stays under 512

# Words of the bot's English lines (render/, help, the adapters) that a
# Spanish reader must never meet in a Spanish room line.
ENGLISH = set("""
takes take table empty deal deals dealt hand hands play plays played turn wins win
score scores first last leftover card cards goes go sets place places points point
arranges arrange lays face up declares declare counter stands pending over chooses
later now best the of and to is are with by so from your you new privately seeing
before game ends ended right left row kept together sweep won board
opens sits down seats say says join start pack sealed practice hint hints review
who record forcestop forceleave rondine pagat silent nowrap capture scoring excess26
difference dealer option options takes lays partners partnerships declarations leftover
sweep target wrap removebot or not needs sides even least
""".split())
# Commands a Spanish player may type, beyond the game: every verb's help,
# every rules topic (ADVICE below adds them), the options' refusals and
# values, the errors of the parser and of the host. Each reply, in the room
# or private, is checked for ENGLISH words.
SCRIPT = """
ann: !nuevo 3 parejas
ann: !nuevo 3 foo=1
ann: !nuevo 3 cartas=xyz
ann: !nuevo 3 vuelta=quizas
ann: !nuevo 3 tendido
ann: !nuevo 3 cartas=exceso26
ann: !nuevo 3 meta=500
ann: !nuevo 3 silenciosos tendido=ultimo sobrantes=reparto barrida=repartidor
ann: !opciones
ann: !reglas
ann: !reglas fin
ann: !reglas xyzzy
ann: !quitarbot Robot 1
ann: !quitarbot bob cat
ann: !paso
ann: !jugar
ann: !jugar 7c 8c
ann: !jugar 7x
ann: !ordenar 4c 2t
ann: !idioma fr
ann: !idioma es en
ann: !zona Europa/Madri
ann: !xyzzy
ann: !ayuda
bob: !unirse
ann: !quitarbot
""".strip().split("\n")
CARD = re.compile(r"^(?:10|[A2-9JQK])[♣♦♥♠]$")
HOST_PHRASES = []  # every room line is checked: see the docstring
STATUS = [  # both languages: cat's game is read from the same room
    (re.compile(r"· juega ([^·]+?)\s*$"), "play"),
    (re.compile(r"· ([^·]+?) reparte y elige: "), "tendido"),
    (re.compile(r"· ([^·]+?) ordena el tendido"), "arrange"),
] + cg.STATUS


class Bot(cg.Bot):
    """porrazo-bot --console with a configuration file."""

    def __init__(self, exe, db, seed, config):
        self.proc = cg.subprocess.Popen(
            [exe, "--console", "--config", config, "--db", db, "--seed", str(seed)],
            stdin=cg.subprocess.PIPE, stdout=cg.subprocess.PIPE, stderr=cg.subprocess.PIPE,
            env={"LANG": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        self.buf = b""


class Table(cg.Table):
    """console_game's scripted players, reading Spanish or English."""

    def private(self, nick, text):
        m = re.match(r"(?:Your hand in \S+ \(deal|Tu mano en \S+ \(reparto) (\d+) (?:of|de) "
                     r"\d+\): (.*?)(?: · |$)", text)
        if m and nick in self.hand:
            self.deal_no[nick] = int(m.group(1))
            self.hand[nick] = re.findall(cg.CARD, m.group(2))
            return
        m = re.match(r"(?:Reminder: |Recordatorio: )?(?:Your turn|Te toca) en? \S+ .*?— "
                     r"(?:hand|mano) (.*?)(?: · |$)", text)
        if m and nick in self.hand:
            self.hand[nick] = re.findall(cg.CARD, m.group(1))
            return
        m = re.search(r"\(tu mano: ([^)]*)\)", text)
        if m and nick in self.hand:
            self.hand[nick] = re.findall(cg.CARD, m.group(1))
        if "puede capturar o ir en su lugar" in text:
            self.need_capture = True
        super().private(nick, text)

    def public(self, text):
        if "puede capturar o ir en su lugar" in text:
            self.need_capture = True
        reply_to = re.match(r"(\S+): ", text)
        if reply_to and reply_to.group(1) in self.hand:
            return  # a reply to one player, not news of the game
        if re.search(r"fin de la partida|¡.* gana", text):
            self.over = True
        super().public(text)
        for rx, kind in STATUS:
            m = rx.search(text)
            if m:
                self.actor, self.kind = m.group(1), kind


def play(exe, tmp, lang, cat_english):
    conf = os.path.join(tmp, "%s.conf" % lang)
    with open(conf, "w") as f:
        f.write("[bot]\nlanguage = %s\n" % lang)
    bot = Bot(exe, os.path.join(tmp, "%s.db" % lang), SEED, conf)
    table = Table(PLAYERS)
    if cat_english:
        table.read(bot.send("cat> lang en"))
    cg.open_table(bot, table, len(PLAYERS), OPTIONS)
    steps = cg.play_out(table, bot.send)
    rc, rest, err = bot.close()
    cg.check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
    return table.transcript, steps


def help_script(exe):
    """SCRIPT, then help on every verb of verbs.def and every rules topic."""
    verbs = re.findall(r'\nX\(\w+, "([^"]*)"', open(os.path.join(
        os.path.dirname(TESTS), "bot", "parse", "verbs.def"), encoding="utf-8").read())
    topics = "captura lugar limpia porrazo tendido ronda puntos fin sellado".split()
    return SCRIPT + ["ann: !ayuda %s" % v for v in verbs] + ["ann: !reglas %s" % t for t in topics]


def commands_read(exe, tmp):
    """What ann reads (room and private) for help_script in a Spanish room."""
    conf = os.path.join(tmp, "help.conf")
    with open(conf, "w") as f:
        f.write("[bot]\nlanguage = es\n")
    bot = Bot(exe, os.path.join(tmp, "help.db"), SEED, conf)
    read = []
    for line in help_script(exe):
        read += bot.send(line)
    rc, rest, err = bot.close()
    cg.check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
    read += rest.splitlines() if isinstance(rest, str) else list(rest)
    return [l for l in read if l.startswith("#console <") or l.startswith("-> ")]


def english_left(line):
    """The English words of a room line outside the host's phrases."""
    found = []
    for seg in line.split(" · "):
        seg = seg.strip()
        if any(re.search(p, seg) for p in HOST_PHRASES):
            continue
        for word in seg.split():
            if CARD.match(word) or word in PLAYERS:
                continue
            w = re.sub(r"^[^\w]+|[^\w]+$", "", word.lower())
            if w in ENGLISH:
                found.append(w)
    return found


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    exe, update = sys.argv[1], "--update" in sys.argv[2:]
    with tempfile.TemporaryDirectory(prefix="pz-es-") as tmp:
        es, es_steps = play(exe, tmp, "es", True)
        en, en_steps = play(exe, tmp, "en", False)
        commands = commands_read(exe, tmp)
    golden = os.path.join(GOLDEN, "console-3p-es-seed%d.txt" % SEED)
    text = "\n".join(es) + "\n"
    if update:
        with open(golden, "w") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (golden, len(es)))
    else:
        with open(golden) as f:
            want = f.read()
        if want != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), text.splitlines(True), "golden", "now", n=1))
            print("FAIL: the Spanish game differs from %s" % golden)
            return 1
    room = [l[len("#console <porrazo> "):] for l in es if l.startswith("#console <")]
    bad = [(l, english_left(l)) for l in room if english_left(l)]
    cg.check(not bad, "English words in the Spanish room:\n" +
             "\n".join("%s  <- %s" % b for b in bad[:10]))
    # ann and bob read Spanish privately: no English word there either
    spanish_private = [l.split(": ", 1)[1] for l in es
                       if l.startswith("-> ann: ") or l.startswith("-> bob: ")]
    bad = [(l, english_left(l)) for l in spanish_private if english_left(l)]
    cg.check(not bad, "English words in a Spanish private line:\n" +
             "\n".join("%s  <- %s" % b for b in bad[:10]))
    # every verb's help, every rules topic, the options and the errors
    told = [l.split("> ", 1)[1] if l.startswith("#console <") else l.split(": ", 1)[1]
            for l in commands]
    bad = [(l, english_left(l)) for l in told if english_left(l)]
    cg.check(not bad, "English words in a reply to a Spanish player:\n" +
             "\n".join("%s  <- %s" % b for b in bad[:10]))
    cg.check(len(told) > len(SCRIPT) + 60, "only %d replies to the commands" % len(told))
    cg.check(any(l.startswith("Mano nueva: reparto 1 de ") for l in room),
             "the room never read a deal in Spanish")
    for nick, own, other in (("ann", "Tu mano en ", "Your hand"),
                             ("bob", "Tu mano en ", "Your hand"),
                             ("cat", "Your hand in ", "Tu mano")):
        mine = [l for l in es if l.startswith("-> %s: " % nick)]
        cg.check(any(own in l for l in mine), "%s never read '%s'" % (nick, own))
        cg.check(not any(other in l for l in mine), "%s read '%s'" % (nick, other))
        mixed = [l for l in mine if re.search(r"\b(mesa|reparto)\b", l) and
                 re.search(r"\b(table|deal)\b", l)]
        cg.check(not mixed, "a private line of %s mixes languages: %s" % (nick, mixed[:1]))
    for lines, name in ((es, "Spanish"), (en, "English")):
        long = [l for l in lines if len(l.split(" ", 2)[-1].encode()) > LINE_MAX]
        cg.check(not long, "a %s line is longer than %d bytes: %s" % (name, LINE_MAX, long[:1]))
    en_room = [l for l in en if l.startswith("#console <")]
    cg.check(es_steps == en_steps, "the same seed played %d actions in Spanish, %d in English"
             % (es_steps, en_steps))
    cg.check(len(room) <= len(en_room) * 1.05,
             "the Spanish room had %d lines, the English one %d" % (len(room), len(en_room)))

    def figures(lines):
        """Room lines, the longest in bytes, and the characters of the
        game's lines (those with a state: " · ")."""
        r = [l.split("> ", 1)[1] for l in lines if l.startswith("#console <")]
        return len(r), max(len(l.encode()) for l in r), sum(len(l) for l in r if " · " in l)
    fes, fen = figures(es), figures(en)
    print("3 players, %d actions: room lines es %d / en %d (%.2f per action each); "
          "longest room line es %d / en %d bytes; the game's lines %d / %d characters "
          "(%+.0f%%)" % (es_steps, fes[0], fen[0], fes[0] / es_steps, fes[1], fen[1],
                         fes[2], fen[2], 100 * (fes[2] / fen[2] - 1)))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
