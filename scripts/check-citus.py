#!/usr/bin/env python3
"""Fails when a tenant migration uses a construct that would not work in a Citus distributed schema.

Every client schema is meant to become a Citus distributed schema (schema-based sharding, Citus 12+). The rules
below are the ones docs/scale-out.md marks unsupported, each with the section of that document that explains it.
Run by scripts/test among the gates; `python3 scripts/check-citus.py [files…]` checks other files.
"""
import pathlib
import re
import sys

DOC = "docs/scale-out.md"

# (rule, section of the document, pattern over a statement with comments removed, lower-cased)
RULES = [
    ("a rule (CREATE RULE): Citus does not support the rule system",
     "Tenant schemas: unsupported constructs (1)", r"\bcreate\s+(or\s+replace\s+)?rule\b"),
    ("a foreign key to a table in another schema: only same-schema keys (or to reference tables) work",
     "Tenant schemas: unsupported constructs (2)", r"\breferences\s+\"?\w+\"?\s*\.\s*\"?\w+"),
    ("a name in another schema (public., client_…, pg_temp.): a tenant migration touches only its own schema",
     "Tenant schemas: unsupported constructs (2)",
     r"(?<![\w.])(public|client_\w+|pg_temp)\s*\.\s*\"?[a-z_]"),
    ("table inheritance (INHERITS): tables in a distributed schema cannot inherit or be inherited",
     "Tenant schemas: unsupported constructs (3)", r"\binherits\s*\("),
    ("a partition of a table in another schema",
     "Tenant schemas: unsupported constructs (3)", r"\bpartition\s+of\s+\"?\w+\"?\s*\."),
    ("a foreign table in a distributed schema",
     "Tenant schemas: unsupported constructs (4)", r"\bcreate\s+foreign\s+table\b"),
    ("a sequence smaller than bigint (serial, smallserial, int/smallint identity, CREATE SEQUENCE AS int)",
     "Tenant schemas: unsupported constructs (5)",
     r"\b(small)?serial[24]?\b|\b(int|int2|int4|integer|smallint)\s+(not\s+null\s+)?generated\s+(always|by\s+default)"
     r"\s+as\s+identity|\bcreate\s+sequence\b[^;]*\bas\s+(int|int2|int4|integer|smallint)\b"),
    ("CREATE SCHEMA in a tenant migration: schemas are made (and distributed) by the registry, not by migrations",
     "Tenant schemas: unsupported constructs (6)", r"\bcreate\s+schema\b"),
    ("CREATE EXTENSION in a tenant migration: extensions live in the shared `extensions` schema",
     "Tenant schemas: unsupported constructs (6)", r"\bcreate\s+extension\b"),
    ("a VOLATILE function (random, nextval, clock_timestamp, gen_random_uuid …) in an UPDATE",
     "Tenant schemas: unsupported constructs (7)",
     r"^\s*(with\b.*)?\bupdate\b.*\b(random|nextval|setval|clock_timestamp|timeofday|gen_random_uuid|uuid_generate_v4)\s*\("),
    ("LISTEN in a migration: notifications are node-local",
     "Tenant schemas: supported with care (LISTEN/NOTIFY)", r"^\s*listen\b"),
]


def statements(text):
    """The file's statements with comments removed (dollar-quoted bodies are split on ';' too, on purpose:
    a statement inside a function body runs through Citus's planner as well)."""
    text = re.sub(r"--[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    line = 1
    for part in text.split(";"):
        yield line + part[: len(part) - len(part.lstrip())].count("\n"), " ".join(part.lower().split())
        line += part.count("\n")


def check(path):
    found = []
    text = path.read_text(encoding="utf-8")
    # Naming other schemas inside string literals (messages) is harmless: literals are blanked first.
    text = re.sub(r"'(?:[^']|'')*'", "''", text)
    for line, stmt in statements(text):
        for rule, section, pattern in RULES:
            if re.search(pattern, stmt):
                found.append(f"{path}:{line}: {rule} (see {DOC}, \"{section}\")")
    return found


def main(args):
    root = pathlib.Path(__file__).resolve().parent.parent
    files = [pathlib.Path(a) for a in args] or sorted((root / "migrations" / "tenant").glob("*.sql"))
    problems = [p for f in files for p in check(f)]
    for p in problems:
        print(p)
    if problems:
        print(f"citus check: {len(problems)} construct(s) a distributed schema does not support", file=sys.stderr)
        return 1
    print(f"citus check: {len(files)} tenant migrations, {len(RULES)} rules, nothing unsupported")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
