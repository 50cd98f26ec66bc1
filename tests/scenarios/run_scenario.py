#!/usr/bin/env python3
"""Runs one porrazo-replay scenario and checks what it prints.

usage: run_scenario.py PORRAZO_REPLAY SCENARIO.json

For NAME.json the expected output is NAME.out next to it: standard output
must equal it byte for byte and the exit status must be 0. For a file named
malformed-*.json the exit status must be 2, standard output empty and
standard error not empty. On a mismatch it prints a unified diff (or what
differs) and exits 1; exit 0 means the scenario passed.

Expected files are written by hand against shared/spec/RULES.md; this
runner never writes or updates them. Python 3 standard library only.
"""
import difflib
import os
import subprocess
import sys

TIMEOUT_SECONDS = 30


def fail(message):
    """Prints message on stderr and exits with status 1."""
    print(message, file=sys.stderr)
    sys.exit(1)


def run(binary, scenario):
    """Runs binary on scenario; returns (status, stdout bytes, stderr bytes)."""
    try:
        proc = subprocess.run([binary, scenario], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT_SECONDS,
                              check=False)
    except subprocess.TimeoutExpired:
        fail(f"FAIL {scenario}: no answer after {TIMEOUT_SECONDS} s")
    except OSError as e:
        fail(f"FAIL cannot run {binary}: {e}")
    return proc.returncode, proc.stdout, proc.stderr


def describe_status(status):
    """Says what an exit status means (a negative one is a signal)."""
    if status < 0:
        return f"killed by signal {-status}"
    return f"exit status {status}"


def check_malformed(scenario, status, out, err):
    """A malformed scenario: status 2, nothing on stdout, a message on stderr."""
    problems = []
    if status != 2:
        problems.append(f"expected exit status 2, got {describe_status(status)}")
    if out:
        problems.append("expected nothing on stdout, got:\n" +
                        out.decode("utf-8", "replace"))
    if not err.strip():
        problems.append("expected a message on stderr, got none")
    if problems:
        fail(f"FAIL {scenario}:\n" + "\n".join(problems))
    print(f"ok {scenario}: refused: " +
          err.decode("utf-8", "replace").strip())


def check_output(scenario, status, out, err):
    """A game scenario: status 0 and stdout equal to NAME.out."""
    expected_path = os.path.splitext(scenario)[0] + ".out"
    try:
        with open(expected_path, "rb") as f:
            expected = f.read()
    except OSError as e:
        fail(f"FAIL {scenario}: no expected output ({e}); write "
             f"{os.path.basename(expected_path)} by hand from the rules")
    problems = []
    if status != 0:
        problems.append(f"expected exit status 0, got {describe_status(status)}")
        if err:
            problems.append("stderr:\n" + err.decode("utf-8", "replace"))
    if out != expected:
        diff = difflib.unified_diff(
            expected.decode("utf-8", "replace").splitlines(keepends=True),
            out.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=expected_path, tofile="porrazo-replay output")
        text = "".join(diff)
        if not text:  # the same lines: only line endings or bytes differ
            text = f"expected {expected!r}\n     got {out!r}\n"
        problems.append("stdout differs from the expected output:\n" + text)
    if problems:
        fail(f"FAIL {scenario}:\n" + "\n".join(problems))
    print(f"ok {scenario}")


def main(argv):
    """Checks the scenario argv[2] with the binary argv[1]."""
    if len(argv) != 3:
        fail("usage: run_scenario.py PORRAZO_REPLAY SCENARIO.json")
    binary, scenario = argv[1], argv[2]
    status, out, err = run(binary, scenario)
    if os.path.basename(scenario).startswith("malformed-"):
        check_malformed(scenario, status, out, err)
    else:
        check_output(scenario, status, out, err)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
