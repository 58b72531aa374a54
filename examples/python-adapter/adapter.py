#!/usr/bin/env python3
"""A toy implementation of the session-log format behind the subprocess adapter protocol.

This program is a starting point for implementers in languages other than TypeScript. It speaks
protocol version 1 (spec/adapter-protocol.md) on stdin and stdout and implements one operation,
`surface` (spec/05-surface.md), over plain Python lists and dicts. It uses the standard library only.

Run the conformance suite against it from the project root:

    npx dsh-conformance run --adapter-cmd "python3 examples/python-adapter/adapter.py"

To grow it into a real adapter, put your implementation behind more functions like `surface`, list them
in OPERATIONS, and claim a profile only once you pass all of its vectors (spec/profiles.md).
"""

import copy
import decimal
import json
import sys
import traceback

PROTOCOL_VERSION = 1

IMPLEMENTATION = {"name": "python-toy-surface", "version": "0.1.0", "language": "python"}

# The runner runs a vector only when its profile is claimed here AND every operation its steps use is
# declared in OPERATIONS (at the bottom of this file); all other vectors are skipped. This toy claims
# `reader` with only `surface`, so the reader vectors that call `load`, `messages`, ... are skipped.
PROFILES = ["reader"]


def log(text):
    """stdout carries protocol replies only; anything for people goes to stderr."""
    print(f"[python-toy] {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------
# Results: every operation returns one of these two shapes (spec/00-processing.md, PROC-1).


def accept(value):
    return {"ok": True, "value": value}


def reject(code, seq, message):
    """A rejection: a code of spec/errors.md, and the seq of the event at fault."""
    return {"ok": False, "error": {"code": code, "seq": seq, "message": message}}


# ---------------------------------------------------------------------------------------------------
# The operation: the surface fold of spec/05-surface.md.


def surface(operation_input):
    """Fold the surface operations of a log into {nodes, replacements, generation} (SURF-10).

    The suite gives `surface` only logs that `load` accepts, so this fold skips the checks `load`
    makes (envelope, message shapes, provenance, ...). It still makes the checks that fall out of the
    fold itself, because a few vectors fold a window that starts somewhere else (`baseSeq`): seq
    contiguity (ENV-9, ENV-10) and the lookup of replace endpoints (SURF-4, SURF-5).
    """
    events = operation_input["events"]
    # A window is the part of a log from seq `baseSeq` on; its fold starts from an empty surface, so
    # the seqs below the base are never nodes (SURF-3).
    expected_seq = operation_input.get("baseSeq", 0)

    nodes = []  # the current surface: seqs in position order
    replacements = []  # one entry per accepted replace, in seq order

    for event in events:
        seq = event["seq"]
        if seq != expected_seq:
            return reject("ENV_SEQ_NOT_CONTIGUOUS", seq, f"expected seq {expected_seq}")
        expected_seq += 1

        # Log-only events carry no surfaceOp and never become nodes (SURF-1).
        if "surfaceOp" not in event:
            continue
        operation = event["surfaceOp"]
        if operation == "append":
            nodes.append(seq)
            continue

        # A replace: both endpoints are looked up among the CURRENT nodes (SURF-4), and compared by
        # their position on the surface, never by their numeric value (SURF-5).
        start, end = operation["start"], operation["end"]
        if start not in nodes:
            return reject("SURFACE_REPLACE_START_NOT_FOUND", seq, f"{start} is not on the surface")
        if end not in nodes:
            return reject("SURFACE_REPLACE_END_NOT_FOUND", seq, f"{end} is not on the surface")
        first, last = nodes.index(start), nodes.index(end)
        if first > last:
            return reject("SURFACE_REPLACE_REVERSED", seq, f"{start} sits after {end} on the surface")

        # The run of nodes from `first` to `last` leaves the surface, and the replacing event takes
        # its place, so every other node keeps its relative order (SURF-6).
        #
        # A toy may search and splice a list. SURF-11 asks a real implementation for amortized
        # constant time per event instead: spec/05-surface.md shows a linked list that does it.
        shadowed = nodes[first:last + 1]
        nodes[first:last + 1] = [seq]
        replacements.append({"seq": seq, "start": start, "end": end, "shadowedSeqs": shadowed})

    return accept({"nodes": nodes, "replacements": replacements, "generation": len(replacements)})


# Every operation this adapter answers, by its name in spec/00-processing.md.
OPERATIONS = {"surface": surface}


# ---------------------------------------------------------------------------------------------------
# Tagged values (vectors/README.md, "Tagged values"): values JSON cannot carry arrive as objects with a
# "$dsh" member. Each becomes the nearest Python value that a lossless-JSON check (spec/02) would
# classify under the same code as the JavaScript value. The surface vectors never send one; the
# mapping is here for the load and append vectors a real implementation will meet.


class Sentinel:
    """A host value Python has no counterpart for (a JavaScript symbol, undefined, a hole)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


UNDEFINED = Sentinel("undefined")
HOLE = Sentinel("hole")


def decode_sparse_array(tagged):
    entries = tagged.get("entries", {})
    return [decode_tagged(entries[str(index)]) if str(index) in entries else HOLE for index in range(tagged.get("length", 0))]


def decode_self_cycle(tagged):
    value = decode_tagged(tagged.get("object", {}))
    value[tagged.get("key", "self")] = value
    return value


def decode_nested(tagged):
    """A leaf inside `depth` one-element lists: built in a loop, since it may be deeper than Python's
    recursion limit (and deeper than its json module can parse, which is why it travels tagged)."""
    value = decode_tagged(tagged.get("leaf"))
    for _ in range(tagged.get("depth", 1)):
        value = [value]
    return value


def decode_shared(tagged):
    """One value held `count` times by reference: shared parts, not a cycle (JSON-10)."""
    value = decode_tagged(tagged.get("value"))
    return [value] * tagged.get("count", 2)


class ForeignPrototypeDict(dict):
    """An object whose prototype is no realm's intrinsic one (with-prototype): not a plain dict."""


class ForeignPrototypeList(list):
    """An array whose prototype is no realm's intrinsic one (with-prototype): not a plain list."""


def decode_with_prototype(tagged):
    value = decode_tagged(tagged.get("value"))
    return ForeignPrototypeList(value) if isinstance(value, list) else ForeignPrototypeDict(value)


def decode_literal_object(tagged):
    """The escape for data that really has a "$dsh" member: the object is taken literally."""
    return {key: decode_tagged(member) for key, member in tagged.get("value", {}).items()}


DECODERS = {
    "undefined": lambda tagged: UNDEFINED,
    "-0": lambda tagged: -0.0,
    "NaN": lambda tagged: float("nan"),
    "Infinity": lambda tagged: float("inf"),
    "-Infinity": lambda tagged: float("-inf"),
    "bigint": lambda tagged: decimal.Decimal(tagged.get("value", "0")),
    "function": lambda tagged: (lambda: None),
    "sparse-array": decode_sparse_array,
    "self-cycle": decode_self_cycle,
    "nested": decode_nested,
    "shared": decode_shared,
    "null-prototype": lambda tagged: decode_tagged(tagged.get("object", {})),
    # Python has one realm: the value built in another one is the plain value, taken literally.
    "foreign-realm": lambda tagged: copy.deepcopy(tagged.get("value")),
    "with-prototype": decode_with_prototype,
    "object": decode_literal_object,
}


def decode_tagged(value):
    """Replace every tagged object in a parsed JSON value by the Python value it stands for."""
    if isinstance(value, list):
        return [decode_tagged(item) for item in value]
    if not isinstance(value, dict):
        return value
    tag = value.get("$dsh")
    if isinstance(tag, str):
        # The remaining tags (symbol, symbol-key, non-enumerable, array-property, instance,
        # revoked-proxy) name JavaScript constructs; a real implementation picks a value its own checks
        # reject with the code spec/adapter-protocol.md lists for them, here a sentinel stands in.
        decode = DECODERS.get(tag)
        return decode(value) if decode else Sentinel(f"tagged {tag}")
    return {key: decode_tagged(member) for key, member in value.items()}


# ---------------------------------------------------------------------------------------------------
# The protocol: one JSON object per line in each direction (spec/adapter-protocol.md).


def reply(message):
    # ensure_ascii (the default) keeps the line ASCII, so lone surrogates survive; allow_nan=False makes
    # a NaN fail here instead of writing a line the runner cannot parse (such values must be tagged).
    sys.stdout.write(json.dumps(message, allow_nan=False) + "\n")
    sys.stdout.flush()  # a reply left in a buffer is a timeout


def started():
    return {
        "protocol": PROTOCOL_VERSION,
        "implementation": IMPLEMENTATION,
        "profiles": PROFILES,
        "operations": list(OPERATIONS),
    }


def run(message):
    """Answer one run message: the operation's result, or an implementation failure."""
    seq = message["seq"]
    try:
        operation = OPERATIONS[message["operation"]]  # the runner sends declared operations only
        result = operation(decode_tagged(message["input"]))
    except Exception as error:  # a bug or an input we cannot handle: a failure, never a rejection
        return {"seq": seq, "error": {"message": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()}}
    return {"seq": seq, "result": result}


def main():
    # readline() returns "" only at the end of stdin.
    for line in iter(sys.stdin.readline, ""):
        message = json.loads(line)
        command = message.get("cmd")
        if command == "start":
            if message.get("protocol") != PROTOCOL_VERSION:
                log(f"the runner speaks protocol {message.get('protocol')}, this adapter {PROTOCOL_VERSION}")
            reply(started())
        elif command == "run":
            reply(run(message))
        elif command == "stop":
            return 0
        else:
            log(f"unknown message: {line.strip()}")
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
