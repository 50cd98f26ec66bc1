#!/usr/bin/env python3
"""test_golden.py -- what players read, word for word: short games played
through `porrazo-bot --console` with fixed seeds, compared with the golden
transcripts in tests/irc/golden/.

Each transcript is the console session as a reader sees it: the line a
player typed ("ann: !play 7h" in the channel, "ann> hand" privately), then
what the bot wrote ("#console <porrazo> ..." for the channel, "-> ann: ..."
for what only ann sees). The players know only what the bot says
(tests/bench/irc_lines.py's parsers): the state part of the newest channel
line says whose turn it is, the private deal line gives the hand; they play
their first card, answer "capture or place?" with "capture", and the dealer
says "tendido later" or "now" as the case says, then "arrange best".

  console-2p-seed<N>.txt          2 players: the first deal (tendido later),
                                  then the second deal's tendido (now), its
                                  arrangement and first play
  console-4partners-seed<N>.txt   "!new 4 partners": the first deal
                                  (tendido now, arrange best), up to the
                                  second deal's first play

usage: test_golden.py BOT [--update]
  --update   write the transcripts instead of comparing (then read them!)
"""
import difflib
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TESTS, "bench"))
import console_game as cg  # noqa: E402  (the console process: Bot)
import irc_lines as il  # noqa: E402  (the parsers of the bot's lines)

GOLDEN = os.path.join(TESTS, "irc", "golden")

# name, seed, players, !new options, tendido at deal 1, plays of deal 2 to show
CASES = [
    ("console-2p-seed%d.txt", 11, 2, "", "later", 1),
    ("console-4partners-seed%d.txt", 23, 4, "partners", "now", 1),
]


class Session:
    """A console game and its transcript."""

    def __init__(self, exe, db, seed, nicks):
        self.bot = cg.Bot(exe, db, seed)
        self.nicks = nicks
        self.lines = []
        self.hand = {n: [] for n in nicks}
        self.state = None
        self.deal = 0
        self.plays_in_deal = 0
        self.question = None

    def say(self, line):
        self.lines.append(line)
        for out in self.bot.send(line):
            self.lines.append(out)
            self.read(out)

    def read(self, out):
        m = re.match(r"-> (\S+): (.*)$", out)
        if m:
            nick, text = m.group(1), m.group(2)
            kind, cards, _deal = il.parse_private(text)
            if cards is not None and nick in self.hand:
                self.hand[nick] = cards
            if kind == "choice":
                self.question = nick
            return
        m = re.match(r"#console <[^>]+> (.*)$", out)
        if not m:
            return
        p = il.parse_channel(m.group(1), self.nicks)
        if p.reply_to:
            if il.is_choice_question(p.text):
                self.question = p.reply_to
            return
        for nick, card in p.plays:
            if card in self.hand.get(nick, []):
                self.hand[nick].remove(card)
            self.plays_in_deal += 1
        if p.deal:      # after the plays: a deal's line may begin with the last play
            self.deal = p.deal[0]
            self.plays_in_deal = 0
        if p.state:
            self.state = p.state

    def close(self):
        rc, rest, err = self.bot.close()
        for out in rest.splitlines():
            self.lines.append(out)
        if rc != 0:
            raise AssertionError("porrazo-bot exited %d: %s" % (rc, err))


def play_case(exe, seed, n, options, first_tendido, deal2_plays):
    nicks = cg.NICKS[:n]
    with tempfile.TemporaryDirectory(prefix="pz-golden-") as tmp:
        s = Session(exe, os.path.join(tmp, "golden.db"), seed, nicks)
        s.say(("%s: !new %d %s" % (nicks[0], n, options)).rstrip())
        for p in nicks[1:]:
            s.say("%s: !join" % p)
        for _ in range(200):
            if s.deal >= 2 and s.plays_in_deal >= deal2_plays:
                break
            if s.state is None or s.state[0] == "over":
                raise AssertionError("no state to act on; last lines:\n" +
                                     "\n".join(s.lines[-6:]))
            kind, actor, _table = s.state
            if s.question:
                card = s.last_card
                s.question = None
                s.say("%s: !play %s capture" % (actor, il.ascii_card(card)))
            elif kind == "tendido":
                s.say("%s: !tendido %s" % (actor, first_tendido if s.deal <= 1 else "now"))
            elif kind == "arrange":
                s.say("%s: !arrange best" % actor)
            elif kind == "play":
                if not s.hand[actor]:
                    raise AssertionError("%s is to play and holds nothing:\n%s"
                                         % (actor, "\n".join(s.lines[-6:])))
                s.last_card = s.hand[actor][0]
                s.say("%s: !play %s" % (actor, il.ascii_card(s.last_card)))
        else:
            raise AssertionError("the case did not reach deal 2")
        s.close()
        return "\n".join(s.lines) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    exe = args[0]
    failed = []
    for name, seed, n, options, tendido, deal2 in CASES:
        path = os.path.join(GOLDEN, name % seed)
        got = play_case(exe, seed, n, options, tendido, deal2)
        if update:
            os.makedirs(GOLDEN, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(got)
            print("wrote %s (%d lines)" % (os.path.relpath(path), got.count("\n")))
            continue
        try:
            with open(path, encoding="utf-8") as f:
                want = f.read()
        except FileNotFoundError:
            failed.append(name % seed)
            print("FAIL: %s is missing (test_golden.py BOT --update writes it)" % path)
            continue
        if got != want:
            failed.append(name % seed)
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), got.splitlines(True),
                "golden/" + name % seed, "porrazo-bot --console --seed %d" % seed))
        else:
            print("ok: %s (%d lines)" % (name % seed, got.count("\n")))
    if failed:
        print("FAIL: %s differ from the golden transcripts; if the change is meant, run "
              "test_golden.py BOT --update and read the new transcripts" % ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
