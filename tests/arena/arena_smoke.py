#!/usr/bin/env python3
"""arena_smoke.py ARENA CASE: one smoke check of porrazo-arena.

Each case runs the arena a few times with small budgets and checks its one
line of figures and, with --verbose, its per-game lines. Exit status 0 when
the case holds, 1 with a message when it does not.
"""
import re
import subprocess
import sys

LINE = re.compile(
    r"^a_win_rate=(?P<rate>[0-9.]+) ci95_low=(?P<lo>[0-9.]+) ci95_high=(?P<hi>[0-9.]+) "
    r"mean_margin=(?P<margin>-?[0-9.]+) ms_per_move_median=(?P<median>[0-9.]+) "
    r"ms_per_move_p99=(?P<p99>[0-9.]+) illegal=(?P<illegal>[0-9]+) games=(?P<games>[0-9]+)$")
GAME = re.compile(
    r"^game=(?P<n>[0-9]+) seed=(?P<seed>[0-9]+) deal=(?P<deal>[0-9a-f]{16}) "
    r"dealer=(?P<dealer>[0-9]+) a_seats=(?P<seats>[AB]+) winner=(?P<winner>[AB]) "
    r"margin=(?P<margin>-?[0-9]+)$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(arena, args, status=0):
    """Runs the arena; returns (figures dict, per-game lines) after checking status."""
    p = subprocess.run([arena] + args, capture_output=True, text=True, timeout=50)
    if p.returncode != status:
        fail(f"{args}: exit {p.returncode}, wanted {status}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    lines = p.stdout.splitlines()
    if len(lines) != 1:
        fail(f"{args}: wanted one line, got {p.stdout!r}")
    m = LINE.match(lines[0])
    if not m:
        fail(f"{args}: the line does not parse: {lines[0]!r}")
    fig = {k: float(v) for k, v in m.groupdict().items()}
    games = []
    for line in p.stderr.splitlines():
        g = GAME.match(line)
        if g:
            games.append(g.groupdict())
        elif line.strip():
            fail(f"{args}: unexpected on stderr: {line!r}")
    return fig, games


def check_clean(args, fig, games_wanted):
    if fig["illegal"] != 0:
        fail(f"{args}: illegal={fig['illegal']:.0f}")
    if fig["games"] != games_wanted:
        fail(f"{args}: games={fig['games']:.0f}, wanted {games_wanted}")
    if not fig["lo"] <= fig["rate"] <= fig["hi"]:
        fail(f"{args}: the rate is outside its interval: {fig}")


def line_parses_and_counts_games(arena):
    args = ["--a", "strong", "--b", "greedy", "--games", "3", "--iterations", "40", "--seed", "5"]
    fig, _ = run(arena, args)
    check_clean(args, fig, 3)
    if fig["median"] <= 0 or fig["p99"] < fig["median"]:
        fail(f"{args}: decision times do not make sense: {fig}")


def mirrored_games_share_their_deal(arena):
    args = ["--a", "strong", "--b", "greedy", "--players", "3", "--games", "4",
            "--iterations", "30", "--seed", "11", "--verbose"]
    fig, games = run(arena, args)
    check_clean(args, fig, 4)
    if len(games) != 4:
        fail(f"{args}: wanted 4 game lines, got {len(games)}")
    for first, second in ((games[0], games[1]), (games[2], games[3])):
        if first["seed"] != second["seed"] or first["deal"] != second["deal"]:
            fail(f"a pair of games does not share its deal: {first} {second}")
        if first["dealer"] != second["dealer"]:
            fail(f"a pair of games does not share its dealer: {first} {second}")
        swapped = "".join("B" if c == "A" else "A" for c in first["seats"])
        if second["seats"] != swapped:
            fail(f"A and B are not swapped in a pair: {first['seats']} {second['seats']}")
    if games[0]["seed"] == games[2]["seed"] or games[0]["dealer"] == games[2]["dealer"]:
        fail("two pairs share a seed or a first dealer")


def same_seed_gives_same_games(arena):
    args = ["--a", "strong", "--b", "expert", "--games", "2", "--iterations", "40",
            "--seed", "99", "--verbose"]
    fig1, games1 = run(arena, args)
    fig2, games2 = run(arena, args)
    check_clean(args, fig1, 2)
    keep = ("rate", "lo", "hi", "margin", "illegal", "games")
    if [fig1[k] for k in keep] != [fig2[k] for k in keep] or games1 != games2:
        fail(f"two runs with the same seed differ: {fig1} {fig2}")
    fig3, games3 = run(arena, args[:-3] + ["--seed", "100", "--verbose"])
    if games3[0]["deal"] == games1[0]["deal"]:
        fail("another seed deals the same cards")


def partnerships_with_manual_declarations_play_clean(arena):
    args = ["--a", "strong", "--b", "greedy", "--players", "4", "--partners", "--games", "2",
            "--iterations", "30", "--seed", "3", "--options",
            "declarations=manual,target=31"]
    fig, _ = run(arena, args)
    check_clean(args, fig, 2)


def every_level_plays_three_handed(arena):
    for a, b in (("beginner", "expert"), ("greedy", "strong")):
        args = ["--a", a, "--b", b, "--players", "3", "--games", "2", "--iterations", "30",
                "--options", "odd_leftover=deal tendido=last target=41"]
        fig, _ = run(arena, args)
        check_clean(args, fig, 2)


def deadline_budget_plays_clean(arena):
    args = ["--a", "strong", "--b", "greedy", "--games", "1", "--ms", "4",
            "--options", "target=21"]
    fig, _ = run(arena, args)
    check_clean(args, fig, 1)
    if fig["p99"] > 250:
        fail(f"{args}: a 4 ms deadline took {fig['p99']} ms at p99")


def bad_arguments_exit_2(arena):
    cases = [
        (["--a", "strong"], "--b"),
        (["--a", "wizard", "--b", "greedy"], "level"),
        (["--a", "strong", "--b", "greedy", "--players", "9"], "--players"),
        (["--a", "strong", "--b", "greedy", "--games", "12x"], "--games"),
        (["--a", "strong", "--b", "greedy", "--games", "0"], "--games"),
        (["--a", "strong", "--b", "greedy", "--ms", "-5"], "--ms"),
        (["--a", "strong", "--b", "greedy", "--seed"], "--seed"),
        (["--a", "strong", "--b", "greedy", "--players", "3", "--partners"], "partner"),
        (["--a", "strong", "--b", "greedy", "--options", "wrap=maybe"], "wrap"),
        (["--a", "strong", "--b", "greedy", "--options", "target"], "name=value"),
        (["--a", "strong", "--b", "greedy", "--frobnicate"], "unknown argument"),
    ]
    for args, word in cases:
        p = subprocess.run([arena] + args, capture_output=True, text=True, timeout=20)
        if p.returncode != 2:
            fail(f"{args}: exit {p.returncode}, wanted 2")
        if p.stdout:
            fail(f"{args}: printed on stdout: {p.stdout!r}")
        if word.lower() not in p.stderr.lower():
            fail(f"{args}: the message does not mention {word!r}: {p.stderr!r}")
    p = subprocess.run([arena, "--help"], capture_output=True, text=True, timeout=20)
    if p.returncode != 0 or "a_win_rate" not in p.stdout:
        fail("--help does not describe the line")


def main():
    if len(sys.argv) != 3:
        print("usage: arena_smoke.py ARENA CASE", file=sys.stderr)
        return 2
    arena, case = sys.argv[1], sys.argv[2]
    fn = globals().get(case)
    if not callable(fn):
        print(f"unknown case {case}", file=sys.stderr)
        return 2
    fn(arena)
    print(f"ok {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
