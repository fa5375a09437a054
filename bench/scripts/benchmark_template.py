"""The template language of bench/benchmarks.md.in, kept small and strict (the formats and hooks
are listed in bench/scripts/benchmarks_md.py): placeholders looked up in the results through each
source's view, figures formatted, tables made by hooks, paragraphs wrapped again. A missing value,
a wrong type or an unknown format fails the render. Standard library only."""
import copy
import math
import re
import textwrap

class RenderError(Exception):
    pass


UNITS = {
    "s": ("time", 1.0), "ms": ("time", 1e-3), "µs": ("time", 1e-6), "us": ("time", 1e-6),
    "ns": ("time", 1e-9),
    "GB/s": ("rate", 1e9), "MB/s": ("rate", 1e6), "B/s": ("rate", 1.0),
    "GiB": ("size", 2**30), "MiB": ("size", 2**20), "KiB": ("size", 2**10), "MB": ("size", 1e6),
    "B": ("size", 1.0),
}
PLAIN = {"int", "num", "ratio", "pct", "text"}


def at(where):
    """The prefix of an error message: where in the template (or a table) it happened."""
    return f"{where}: " if where else ""


def significant(value, digits=3):
    """Three significant digits, whole numbers with separators from 1,000 up."""
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return f"{round(value):,}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:.{decimals}f}"
    if abs(float(text)) >= 1000:  # 999.7 rounds up to 1000
        return f"{round(value):,}"
    return text


def fixed(value, decimals):
    return f"{value:,.{decimals}f}"


def format_value(value, spec, where):
    spec = spec or ""
    digits = None
    if ":" in spec:
        spec, digits_text = spec.split(":", 1)
        if not digits_text.isdigit():
            raise RenderError(f"{at(where)}bad digits in format :{digits_text}")
        digits = int(digits_text)
    if spec == "text" or (spec == "" and isinstance(value, str)):
        if not isinstance(value, str):
            raise RenderError(f"{at(where)}format text wants a string, the value is {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RenderError(f"{at(where)}a number was expected, the value is {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise RenderError(f"{at(where)}the value is {value}")
    if spec == "":
        raise RenderError(f"{at(where)}a number needs a format (|ms, |int, ...)")
    show = (lambda x: fixed(x, digits)) if digits is not None else significant
    if spec == "int":
        return f"{round(value):,}"
    if spec in ("num", "ratio"):
        return show(value)
    if spec == "pct":
        return show(value) + " %"
    source_unit, _, unit = spec.rpartition(">")
    if unit == "time":  # the unit that shows the value best: s, ms or µs
        if UNITS.get(source_unit or "s", ("size",))[0] != "time":
            raise RenderError(f"{at(where)}cannot show {source_unit} as a time")
        seconds = value * UNITS[source_unit or "s"][1]
        unit = "s" if seconds >= 1 else "ms" if seconds >= 1e-3 else "µs"
        value, source_unit = seconds, "s"
    if unit not in UNITS:
        raise RenderError(f"{at(where)}unknown format {spec!r}")
    kind, scale = UNITS[unit]
    base = {"time": "s", "rate": "B/s", "size": "B"}[kind]
    source_unit = source_unit or base
    if source_unit not in UNITS or UNITS[source_unit][0] != kind:
        raise RenderError(f"{at(where)}cannot show {source_unit} as {unit}")
    shown_unit = "µs" if unit == "us" else unit
    return f"{show(value * UNITS[source_unit][1] / scale)} {shown_unit}"


PATH_PART = re.compile(r"\[([^\]]*)\]|([^.\[\]]+)")


def split_path(path, where):
    parts, at = [], 0
    while at < len(path):
        match = PATH_PART.match(path, at)
        if not match:
            raise RenderError(f"{at(where)}cannot read the path {path!r}")
        parts.append(match.group(1) if match.group(1) is not None else match.group(2))
        at = match.end()
        if at < len(path):
            if path[at] == ".":
                at += 1
            elif path[at] != "[":
                raise RenderError(f"{at(where)}cannot read the path {path!r}")
    return parts


class Values:
    """The results seen through each source's view; every lookup fails loudly."""

    def __init__(self, results, views, on_request=()):
        """views: each source's name -> the function from its raw results to what the template
        reads; on_request: the sources a full run measures only when asked (not in its time)."""
        self.results = results
        self.view_of = views
        self.on_request = set(on_request)
        self.views = {}

    def view(self, name, where):
        if name == "machine":
            return self.results["machine"]
        if name == "run":
            dates = sorted(s["measured"][:10] for s in self.results["sources"].values())
            if not dates:
                raise RenderError(f"{at(where)}bench/results.json has no source")
            seconds = sum(s["seconds"] for n, s in self.results["sources"].items()
                          if n not in self.on_request)
            return {"first": dates[0], "last": dates[-1], "minutes": seconds / 60,
                    "dates": dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"}
        if name not in self.views:
            source = self.results["sources"].get(name)
            if source is None:
                if name in self.view_of:
                    raise RenderError(f"{at(where)}the source {name} has no results yet "
                                      f"(measure it: --only {name})")
                raise RenderError(f"{at(where)}no source is named {name}")
            raw = copy.deepcopy(source["results"])  # a view may add to what it is given
            try:
                self.views[name] = self.view_of.get(name, lambda r: r)(raw)
            except (KeyError, IndexError, TypeError, ZeroDivisionError) as error:
                raise RenderError(f"{at(where)}the results of {name} are not what the view of "
                                  f"{name} reads: {error!r}") from error
        return self.views[name]

    def get(self, path, where=""):
        parts = split_path(path, where)
        value = self.view(parts[0], where)
        for i, part in enumerate(parts[1:], 1):
            if isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                known = ", ".join(sorted(value)[:12]) if isinstance(value, dict) else ""
                raise RenderError(f"{at(where)}{'.'.join(parts[:i + 1])} is missing"
                                  + (f" (there: {known}...)" if known else ""))
        if value is None:
            raise RenderError(f"{at(where)}{path} is null")
        return value

    def show(self, path, spec, where=""):
        return format_value(self.get(path, where), spec, f"{where} ({path})")

    def source(self, name, where):
        if name not in self.results["sources"]:
            self.view(name, where)  # fails with the reason
        return self.results["sources"][name]

def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def commands_block(v, names, where, machine_keys):
    lines = ["```"]
    for name in names:
        source = v.source(name, where)
        machine = source["machine"]
        current = v.results["machine"]
        note = f"# {name}: measured {source['measured'][:10]}, load average " \
               f"{source['load_average_before'][0]:.1f} before, {source['seconds']:.0f} s"
        if any(machine.get(k) != current.get(k) for k in machine_keys):
            note += (f"; on another machine: {machine['cpu']}, {machine['cores']} cores, "
                     f"{machine['kernel']}, {machine['compiler']}, {machine['build_type']}")
        if source.get("quick"):
            note += "; QUICK (tiny sizes)"
        lines.append(note)
        lines += source["commands"]
    lines.append("```")
    return "\n".join(lines)


PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}", re.S)


def render(template, values, tables, machine_keys):
    """The page: every placeholder of the template replaced, or RenderError listing each one
    that could not be. machine_keys: what makes two machines the same one."""
    errors = []
    results = values.results

    def replace(match):
        body = match.group(1)
        line = template.count("\n", 0, match.start()) + 1
        where = f"bench/benchmarks.md.in:{line}"
        try:
            if body.startswith("table:"):
                name = body[len("table:"):]
                if name not in tables:
                    raise RenderError(f"{at(where)}no table is named {name!r}")
                try:
                    return tables[name](values)
                except RenderError as error:
                    raise RenderError(f"{at(where)}table {name}: {error}") from error
                except (KeyError, TypeError, IndexError, ZeroDivisionError) as error:
                    raise RenderError(f"{at(where)}table {name}: {error!r}") from error
            if body.startswith("commands:"):
                return commands_block(values, body[len("commands:"):].split(","), where,
                                      machine_keys)
            match = re.fullmatch(r"((?:\[[^\]]*\]|[^\s{}|\[\]])+)(?:\|([^\s{}|]+))?", body)
            if not match:
                raise RenderError(f"{at(where)}not a placeholder: {{{{{body}}}}}")
            return values.show(match.group(1), match.group(2) or "", where)
        except RenderError as error:
            errors.append(str(error))
            return "?"

    text = PLACEHOLDER.sub(replace, template)
    if "{{" in text or "}}" in text:
        errors.append("bench/benchmarks.md.in: an unclosed {{ or a stray }}")
    if errors:
        raise RenderError("\n".join(errors))
    text = reflow(text)
    quick = sorted(n for n, s in results["sources"].items() if s.get("quick"))
    if quick:
        text = ("> **QUICK RUN (`--quick`): tiny sizes, one repetition; these are not figures to "
                f"publish.** Sources: {', '.join(quick)}.\n\n" + text)
    return text


WIDTH = 100


def reflow(text):
    """Paragraphs and list items wrapped again at WIDTH columns once their figures are in:
    headings, tables, quotes and fenced blocks stay as they are."""
    out, paragraph, fenced = [], [], False

    def flush():
        if paragraph:
            first = paragraph[0]
            indent = "  " if first.startswith("- ") else ""
            words = " ".join(line.strip() for line in paragraph)
            out.extend(textwrap.wrap(words, WIDTH, subsequent_indent=indent,
                                     break_long_words=False, break_on_hyphens=False))
            paragraph.clear()

    for line in text.split("\n"):
        if line.startswith("```"):
            flush()
            fenced = not fenced
            out.append(line)
        elif fenced or not line.strip() or line.startswith(("#", "|", ">")):
            flush()
            out.append(line)
        else:
            if line.startswith("- "):
                flush()
            paragraph.append(line)
    flush()
    return "\n".join(out)
