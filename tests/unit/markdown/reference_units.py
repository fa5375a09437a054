#!/usr/bin/env python3
"""Differential test: `memkit markdown units` against an independent Python reading of spec
compaction.md §2.3-§2.5 and §6.1-§6.4, on generated files (fixed seed).

usage: reference_units.py MEMKIT_BINARY [CASES]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

W = set(chr(c) for c in [*range(0x09, 0x0E), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680,
                         *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000])


def strip_w(s):
    return s.strip("".join(W))


def rstrip_w(s):
    return s.rstrip("".join(W))


def split_lines(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = []
    for piece in data.split(b"\n"):
        lines.append(piece)
    if lines and lines[-1] == b"":
        lines.pop()  # the text after the last LF is empty: no unterminated last line
    # content: drop the CR of a CRLF terminator (only for terminated lines)
    out = []
    terminated = data.endswith(b"\n")
    for i, line in enumerate(lines):
        is_terminated = i < len(lines) - 1 or terminated
        if is_terminated and line.endswith(b"\r"):
            line = line[:-1]
        out.append(line.decode("utf-8", "replace"))
    return out


def is_blank(c):
    return all(ch in " \t" for ch in c)


def lead_spaces(c):
    n = len(c) - len(c.lstrip(" "))
    return n


def fence_open(c):
    n = lead_spaces(c)
    if n > 3:
        return None
    rest = c[n:]
    for ch in "`~":
        run = len(rest) - len(rest.lstrip(ch))
        if run >= 3:
            if ch == "`" and "`" in rest[run:]:
                return None
            return (ch, run)
    return None


def fence_close(c, ch, length):
    n = lead_spaces(c)
    if n > 3:
        return False
    rest = c[n:]
    run = len(rest) - len(rest.lstrip(ch))
    return run >= length and is_blank(rest[run:])


def comment_open(c):
    n = lead_spaces(c)
    return n + 4 if n <= 3 and c[n:].startswith("<!--") else None


def thematic(c):
    s = c.replace(" ", "").replace("\t", "")
    return len(s) >= 3 and s[0] in "-*_" and s == s[0] * len(s)


def heading_level(c):
    n = len(c) - len(c.lstrip("#"))
    if 1 <= n <= 6 and (len(c) == n or c[n] in " \t"):
        return n
    return 0


def formal(text):
    t = text.upper()
    return t.startswith("MC-") and any(t[3:].startswith(k + "-") for k in
                                       ("DEC", "CON", "DNU", "PREF", "AREA", "INBOX", "TOMB"))


def casefold_key_bullet(lines):
    first = strip_w(lines[0][2:])
    rest = [rstrip_w(l) for l in lines[1:]]
    return strip_w("\n".join([first] + rest)).casefold()


def reference(data):
    lines = split_lines(data)
    n = len(lines)
    # Pass 1: opaque regions and openers.
    opaque = [False] * n
    region_of = [None] * n  # (kind, first, last) for the opener line
    start = 0
    if n and lines[0].rstrip(" \t") == "---":
        for j in range(1, n):
            if lines[j].rstrip(" \t") in ("---", "..."):
                for k in range(0, j + 1):
                    opaque[k] = True
                region_of[0] = ("front_matter", 0, j)
                start = j + 1
                break
    i = start
    while i < n:
        c = lines[i]
        f = fence_open(c)
        co = None if f else comment_open(c)
        if f or co is not None:
            j = i + 1
            if f:
                while j < n and not fence_close(lines[j], f[0], f[1]):
                    j += 1
                if j == n:
                    return None, ("unclosed_fence", i + 1)
            else:
                if "-->" in c[co:]:
                    j = i
                else:
                    while j < n and "-->" not in lines[j]:
                        j += 1
                    if j == n:
                        return None, ("unclosed_comment", i + 1)
            for k in range(i + 1, j + 1):
                opaque[k] = True
            region_of[i] = ("fence" if f else "comment", i, j)
            i = j + 1
        else:
            i += 1
    # Pass 2: units (§6.1) with formal sections (§2.5).
    kinds = [None] * n
    units = []
    formal_section = False
    open_unit = None  # [first, last_content]

    def close(at):
        nonlocal open_unit
        units.append(("bullet_unit", open_unit[0], open_unit[1]))
        for k in range(open_unit[0], open_unit[1] + 1):
            kinds[k] = "unit"
        open_unit = None

    i = 0
    while i < n:
        c = lines[i]
        if region_of[i] and region_of[i][0] == "front_matter":
            for k in range(0, region_of[i][2] + 1):
                kinds[k] = "front_matter"
            i = region_of[i][2] + 1
            continue
        if opaque[i]:
            if open_unit is not None:
                open_unit[1] = i
            i += 1
            continue
        if is_blank(c):
            i += 1
            continue
        indented = c[0] in " \t"
        if region_of[i]:
            if open_unit is not None and indented:
                open_unit[1] = i
            else:
                if open_unit is not None:
                    close(i)
                _, a, b = region_of[i]
                for k in range(a, b + 1):
                    kinds[k] = region_of[i][0]
            i += 1
            continue
        if indented:
            if open_unit is not None:
                open_unit[1] = i
            i += 1
            continue
        if open_unit is not None:
            close(i)
        lvl = heading_level(c)
        if lvl:
            kinds[i] = "heading"
            if lvl == 2:
                formal_section = formal(strip_w(c[2:]))
        elif not formal_section and len(c) >= 2 and c[0] in "-*+" and c[1] == " " and not thematic(c):
            open_unit = [i, i]
        i += 1
    if open_unit is not None:
        close(n)
    # Partition.
    unit_at = {u[1]: u for u in units}
    out = []
    i = 0
    while i < n:
        k = kinds[i]
        if k == "front_matter" or k in ("fence", "comment"):
            j = i
            while j + 1 < n and kinds[j + 1] == k and not (region_of[j + 1] and kinds[j + 1] != "front_matter"):
                j += 1
            if k in ("fence", "comment"):
                j = region_of[i][2]
            out.append({"kind": k, "first_line": i + 1, "last_line": j + 1, "key": None})
            i = j + 1
        elif k == "unit":
            u = unit_at[i]
            out.append({"kind": "bullet_unit", "first_line": i + 1, "last_line": u[2] + 1,
                        "key": casefold_key_bullet(lines[i:u[2] + 1])})
            i = u[2] + 1
        elif k == "heading":
            out.append({"kind": "heading", "first_line": i + 1, "last_line": i + 1,
                        "key": strip_w(lines[i].lstrip("#")).casefold()})
            i += 1
        else:
            kind = "blank" if is_blank(lines[i]) else "text"
            j = i
            while j + 1 < n and kinds[j + 1] is None and (("blank" if is_blank(lines[j + 1]) else "text") == kind):
                j += 1
            out.append({"kind": kind, "first_line": i + 1, "last_line": j + 1, "key": None})
            i = j + 1
    # Sections.
    sections = []
    h2 = [u["first_line"] for u in out if u["kind"] == "heading" and heading_level(lines[u["first_line"] - 1]) == 2]
    if n and (not h2 or h2[0] > 1):
        sections.append({"kind": "preamble", "first_line": 1,
                         "last_line": (h2[0] - 1) if h2 else n, "heading": None})
    for idx, first in enumerate(h2):
        end = (h2[idx + 1] - 1) if idx + 1 < len(h2) else n
        last = end
        while last > first and kinds[last - 1] is None and is_blank(lines[last - 1]):
            last -= 1
        sections.append({"kind": "section", "first_line": first, "last_line": last,
                         "heading": strip_w(lines[first - 1][2:])})
    return {"units": out, "sections": sections}, None


FRAGMENTS = ["- a", "* B", "+ c", "- ", "  nested", "\tindented", "    code", "```", "````",
             "~~~", "  ```", "```x`y", "~~~a~b", "<!--", "<!-- x -->", "-->", "  <!-- a", "---",
             "...", "# T", "## S", "## MC-DEC-1 x", "### sub", "####### no", "* * *", "- - -",
             "text", "", " ", "\t", "caf\u00e9", "Stra\u00dfe", "\u8a18", "Decision:", "1. item",
             "-x", "##", "##\tTab", "- \u00a0pad\u00a0", "a\rb"]


OPENERS = {"```", "````", "~~~", "  ```", "```x`y", "~~~a~b", "<!--", "  <!-- a"}


def fragment(rng):
    # Openers are drawn less often, so that most files close their regions and get units.
    while True:
        f = rng.choice(FRAGMENTS)
        if f not in OPENERS or rng.random() < 0.3:
            return f


def generate(rng):
    lines = []
    for _ in range(rng.randrange(0, 20)):
        line = fragment(rng)
        if rng.random() < 0.3:
            line += fragment(rng)
        lines.append(line)
    text = "".join(l + ("\r\n" if rng.random() < 0.1 else "\n") for l in lines)
    if text and rng.random() < 0.15:
        text = text.rstrip("\r\n")
    data = text.encode("utf-8")
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    return data


def main():
    binary = sys.argv[1]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    rng = random.Random(20261130)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.md")
        for case in range(cases):
            data = generate(rng)
            with open(path, "wb") as f:
                f.write(data)
            run = subprocess.run([binary, "markdown", "units", path, "--format", "json"],
                                 capture_output=True)
            got = json.loads(run.stdout)
            want, error = reference(data)
            if error:
                ok = got["data"]["units"] is None and run.returncode == 1 and \
                    any(f["code"] == "MK-PARSE-001" and f["message"].endswith(":%d: %s" % (
                        error[1], "unclosed code fence" if error[0] == "unclosed_fence"
                        else "unclosed HTML comment")) for f in got["findings"])
            else:
                ok = got["data"] == want
            if not ok:
                failures += 1
                if failures <= 3:
                    print("case %d differs\ninput: %r\nmemkit: %s\nreference: %s" % (
                        case, data, json.dumps(got["data"]), json.dumps(want or error)))
    print("%d passed, %d failed" % (cases - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
