#!/usr/bin/env python3
"""Differential test of memkit's text and token rules against python3 (spec compaction.md §2.1,
§2.2, §4, §6.3). The references are Python's own: bytes.decode("utf-8", "replace") for ill-formed
input, str.casefold() for full case folding, and a direct transcription of the token rule.

Usage: differential.py HELPER cases [--count N] [--seed S]
       differential.py HELPER all-code-points

Exits 0 when everything agrees, 1 on a difference (the first few are printed) and 77 (skipped)
when this Python's Unicode data cannot serve as the casefold reference.
"""

import pathlib
import random
import re
import struct
import sys
import unicodedata

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "support"))
from differential_wire import main, report, run_helper  # noqa: E402  (tests/support, shared with the helper)

# W (§2.2), written out from the spec rather than taken from str.isspace, so that the check below
# proves the two agree instead of assuming it.
W_CODE_POINTS = (list(range(0x09, 0x0E)) + list(range(0x1C, 0x21)) +
                 [0x85, 0xA0, 0x1680] + list(range(0x2000, 0x200B)) +
                 [0x2028, 0x2029, 0x202F, 0x205F, 0x3000])
W = "".join(map(chr, W_CODE_POINTS))
W_RUN = re.compile("[" + re.escape(W) + "]+")
WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# The peers' form of the rule: a word run or any single non-space code point.
TOKEN_REGEX = re.compile(r"[A-Za-z0-9_]+|\S")

# Python 3.11 uses Unicode 14.0.0 and 3.12 uses 15.0.0; the spec checked that both fold every code
# point exactly as CaseFolding-15.0.0.txt does. Later versions may add case pairs.
CASEFOLD_REFERENCE_VERSIONS = ("14.0.0", "15.0.0")
SKIP = 77


def tokens_reference(text):
    """The token rule of §4, one code point at a time."""
    count = 0
    in_word = False
    for ch in text:
        if ch in WORD_CHARS:
            count += 0 if in_word else 1
            in_word = True
            continue
        in_word = False
        if ch not in W:
            count += 1
    return count


def collapse_reference(text):
    return W_RUN.sub(" ", text).strip(W)


def encode(cp):
    return chr(cp).encode("utf-8", "surrogatepass")


# Characters whose folding is interesting: full foldings (ß, ẞ, ŉ, ǰ, ΐ, ﬀ, ﬃ, İ), Greek sigmas,
# long s, Kelvin and Angstrom signs, Cherokee (folds to upper case), Georgian Mtavruli, Deseret,
# Adlam, plus characters with no folding (ı, CJK, emoji) and the BOM.
INTERESTING = [
    0xDF, 0x1E9E, 0x149, 0x1F0, 0x390, 0xFB00, 0xFB03, 0x130, 0x131, 0x3A3, 0x3C3, 0x3C2, 0x17F,
    0x212A, 0x212B, 0x13A0, 0x13F8, 0xAB70, 0x1C90, 0x10400, 0x1E900, 0x1E921, 0x1E922, 0xB5,
    0xC0, 0xE9, 0x0100, 0x0101, 0x1F88, 0x1FBC, 0x1FFC, 0x2C00, 0xA77D, 0x8A18, 0x4F4F, 0x1F600,
    0xFEFF, 0xFFFD, 0x10FFFF, 0xFFFF, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0x10000,
]
# Ill-formed sequences of every kind §2.1 and Unicode Table 3-7 distinguish.
ILL_FORMED = [
    b"\x80", b"\xbf", b"\xc0", b"\xc1", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\xdf",
    b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xe0", b"\xe0\xa0", b"\xe1\x80", b"\xed\xa0\x80",
    b"\xed\xbf\xbf", b"\xed\xa0", b"\xee\x80", b"\xef\xbf", b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf", b"\xf0", b"\xf0\x90", b"\xf0\x90\x80", b"\xf3\xbf\xbf",
    b"\xf4\x90\x80\x80", b"\xf4\x8f\xbf",
    b"\xf5\x80\x80\x80", b"\xf7", b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xfe",
    b"\xff", b"\xc2\x41", b"\xe2\x82\x41", b"\xe2\x41\x82",
]


def random_piece(rng):
    kind = rng.randrange(12)
    if kind <= 2:
        length = rng.randrange(1, 12)
        return "".join(rng.choice("abcXYZ09_") for _ in range(length)).encode()
    if kind == 3:
        return rng.choice(" \t\n\r\v\f\x1c\x1f.,-!#*()'\"").encode()
    if kind == 4:
        return encode(rng.choice(W_CODE_POINTS))
    if kind == 5:
        return encode(rng.choice(INTERESTING))
    if kind == 6:
        cp = rng.randrange(0x80, 0x110000)
        while 0xD800 <= cp <= 0xDFFF:
            cp = rng.randrange(0x80, 0x110000)
        return encode(cp)
    if kind == 7:
        return bytes([rng.randrange(256)])
    if kind == 8:
        return rng.choice(ILL_FORMED)
    if kind == 9:
        whole = encode(rng.choice(INTERESTING + W_CODE_POINTS))
        return whole[:rng.randrange(1, len(whole) + 1)]  # often a truncated valid prefix
    if kind == 10:
        return b"\xef\xbb\xbf"
    return bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randrange(1, 5)))


def generate_cases(count, seed):
    rng = random.Random(seed)
    cases = [b"", b"a", b" ", b"\xef\xbb\xbf", b"A" * 100, b"\xc3\xa9" * 40 + b"\xc3"]
    cases += ILL_FORMED
    while len(cases) < count:
        pieces = [random_piece(rng) for _ in range(rng.randrange(0, 24))]
        case = b"".join(pieces)
        if rng.random() < 0.2:  # long ASCII stretches exercise the 8- and 16-byte fast paths
            case = b"x" * rng.randrange(0, 40) + case + b"y" * rng.randrange(0, 40)
        cases.append(case)
    return cases


def check_references_agree():
    """Fails loudly if Python's idea of whitespace is not W: the references rely on it."""
    isspace = [cp for cp in range(0x110000) if chr(cp).isspace()]
    if isspace != W_CODE_POINTS:
        sys.exit("python3 str.isspace() differs from W; the references below would be wrong")


def run_cases(helper, count, seed):
    check_references_agree()
    fold_ok = unicodedata.unidata_version in CASEFOLD_REFERENCE_VERSIONS
    if not fold_ok:
        print(f"note: Unicode {unicodedata.unidata_version}: casefold not compared")
    cases = generate_cases(count, seed)
    stdin = b"".join(struct.pack("<I", len(case)) + case for case in cases)
    reader = run_helper(helper, "cases", stdin)
    failures = []

    def expect(case, what, got, want):
        if got != want:
            failures.append(f"{what} of {case!r}: memkit {got!r}, python3 {want!r}")

    def view(case, what, want):
        offset, length = reader.uint(4), reader.uint(4)
        if offset + length > len(case):
            failures.append(f"{what} of {case!r}: view {offset}+{length} outside the input")
            return
        expect(case, what, case[offset:offset + length].decode("utf-8", "replace"), want)

    for case in cases:
        text = case.decode("utf-8", "replace")
        try:
            case.decode("utf-8")
            first_bad = None
        except UnicodeDecodeError as error:
            first_bad = error.start
        bad = reader.uint(8)
        expect(case, "find_invalid_utf8", None if bad == 2**64 - 1 else bad, first_bad)
        expect(case, "to_valid_utf8", reader.blob(), text.encode())
        expect(case, "decode_utf8 + append_utf8", reader.blob(), text.encode())
        tokens = reader.uint(8)
        expect(case, "estimate_tokens", tokens, tokens_reference(text))
        expect(case, "token regex (reference self-check)", tokens, len(TOKEN_REGEX.findall(text)))
        folded = reader.blob()
        if fold_ok:
            expect(case, "casefold", folded, text.casefold().encode())
        view(case, "strip_w", text.strip(W))
        view(case, "lstrip_w", text.lstrip(W))
        view(case, "rstrip_w", text.rstrip(W))
        expect(case, "collapse_w", reader.blob().decode("utf-8", "replace"),
               collapse_reference(text))
    if reader.pos != len(reader.data):
        failures.append("the helper wrote more output than there were cases")
    return report(failures, f"{len(cases)} random byte strings (seed {seed})")


def run_all_code_points(helper):
    if unicodedata.unidata_version not in CASEFOLD_REFERENCE_VERSIONS:
        print(f"skipped: python3 has Unicode {unicodedata.unidata_version}, not one of "
              f"{', '.join(CASEFOLD_REFERENCE_VERSIONS)}")
        return SKIP
    reader = run_helper(helper, "all-code-points")
    failures = []
    checked = 0
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        got = reader.blob()
        want = chr(cp).casefold().encode()
        checked += 1
        if got != want:
            failures.append(f"casefold(U+{cp:04X}): memkit {got!r}, python3 {want!r}")
    return report(failures, f"casefold of {checked} code points")


if __name__ == "__main__":
    sys.exit(main(__doc__, run_cases, run_all_code_points))
