"""A JSON Schema (2020-12) checker for the keywords memkit's schemas use, standard library only:
type, const, enum, required, properties, additionalProperties (false), items, minimum, maximum,
pattern, oneOf and $ref (within the schema, or "ID#/path" into another schema of `known`, by its
$id). A keyword it does not know is an error, so a schema cannot lean on
a rule nobody checks.

usage: errors(instance, schema, known=[other schemas]) -> list of "path: problem" (empty when the
instance conforms)
"""
import re

ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
KNOWN = ANNOTATIONS | {"type", "const", "enum", "required", "properties", "additionalProperties",
                       "items", "minimum", "maximum", "pattern", "oneOf", "$ref"}


def _is(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError("unknown type " + name)


def _resolve(root, ref, known):
    """The schema `ref` names, and the root its own references are resolved in."""
    name, _, pointer = ref.partition("#")
    if name:
        matches = [s for s in known if s.get("$id") == name]
        if len(matches) != 1:
            raise ValueError("no schema of $id %s to resolve %s" % (name, ref))
        root = matches[0]
    node = root
    for part in pointer.lstrip("/").split("/") if pointer.strip("/") else []:
        node = node[part]
    return node, root


def errors(instance, schema, known=(), root=None, path="$"):
    root = schema if root is None else root
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError("%s: keywords this checker does not know: %s" % (path, sorted(unknown)))
    out = []
    if "$ref" in schema:
        target, target_root = _resolve(root, schema["$ref"], known)
        out += errors(instance, target, known, target_root, path)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(instance, n) for n in names):
            return out + ["%s: %r is not of type %s" % (path, instance, "/".join(names))]
    if "const" in schema and instance != schema["const"]:
        out.append("%s: %r is not %r" % (path, instance, schema["const"]))
    if "enum" in schema and instance not in schema["enum"]:
        out.append("%s: %r is none of %r" % (path, instance, schema["enum"]))
    if "oneOf" in schema:
        matching = [s for s in schema["oneOf"] if not errors(instance, s, known, root, path)]
        if len(matching) != 1:
            out.append("%s: matches %d of oneOf's schemas, not one" % (path, len(matching)))
    if _is(instance, "number"):
        if "minimum" in schema and instance < schema["minimum"]:
            out.append("%s: %r is under %r" % (path, instance, schema["minimum"]))
        if "maximum" in schema and instance > schema["maximum"]:
            out.append("%s: %r is over %r" % (path, instance, schema["maximum"]))
    if isinstance(instance, str) and "pattern" in schema:
        if re.search(schema["pattern"], instance) is None:
            out.append("%s: %r does not match %s" % (path, instance, schema["pattern"]))
    if isinstance(instance, dict):
        for name in schema.get("required", []):
            if name not in instance:
                out.append("%s: %s is missing" % (path, name))
        properties = schema.get("properties", {})
        for name, value in instance.items():
            if name in properties:
                out += errors(value, properties[name], known, root, path + "." + name)
            elif schema.get("additionalProperties", True) is False:
                out.append("%s: %s is not in the schema" % (path, name))
    if isinstance(instance, list) and "items" in schema:
        for i, value in enumerate(instance):
            out += errors(value, schema["items"], known, root, "%s[%d]" % (path, i))
    return out
