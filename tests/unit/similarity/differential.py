#!/usr/bin/env python3
"""Differential test of memkit's near-duplicate words and similarity against python3 (spec
memorybox.md §4). The references are Python's own: bytes.decode("utf-8", "replace"),
str.casefold() and unicodedata.category(), and a direct transcription of the shingle rule.

Python 3.11's unicodedata is Unicode 14.0.0. The spec pins 15.0.0 and notes that, for this rule,
the two differ only at code points first assigned in 15.0, so those (read from Debian's
/usr/share/unicode/DerivedAge.txt) are left out of the comparison when Python is at 14.0.0.

Usage: differential.py HELPER cases [--count N] [--seed S]
       differential.py HELPER all-code-points

Exits 0 when everything agrees, 1 on a difference (the first few are printed) and 77 (skipped)
when this Python's Unicode data cannot serve as the reference.
"""

import pathlib
import random
import re
import struct
import sys
import unicodedata

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "support"))
from differential_wire import main, report, run_helper  # noqa: E402  (tests/support, shared with the helper)

WORD_CATEGORIES = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Nd"))
DERIVED_AGE = pathlib.Path("/usr/share/unicode/DerivedAge.txt")
SKIP = 77

# Letters of every word category, marks and numbers that are not Nd, connector and other
# punctuation, format characters, spaces, case-folding specials (ß, ẞ, ΐ, ﬃ, İ, U+0345 which folds
# from Mn to Ll), supplementary letters and digits, emoji and U+FFFD.
INTERESTING = [
    0x41, 0x5A, 0x61, 0x7A, 0x30, 0x39, 0x5F, 0x2D, 0x27, 0xAA, 0xB2, 0xB5, 0xBA, 0xC0, 0xD7, 0xDF,
    0x1C5, 0x2B0, 0x2C6, 0x2D2, 0x300, 0x301, 0x345, 0x37A, 0x390, 0x130, 0x5D0, 0x5F3, 0x660,
    0x669, 0x6F0, 0x903, 0x966, 0xE01, 0xE31, 0xE50, 0x16EE, 0x1E9E, 0x200B, 0x200D, 0x203F, 0x2040,
    0x2160, 0x216B, 0x2460, 0x3005, 0x3007, 0x3041, 0x30FC, 0x4E00, 0x8A18, 0xA620, 0xAC00, 0xFB03,
    0xFE33, 0xFF10, 0xFF21, 0xFF3F, 0xFFFD, 0x10400, 0x104A0, 0x1D7CE, 0x1E900, 0x1F600, 0x20000,
    0x2A6DF, 0xE0041,
]
ILL_FORMED = [
    b"\x80", b"\xbf", b"\xc0\x80", b"\xc2", b"\xe0\x80\x80", b"\xe2\x82", b"\xed\xa0\x80",
    b"\xf0\x90\x80", b"\xf4\x90\x80\x80", b"\xff", b"\xc2\x41", b"\xe2\x41\x82",
]
VOCABULARY = ["alpha", "Alpha", "beta", "GAMMA", "stra\u00dfe", "STRASSE", "\u8a18\u4f4f", "x_1"]


def new_in_15():
    """The code points DerivedAge.txt marks as first assigned in Unicode 15.0."""
    found = set()
    for line in DERIVED_AGE.read_text(encoding="utf-8").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        span, age = (field.strip() for field in data.split(";"))
        if age == "15.0":
            low, _, high = span.partition("..")
            found.update(range(int(low, 16), int(high or low, 16) + 1))
    return found


def excluded_code_points():
    """Returns the code points to leave out, or None when Python cannot be the reference."""
    version = unicodedata.unidata_version
    if version == "15.0.0":
        return set()
    if version != "14.0.0":
        print(f"skipped: python3 has Unicode {version}, the reference needs 14.0.0 or 15.0.0")
        return None
    if not DERIVED_AGE.exists():
        print(f"skipped: {DERIVED_AGE} is missing (apt-get install unicode-data)")
        return None
    return new_in_15()


def is_word_char(ch):
    return ch == "_" or unicodedata.category(ch) in WORD_CATEGORIES


def words_reference(data):
    folded = data.decode("utf-8", "replace").casefold()
    words, current = [], []
    for ch in folded:
        if is_word_char(ch):
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return [word.encode() for word in words]


def shingles_reference(words):
    if len(words) < 3:
        return {(word,) for word in words}
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def encode(cp):
    return chr(cp).encode("utf-8")


def random_piece(rng, allowed):
    kind = rng.randrange(9)
    if kind <= 2:
        return rng.choice(VOCABULARY).encode()
    if kind == 3:
        return rng.choice([" ", ", ", ". ", "-", "\n", "'", "\u00a0", "\u3000"]).encode()
    if kind == 4:
        return encode(rng.choice(INTERESTING))
    if kind == 5:
        return encode(rng.choice(allowed))
    if kind == 6:
        return rng.choice(ILL_FORMED)
    if kind == 7:
        return "".join(rng.choice("abcXYZ09_") for _ in range(rng.randrange(1, 8))).encode()
    return bytes([rng.randrange(256)])


def generate_cases(count, seed, excluded):
    rng = random.Random(seed)
    allowed = [cp for cp in range(0x80, 0x110000, 7)
               if not 0xD800 <= cp <= 0xDFFF and cp not in excluded]
    cases = [b"", b"a", b"a b", b"a b c", b"Stra\xc3\x9fe ist gut", b"STRASSE IST GUT", b"\xff"]
    while len(cases) < count:
        case = b"".join(random_piece(rng, allowed) for _ in range(rng.randrange(0, 16)))
        if excluded and any(ord(ch) in excluded for ch in case.decode("utf-8", "replace")):
            continue
        cases.append(case)
        if rng.random() < 0.5:  # a near copy next to it, so that the pair's similarity is high
            cases.append(case.upper() if rng.random() < 0.5 else case + b" " + random_piece(rng, allowed))
    return cases


def run_cases(helper, count, seed):
    excluded = excluded_code_points()
    if excluded is None:
        return SKIP
    cases = generate_cases(count, seed, excluded)
    stdin = b"".join(struct.pack("<I", len(case)) + case for case in cases)
    reader = run_helper(helper, "cases", stdin)
    failures = []
    words = []
    for case in cases:
        got = [reader.blob() for _ in range(reader.uint(4))]
        want = words_reference(case)
        words.append(want)
        if got != want:
            failures.append(f"words of {case!r}: memkit {got!r}, python3 {want!r}")
    for i in range(0, len(cases) - 1, 2):
        got = (reader.uint(4), reader.uint(4))
        a, b = shingles_reference(words[i]), shingles_reference(words[i + 1])
        want = (len(a & b), len(a | b))
        if got != want:
            failures.append(f"similarity of {cases[i]!r} and {cases[i + 1]!r}: memkit {got}, "
                            f"python3 {want}")
    if reader.pos != len(reader.data):
        failures.append("the helper wrote more output than there were cases")
    return report(failures, f"{len(cases)} random byte strings (seed {seed})")


def run_all_code_points(helper):
    excluded = excluded_code_points()
    if excluded is None:
        return SKIP
    reader = run_helper(helper, "all-code-points")
    failures = []
    checked = 0
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        got = reader.blob()
        if cp in excluded:
            continue
        want = b"\0".join(words_reference(encode(cp)))
        checked += 1
        if got != want:
            failures.append(f"words(U+{cp:04X}): memkit {got!r}, python3 {want!r}")
    return report(failures, f"the words of {checked} single code points "
                            f"({len(excluded)} new in 15.0 left out)")


if __name__ == "__main__":
    sys.exit(main(__doc__, run_cases, run_all_code_points))
