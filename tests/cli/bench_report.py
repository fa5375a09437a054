#!/usr/bin/env python3
"""The HTML reports of `memkit bench compaction --report` and `bench recall --report` (issue 32),
as a browser draws them.

  * the CLI writes each page beside its JSON: one self-contained page, an <svg> per plot
    (compaction: time, throughput, memory; recall: latency against matches), nothing fetched;
  * headless Chromium renders each page twice at the same size: as it is, and with each <svg>
    replaced by a magenta block of the same width and height. The blocks say where each plot is
    on the first screenshot (and that nothing else moved), and each plot must be drawn there:
    ink on the white; in compaction's, the colour of every phase and process as a line across
    its plot area, from the smaller size to the larger; in recall's, the marks of every shape of
    query.

Reads the screenshots with the standard library (zlib and struct). Exits 77 (skipped) when
Chromium is not installed; scripts/bootstrap installs it.

usage: bench_report.py MEMKIT
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from itertools import accumulate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_environment import environment  # noqa: E402

SKIP = 77
EXAMPLE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "examples", "project"))
WINDOW = (1100, 3600)  # the three plots of two sizes end near y = 2300
MAGENTA = (255, 0, 255)
# The colours of src/bench/report_plots.cpp: the phases, the whole processes, the bench process;
# and of src/bench/report_recall.cpp: the shapes of query.
PHASE_COLORS = {"read": "#4e79a7", "plan": "#f28e2b", "hash": "#59a14f", "report": "#b07aa1",
                "apply": "#e15759"}
PROCESS_COLORS = {"dry run": "#24292f", "apply": "#9c755f"}
BENCH_PROCESS_COLOR = "#0969da"
SHAPE_COLORS = {"one word": "#4e79a7", "all of": "#f28e2b", "any of": "#59a14f"}


def rgb(color):
    return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))


# PNG, 8 bits per channel, RGB or RGBA, not interlaced: what Chromium writes.

NONZERO = re.compile(rb"[^\x00]")


def unfilter_paeth(line, prev, bpp):
    # Paeth predicts a byte from its left (a), upper (b) and upper-left (c) neighbours: a when
    # b == c, b when a == c. So where the filtered bytes are 0, a run either repeats the row above
    # (a == c at its start) or repeats its left pixel (the row above constant there): both are
    # copied a stretch at a time, which makes a screenshot of a mostly white page quick to read.
    n = len(line)
    out = bytearray(n)
    zero = bytes(bpp)
    i = 0
    while i < n:
        if i >= bpp and line[i:i + bpp] == zero:
            found = NONZERO.search(line, i)
            end = found.start() if found else n
            end -= (end - i) % bpp
            if out[i - bpp:i] == prev[i - bpp:i]:
                out[i:end] = prev[i:end]
                i = end
                continue
            upper_left = bytes(prev[i - bpp:i])
            if prev[i:i + bpp] == upper_left:
                left = bytes(out[i - bpp:i])
                j = i + bpp
                k = 1
                while k:
                    stop = j + k * bpp
                    if stop <= end and prev[j:stop] == upper_left * k:
                        j = stop
                        k *= 2
                    else:
                        k //= 2
                out[i:j] = left * ((j - i) // bpp)
                i = j
                continue
        for x in range(i, i + bpp):
            a, c = (out[x - bpp], prev[x - bpp]) if x >= bpp else (0, 0)
            b = prev[x]
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            out[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        i += bpp
    return out


def read_png(path):
    """(width, height, bytes per pixel, rows of bytes)"""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    at, chunks, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in (2, 6) or interlace != 0:
        raise ValueError("%s: depth %d, colour type %d, interlace %d not read here" %
                         (path, depth, color_type, interlace))
    bpp = 3 if color_type == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(b"".join(chunks))
    low7 = int.from_bytes(b"\x7f" * stride, "big")
    high1 = int.from_bytes(b"\x80" * stride, "big")
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:  # Sub: a running sum along each channel
            for c in range(bpp):
                line[c::bpp] = bytes(v & 255 for v in accumulate(line[c::bpp]))
        elif kind == 2:  # Up: bytewise addition without carries, on the whole row at once
            x, u = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = bytearray((((x & low7) + (u & low7)) ^ ((x ^ u) & high1)).to_bytes(stride, "big"))
        elif kind == 3:  # Average
            for i in range(stride):
                line[i] = (line[i] + (((line[i - bpp] if i >= bpp else 0) + prev[i]) >> 1)) & 255
        elif kind == 4:
            line = unfilter_paeth(line, prev, bpp)
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def screenshot(chromium, html_path, png_path, profile):
    return subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
         "--disable-background-networking", "--disable-dev-shm-usage",
         "--user-data-dir=" + profile, "--window-size=%d,%d" % WINDOW,
         "--screenshot=" + png_path, "file://" + html_path],
        env=dict(os.environ, HOME=profile, XDG_CONFIG_HOME=profile, XDG_CACHE_HOME=profile),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def magenta_blocks(width, bpp, rows):
    """The magenta rectangles of a screenshot, as (left, top, right, bottom), right and bottom
    excluded: rows holding the same long run of magenta, grouped."""
    pattern = bytes(MAGENTA) + (b"\xff" if bpp == 4 else b"")
    run = re.compile(b"(?:" + re.escape(pattern) + b"){100,}")
    blocks = []
    for y, row in enumerate(rows):
        spans = [(m.start() // bpp, m.end() // bpp) for m in run.finditer(row)
                 if m.start() % bpp == 0]
        for left, right in spans:
            last = blocks[-1] if blocks else None
            if last and last[3] == y and (last[0], last[2]) == (left, right):
                last[3] = y + 1
            else:
                blocks.append([left, y, right, y + 1])
    return [tuple(b) for b in blocks if b[3] - b[1] >= 20]


def colours_in(rows, bpp, box, wanted, tolerance=18):
    """Within box: the pixels that are not white, and for each wanted colour (name -> rgb) the x
    of every pixel close to it."""
    left, top, right, bottom = box
    cache = {}
    ink = 0
    found = {name: [] for name in wanted}
    for y in range(top, bottom):
        row = rows[y]
        for x, r, g, b in zip(range(left, right), row[left * bpp:right * bpp:bpp],
                              row[left * bpp + 1:right * bpp:bpp],
                              row[left * bpp + 2:right * bpp:bpp]):
            if r >= 240 and g >= 240 and b >= 240:
                continue
            ink += 1
            key = (r, g, b)
            if key not in cache:
                cache[key] = [name for name, (wr, wg, wb) in wanted.items()
                              if abs(wr - r) <= tolerance and abs(wg - g) <= tolerance and
                              abs(wb - b) <= tolerance]
            for name in cache[key]:
                found[name].append(x)
    return ink, found


def render(chromium, work, name, report, check):
    """Screenshots of the page as it is and with each plot a magenta block: (the drawn rows, their
    bytes per pixel, the plots' boxes), or None when that could not be made out."""
    with open(report, encoding="utf-8") as f:
        page = f.read()
    check("%s page: nothing fetched" % name,
          set(re.findall(r"https?://[^\s\"'<>)]*", page)) <= {"http://www.w3.org/2000/svg"} and
          not re.search(r"<script|<link|<img|@import|url\(", page, re.I))
    # The same page with each plot a magenta block of its size.
    sizes = []

    def block(match):
        width = int(re.search(r'\bwidth="(\d+)"', match.group(0)).group(1))
        height = int(re.search(r'\bheight="(\d+)"', match.group(0)).group(1))
        sizes.append((width, height))
        return ('<div style="display:block;width:%dpx;height:%dpx;background:#ff00ff"></div>' %
                (width, height))

    blocked = re.sub(r"<svg\b.*?</svg>", block, page, flags=re.S)
    blocked_path = os.path.join(work, name + "-blocked.html")
    with open(blocked_path, "w", encoding="utf-8") as f:
        f.write(blocked)

    shots = {}
    renders = []
    for kind, path in (("drawn", report), ("blocked", blocked_path)):
        png = os.path.join(work, "%s-%s.png" % (name, kind))
        profile = os.path.join(work, "chromium-%s-%s" % (name, kind))
        os.mkdir(profile)
        renders.append((kind, png, screenshot(chromium, path, png, profile)))
    for kind, png, process in renders:
        try:
            output = process.communicate(timeout=60)[0].decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            process.kill()
            output = process.communicate()[0].decode("utf-8", "replace")
        if check("chromium: %s %s rendered" % (name, kind), process.returncode == 0 and
                 os.path.isfile(png), output):
            shots[kind] = read_png(png)
    if len(shots) < 2:
        return None

    width, height, bpp, drawn = shots["drawn"]
    _, _, blocked_bpp, blocked_rows = shots["blocked"]
    check("%s screenshot: the window's size" % name, (width, height) == WINDOW,
          repr((width, height)))
    blocks = magenta_blocks(width, blocked_bpp, blocked_rows)
    if not check("%s screenshot: a block where each plot is" % name,
                 [(r - l, b - t) for l, t, r, b in blocks] == sizes,
                 "blocks %r, plots %r (past the bottom of the window?)" % (blocks, sizes)):
        return None
    check("%s screenshot: no magenta where the plots are drawn" % name,
          not magenta_blocks(width, bpp, drawn))
    covered = set()
    for _, top, _, bottom in blocks:
        covered.update(range(top, bottom))
    moved = [y for y in range(height) if y not in covered and drawn[y] != blocked_rows[y]]
    check("%s screenshot: nothing but the plots differs" % name, not moved,
          "rows %r..." % moved[:10])
    return drawn, bpp, blocks


def plot_area(box):
    """The plot area: right of the y axis's labels, above the x axis's, left of the legend."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    return (left + w * 10 // 100, top, left + w * 74 // 100, top + h * 86 // 100)


def compaction_report(memkit, chromium, work, check):
    project = os.path.join(work, "project")
    shutil.copytree(EXAMPLE, project)
    scratch = os.path.join(work, "tmp")
    os.mkdir(scratch)
    report = os.path.join(work, "report.html")
    done = subprocess.run([memkit, "bench", "compaction", "--project-root", project, "--sizes",
                           "64K,256K", "--runs", "1", "--report", report, "--format", "json"],
                          env=dict(environment(), TMPDIR=scratch), capture_output=True,
                          text=True, timeout=120)
    if not check("compaction cli: exit 0", done.returncode == 0, done.stdout + done.stderr):
        return
    data = json.loads(done.stdout)["data"]
    check("compaction cli: two sizes", [s["size"] for s in data["sizes"]] == [65536, 262144],
          done.stdout)
    if not check("compaction cli: the report written", os.path.isfile(report)):
        return
    with open(report, encoding="utf-8") as f:
        page = f.read()
    svgs = re.findall(r"<svg\b[^>]*>", page)
    check("compaction page: three plots", len(svgs) == 3, "\n".join(svgs))
    check("compaction page: the command", "memkit bench compaction" in page and "64K,256K" in page)
    rendered = render(chromium, work, "compaction", report, check)
    if rendered is None:
        return
    drawn, bpp, blocks = rendered

    processes = [p["step"] for p in data["sizes"][0]["processes"]]
    phase_and_process = dict({"%s" % k: rgb(v) for k, v in PHASE_COLORS.items()},
                             **{"%s process" % k: rgb(PROCESS_COLORS[k]) for k in processes})
    memory = dict({"bench process": rgb(BENCH_PROCESS_COLOR)},
                  **{"%s process" % k: rgb(PROCESS_COLORS[k]) for k in processes})
    for box, title, wanted in zip(blocks, ("time", "throughput", "memory"),
                                  (phase_and_process, phase_and_process, memory)):
        area = plot_area(box)
        ink, found = colours_in(drawn, bpp, area, wanted)
        pixels = (area[2] - area[0]) * (area[3] - area[1])
        check("%s: drawn (%d of %d pixels not white)" % (title, ink, pixels),
              ink >= pixels * 2 // 100)
        hidden = []
        for name, xs in found.items():
            # Markers at 64 KiB and at 256 KiB (two octaves of an axis of about five apart),
            # and the line between them, away from either marker.
            first, last = (min(xs), max(xs)) if xs else (0, 0)
            between = sum(1 for x in xs if first + 15 < x < last - 15)
            check("%s: %s drawn (%d pixels)" % (title, name, len(xs)), len(xs) >= 5)
            if last - first < (area[2] - area[0]) // 4 or between < 20:
                hidden.append("%s (%d pixels, x %d to %d, %d between its markers)" %
                              (name, len(xs), first, last, between))
        # Two phases that took the same time at both sizes draw one line over the other (one
        # timed run is noisy enough for that to happen now and then): one line mostly
        # hidden is allowed per plot, no more.
        check("%s: a line from size to size for each series" % title, len(hidden) <= 1,
              ", ".join(hidden))


def recall_report(memkit, chromium, work, check):
    scratch = os.path.join(work, "recall-tmp")
    os.mkdir(scratch)
    report = os.path.join(work, "recall.html")
    done = subprocess.run([memkit, "bench", "recall", "--synthetic", "2000", "--runs", "1",
                           "--queries", "300", "--report", report, "--format", "json"],
                          env=dict(environment(), TMPDIR=scratch), capture_output=True,
                          text=True, timeout=120)
    if not check("recall cli: exit 0", done.returncode == 0, done.stdout + done.stderr):
        return
    shapes = [s["shape"] for s in json.loads(done.stdout)["data"]["queries"]["shapes"]]
    check("recall cli: every shape drawn", shapes == list(SHAPE_COLORS), repr(shapes))
    if not check("recall cli: the report written", os.path.isfile(report)):
        return
    rendered = render(chromium, work, "recall", report, check)
    if rendered is None:
        return
    drawn, bpp, blocks = rendered
    if not check("recall: one plot", len(blocks) == 1, repr(blocks)):
        return
    area = plot_area(blocks[0])
    ink, found = colours_in(drawn, bpp, area, {k: rgb(v) for k, v in SHAPE_COLORS.items()})
    pixels = (area[2] - area[0]) * (area[3] - area[1])
    check("recall latency: drawn (%d of %d pixels not white)" % (ink, pixels),
          ink >= pixels * 2 // 100)
    for shape, xs in found.items():
        # 300 queries, a third of each shape: marks of nine pixels across, some of them apart.
        check("recall latency: marks of %s (%d pixels over x %d to %d)" %
              (shape, len(xs), min(xs, default=0), max(xs, default=0)),
              len(xs) >= 200 and max(xs) - min(xs) >= (area[2] - area[0]) // 10)


def main():
    memkit = os.path.abspath(sys.argv[1])
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("skipped: chromium is not installed (scripts/bootstrap installs it)")
        return SKIP
    failures = []

    def check(label, condition, text=""):
        if not condition:
            failures.append(label + ("\n" + text[:3000] if text else ""))
        return condition

    with tempfile.TemporaryDirectory(prefix="memkit-bench-report-") as work:
        compaction_report(memkit, chromium, work, check)
        recall_report(memkit, chromium, work, check)
    return report_failures(failures)


def report_failures(failures):
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
