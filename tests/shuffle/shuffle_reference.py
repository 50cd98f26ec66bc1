#!/usr/bin/env python3
"""shuffle_reference.py -- an independent implementation of the shuffle that
porrazo.h documents (SplitMix64 -> xoshiro256**, Lemire's bounded draw,
Fisher-Yates from index order), written from that prose alone. It runs the
engine's `print_shuffle` for the same seeds and fails on any difference, so
"the same seed gives the same game on every machine" is pinned to the
documentation, not to whatever the C code happens to do.

usage: shuffle_reference.py PATH/TO/print_shuffle
"""
import subprocess
import sys

M64 = (1 << 64) - 1
RANKS = "A23456789TJQK"
SUITS = "CDHS"


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Xoshiro256ss:
    def __init__(self, seed):
        self.s = []
        x = seed
        for _ in range(4):
            x, out = splitmix64(x)
            self.s.append(out)

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, bound):
        m = (self.next() >> 32) * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            threshold = ((1 << 32) - bound) % bound
            while low < threshold:
                m = (self.next() >> 32) * bound
                low = m & 0xFFFFFFFF
        return m >> 32


def shuffle(seed):
    rng = Xoshiro256ss(seed)
    pack = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    return " ".join(RANKS[c >> 2] + SUITS[c & 3] for c in pack)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    seeds = [0, 1, 2, 42, 12345, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 0xDEADBEEFCAFEF00D]
    seeds += list(range(1000, 1200))
    out = subprocess.run([sys.argv[1]] + [str(s) for s in seeds], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(seeds):
        print(f"expected {len(seeds)} lines, got {len(out)}")
        return 1
    bad = 0
    for seed, line in zip(seeds, out):
        want = f"{seed}: {shuffle(seed)}"
        if line != want:
            bad += 1
            print(f"seed {seed}:\n  engine    {line}\n  reference {want}")
    print(f"{len(seeds) - bad} of {len(seeds)} seeds match the documented shuffle")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
