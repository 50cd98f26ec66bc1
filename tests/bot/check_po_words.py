#!/usr/bin/env python3
"""check_po_words.py -- what the translations of bot/po/*.po tell players to
type, and how long their lines are.

usage: check_po_words.py SOURCE_DIR

For every translated message of every catalogue in SOURCE_DIR/bot/po:
- the commands it suggests after the prefix ("say %sjoin", "%splay %s
  capture") name the same verbs as the English does, in words the parser
  takes: the words of bot/parse/verbs.def (and of settings.def's players'
  and games' rows, verbs too), compared folded (lower case, no
  accents) as the parser compares them;
- with every placeholder written as 12 bytes, it fits one line of what
  players read (RENDER_LINE_MAX, 400 bytes with the NUL) unless the English
  already did not.
Prints each fault and exits 1 when there is one.
"""
import ast
import glob
import os
import re
import sys
import unicodedata

LINE_MAX = 399  # bytes of a line, RENDER_LINE_MAX without the NUL
SPEC = re.compile(r"%(?:\d+\$)?[-#0-9.]*(?:ll|l|z|h)?([a-zA-Z%])")
PREFIXED = re.compile(r"%(?:\d+\$)?s([^\W\d_][\w-]*)")


def fold(word):
    """The parser's folding (text_fold): lower case, accents dropped."""
    nfd = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in nfd if unicodedata.category(c) != "Mn")


def verb_words(source):
    """Every word of the command table, to the canonical name of its verb."""
    text = open(os.path.join(source, "bot/parse/verbs.def"), encoding="utf-8").read()
    words = {}
    for name, shown, more in re.findall(r'\nX\(\w+, "([^"]*)", "([^"]*)", "([^"]*)"', text):
        for w in (name + " " + shown + " " + more).split():
            words[w] = name
    # the players' and the games' settings are verbs too (verbs.def makes
    # each of their rows of settings.def one)
    text = open(os.path.join(source, "bot/parse/settings.def"), encoding="utf-8").read()
    row = r'\nSETTING\(\w+, "([^"]*)", "([^"]*)", "([^"]*)", \w+, \w+, SS_(?:PLAYER|GAME),'
    for name, shown, more in re.findall(row, text):
        for w in (name + " " + shown + " " + more).split():
            words[w] = name
    return words


def entries(path):
    """(msgid, msgstr) of each translated, non-plural message of a .po."""
    out, cur, key = [], {}, None
    for line in open(path, encoding="utf-8").read().split("\n") + [""]:
        if not line.strip():
            if cur.get("msgid") and cur.get("msgstr") and "fuzzy" not in cur.get("flags", ""):
                out.append((cur["msgid"], cur["msgstr"]))
            cur, key = {}, None
        elif line.startswith("#,"):
            cur["flags"] = line
        elif line.startswith("#"):
            continue
        else:
            m = re.match(r'(msgid|msgstr|msgid_plural|msgctxt|msgstr\[\d\]) (".*")$', line)
            if m:
                key = m.group(1)
                cur[key] = ast.literal_eval(m.group(2))
            elif line.startswith('"') and key is not None:
                cur[key] += ast.literal_eval(line)
    return out


def shown_bytes(text):
    return len(SPEC.sub(lambda m: "" if m.group(1) == "%" else "x" * 12, text).encode())


def main():
    source = sys.argv[1]
    words = verb_words(source)
    faults = 0
    catalogues = sorted(glob.glob(os.path.join(source, "bot/po/*.po")))
    if not catalogues:
        print("no catalogue in bot/po")
        return 1
    for path in catalogues:
        for msgid, msgstr in entries(path):
            said = sorted(words[w] for w in PREFIXED.findall(msgid) if w in words)
            told = sorted(words[fold(w)] for w in PREFIXED.findall(msgstr) if fold(w) in words)
            if said and said != told:
                print("%s: %r suggests %s, its translation %s" % (path, msgid, said, told))
                faults += 1
            if shown_bytes(msgstr) > max(LINE_MAX, shown_bytes(msgid)):
                print("%s: %r runs past one line: %r" % (path, msgid, msgstr))
                faults += 1
    print("%d catalogue(s), %d fault(s)" % (len(catalogues), faults))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
