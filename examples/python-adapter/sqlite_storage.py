#!/usr/bin/env python3
"""A session store in SQLite behind the subprocess adapter protocol, claiming the `storage` profile.

Its one operation, `store` (spec/20-storage.md), creates a database file, checks the header and each
batch against the lossless JSON domain (STORE-4), writes one transaction per batch, then reads the
session back on a new connection and reports it (STORE-2, STORE-3). It reuses adapter.py for the
protocol and the tagged values, and uses the standard library only.

    npx dsh-conformance run --adapter-cmd "python3 examples/python-adapter/sqlite_storage.py" --profile storage

To test your own store, replace SqliteStore; keep the domain check and the canonical header.
"""

import json
import math
import os
import sqlite3
import sys
import tempfile

from adapter import (HOLE, UNDEFINED, ForeignPrototypeDict, ForeignPrototypeList, NonPlainDict, NonPlainList, RevokedProxy,
                     accept, protocol_int, reject, serve)

IMPLEMENTATION = {"name": "python-sqlite-store", "version": "0.1.0", "language": "python"}

# Python's json module serializes and parses by recursion; the vectors go 1,000 levels deep (JSON-11).
sys.setrecursionlimit(10_000)

# ---------------------------------------------------------------------------------------------------
# The lossless JSON domain (spec/02-lossless-json.md): the fault JSON-13 reports for a whole value.

PRIORITY = ["JSON_CYCLE", "JSON_UNSUPPORTED_VALUE", "JSON_UNDEFINED", "JSON_NON_PLAIN_OBJECT",
            "JSON_SPARSE_ARRAY", "JSON_NON_FINITE", "JSON_NEGATIVE_ZERO"]


def scalar_fault(value):
    """The fault of a value that is no list or dict, or None for a JSON scalar."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if value is UNDEFINED:
        return "JSON_UNDEFINED"
    if isinstance(value, int):
        # A Python int a double cannot hold exactly is no JSON number (spec/02, "Host values").
        try:
            return None if float(value) == value else "JSON_UNSUPPORTED_VALUE"
        except OverflowError:
            return "JSON_UNSUPPORTED_VALUE"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return "JSON_NON_FINITE"
        return "JSON_NEGATIVE_ZERO" if value == 0 and math.copysign(1, value) < 0 else None
    if isinstance(value, (tuple, set, frozenset)):
        return "JSON_NON_PLAIN_OBJECT"  # spec/02's table of host values
    return "JSON_UNSUPPORTED_VALUE"  # a function, a bigint (Decimal), a symbol, bytes: no JSON kind (JSON-7)


def container_fault(value):
    """The fault of a list or dict itself, and whether the walk enters it (JSON-13 does not enter an
    object it rejects as not plain, JSON-9, nor an array it rejects as not ordinary, JSON-8)."""
    if isinstance(value, (NonPlainDict, ForeignPrototypeDict, ForeignPrototypeList)):
        return "JSON_NON_PLAIN_OBJECT", False
    if isinstance(value, dict) and not all(isinstance(name, str) for name in value):
        return "JSON_NON_PLAIN_OBJECT", False
    if isinstance(value, NonPlainList):
        # An extra named or symbol-keyed property makes an array not dense; a subclass, not ordinary.
        dense_but_foreign = value.kind.startswith("instance")
        return ("JSON_NON_PLAIN_OBJECT", False) if dense_but_foreign else ("JSON_SPARSE_ARRAY", True)
    if isinstance(value, list) and any(item is HOLE for item in value):
        return "JSON_SPARSE_ARRAY", True
    return None, True


def domain_fault(value):
    """Every fault of `value`, walked without recursion (any depth); the one of highest priority."""
    found = set()
    ancestors = set()
    pending = [(value, False)]
    while pending:
        item, leaving = pending.pop()
        if leaving:
            ancestors.discard(id(item))
            continue
        if not isinstance(item, (list, dict)):
            found.add(scalar_fault(item))
            continue
        if id(item) in ancestors:
            found.add("JSON_CYCLE")
            continue
        fault, enter = container_fault(item)
        found.add(fault)
        if enter:
            ancestors.add(id(item))
            pending.append((item, True))
            members = item.values() if isinstance(item, dict) else [element for element in item if element is not HOLE]
            pending.extend((member, False) for member in members)
    return next((code for code in PRIORITY if code in found), None)


def usable_seq(record):
    """ENV-4: a record's seq when it is a non-negative safe integer, else None (PROC-1). An object that
    is not plain is read by member name too (adapter.py), but a revoked proxy cannot be read at all."""
    seq = record.get("seq") if isinstance(record, dict) and not isinstance(record, RevokedProxy) else None
    if isinstance(seq, bool) or not isinstance(seq, (int, float)) or (isinstance(seq, float) and not seq.is_integer()):
        return None
    return int(seq) if 0 <= seq <= 2 ** 53 - 1 and math.copysign(1, seq) > 0 else None


# ---------------------------------------------------------------------------------------------------
# The store. Every column holds JSON text, ASCII-escaped: a lone surrogate has no UTF-8 form, so a
# string bound as SQLite text as it is would fail to encode (Python) or come back as U+FFFD.

HEADER_MEMBERS = ["version", "id", "createdAt", "cwd", "parentSession", "seedLength", "origin", "delegationDepth", "agentPreset"]
EVENT_MEMBERS = ["type", "seq", "time", "data", "surfaceOp", "sourceEventSeqs", "ignorable"]
EVENT_COLUMNS = ", ".join(f'"{member}"' for member in EVENT_MEMBERS)


def json_text(value):
    return json.dumps(value, allow_nan=False)


def json_value(text):
    return json.loads(text, parse_int=protocol_int)


class SqliteStore:
    """One session in one database file: a header row of chapter 03's members, one row per event."""

    def __init__(self, path):
        self.path = path
        columns = ", ".join(f'"{member}" TEXT' for member in EVENT_MEMBERS)
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE header (member TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute(f"CREATE TABLE events (position INTEGER PRIMARY KEY, {columns})")
        db.close()

    def create(self, header):
        with sqlite3.connect(self.path) as db:
            db.executemany("INSERT INTO header VALUES (?, ?)", [(member, json_text(header[member])) for member in HEADER_MEMBERS if member in header])
        db.close()

    def append(self, batch):
        """One transaction per durable batch: all of it is written or none."""
        placeholders = ", ".join("?" for _ in EVENT_MEMBERS)
        rows = [[json_text(event[member]) if member in event else None for member in EVENT_MEMBERS] for event in batch]
        with sqlite3.connect(self.path) as db:
            db.executemany(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES ({placeholders})", rows)
        db.close()

    def open(self):
        """The session read back on a new connection, as a reader that did not see the writes."""
        db = sqlite3.connect(self.path)
        header = {member: json_value(text) for member, text in db.execute("SELECT member, value FROM header")}
        events = []
        for row in db.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY position"):
            events.append({member: json_value(text) for member, text in zip(EVENT_MEMBERS, row) if text is not None})
        db.close()
        return header, events


def canonical_header(header):
    """STORE-3: chapter 03's members the header has, delegationDepth 0 when it has none."""
    canonical = {member: header[member] for member in HEADER_MEMBERS if member in header}
    canonical.setdefault("delegationDepth", 0)
    return canonical


def store(operation_input):
    header, batches = operation_input["header"], operation_input["batches"]
    fault = domain_fault(header)
    if fault is not None:
        return reject(fault, "the session is not created: its header is outside the lossless JSON domain")
    folder = tempfile.mkdtemp(prefix="dsh-store-")
    path = os.path.join(folder, "session.sqlite")
    try:
        backend = SqliteStore(path)
        backend.create(header)
        stored = 0
        for batch in batches:
            for index, record in enumerate(batch):
                fault = domain_fault(UNDEFINED if record is HOLE else record)  # a hole reads as undefined
                if fault is not None:
                    seq = usable_seq(record)
                    return reject(fault, f"batch not stored: its record {index + 1} is outside the lossless JSON domain", stored + index if seq is None else seq)
            backend.append(batch)
            stored += len(batch)
        header_read, events = backend.open()
        return accept({"header": canonical_header(header_read), "events": events})
    finally:
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(folder)


if __name__ == "__main__":
    sys.exit(serve(IMPLEMENTATION, ["storage"], {"store": store}))
