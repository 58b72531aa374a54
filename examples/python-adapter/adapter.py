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
import re
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


def reject(code, message, seq=None, line=None):
    """A rejection: a code of spec/errors.md, the seq of the event at fault or the 1-based line of a
    storage input when there is one (PROC-1), and a message for people."""
    error = {"code": code, "message": message}
    if seq is not None:
        error["seq"] = seq
    if line is not None:
        error["line"] = line
    return {"ok": False, "error": error}


def is_usable_seq(value):
    """A non-negative safe integer (ENV-4). A bool is no int here, and -0 arrives as a tag (a dict)."""
    return type(value) is int and 0 <= value <= 2**53 - 1


# ---------------------------------------------------------------------------------------------------
# The operation: the surface fold of spec/05-surface.md.


def surface(operation_input):
    """Fold the surface operations of a log into {nodes, replacements, generation} (SURF-10).

    The suite gives `surface` only logs that `load` accepts, so this fold skips the checks `load`
    makes (envelope, message shapes, provenance, ...). It still makes the checks that fall out of the
    fold itself, because a few vectors fold a window that starts somewhere else (`baseSeq`): a seq
    that is no non-negative safe integer (ENV-4), seq contiguity (ENV-9, ENV-10), the lookup of
    replace endpoints (SURF-4, SURF-5) and the checks of a tool-result rewrite (REWR-1 to REWR-3).
    A real implementation checks a window as its load checks a whole log (PROC-9): this toy does not,
    so it fails the one vector that asks (proc-window-checked-as-load).
    """
    events = operation_input["events"]
    # A window is the part of a log from seq `baseSeq` on; its fold starts from an empty surface, so
    # the seqs below the base are never nodes (SURF-3).
    expected_seq = operation_input.get("baseSeq", 0)

    nodes = []  # the current surface: seqs in position order
    replacements = []  # one entry per accepted replace, in seq order
    by_seq = {}  # the window's events, for the rewrite checks

    for index, event in enumerate(events):
        seq = event["seq"]
        if not is_usable_seq(seq):
            # ENV-4: the rejection then carries the record's index in `events`, in a window too (PROC-1).
            return reject("ENV_SEQ_INVALID", f"seq {seq!r} is not a non-negative safe integer", seq=index)
        if seq != expected_seq:
            return reject("ENV_SEQ_NOT_CONTIGUOUS", f"expected seq {expected_seq}", seq=seq)
        expected_seq += 1
        by_seq[seq] = event

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
            return reject("SURFACE_REPLACE_START_NOT_FOUND", f"{start} is not on the surface", seq=seq)
        if end not in nodes:
            return reject("SURFACE_REPLACE_END_NOT_FOUND", f"{end} is not on the surface", seq=seq)
        first, last = nodes.index(start), nodes.index(end)
        if first > last:
            return reject("SURFACE_REPLACE_REVERSED", f"{start} sits after {end} on the surface", seq=seq)

        # The run of nodes from `first` to `last` leaves the surface, and the replacing event takes
        # its place, so every other node keeps its relative order (SURF-6).
        #
        # A toy may search and splice a list. SURF-11 asks a real implementation for amortized
        # constant time per event instead: spec/05-surface.md shows a linked list that does it.
        shadowed = nodes[first:last + 1]
        fault = rewrite_fault(event, shadowed, by_seq) if event["type"] == "tool/result" else None
        if fault is not None:
            return reject(fault, "the tool-result rewrite breaks chapter 07", seq=seq)
        nodes[first:last + 1] = [seq]
        replacements.append({"seq": seq, "start": start, "end": end, "shadowedSeqs": shadowed})

    return accept({"nodes": nodes, "replacements": replacements, "generation": len(replacements)})


def rewrite_fault(rewrite, shadowed, by_seq):
    """The code of the first rule a tool-result rewrite breaks, in the order of REWR-6, or None."""
    if len(shadowed) != 1:
        return "REWRITE_SPAN_INVALID"
    original = by_seq[shadowed[0]]
    if original["type"] != "tool/result":
        return "REWRITE_TARGET_INVALID"
    before = current_shape(original["data"], None)
    # A rewrite in the older shape inherits the message id of the result it replaces (LEGACY-11).
    after = current_shape(rewrite["data"], before["message"].get("id"))
    if "id" not in before["message"]:
        # The original is in the older shape: load derives its id from the session, which this toy
        # does not, so the ids are not compared (a real implementation compares the derived one).
        after = {**after, "message": {key: value for key, value in after["message"].items() if key != "id"}}
    if not json_equal(comparison_form(before), comparison_form(after)):
        return "REWRITE_DATA_CHANGED"
    return None


def current_shape(data, message_id):
    """A tool result's data in the current shape: one written before results had a message wrapper
    ({callId, content, isError}) as load's upgrade makes it (LEGACY-11), with `message_id` for its id
    (None: without one, where load would derive it from the session).

    The fuzzer rewrites three logs in ten into such older shapes (chapter 18), and load, which this toy
    leaves out, upgrades them before the surface is folded.
    """
    if "message" in data or not {"callId", "content", "isError"} <= data.keys():
        return data
    rest = {key: value for key, value in data.items() if key not in ("callId", "content", "isError")}
    block = {"type": "tool-result", "toolCallId": data["callId"], "content": data["content"], "isError": data["isError"]}
    message = {"role": "user", "content": [block], "source": {"kind": "tool", "callId": data["callId"]}}
    if message_id is not None:
        message["id"] = message_id
    return {**rest, "message": message}


def comparison_form(data):
    """REWR-3: a copy of the data whose one tool-result block has its own `content` set to null."""
    form = copy.deepcopy(data)
    block = dict(form["message"]["content"][0])
    block["content"] = None
    form["message"]["content"] = [block]
    return form


def json_equal(left, right):
    """JSON-14: same kind and equal; a bool is no number here, whatever Python's `True == 1` says."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(json_equal(a, b) for a, b in zip(left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[key], right[key]) for key in left)
    return type(left) is type(right) and left == right


# Every operation this adapter answers, by its name in spec/00-processing.md.
OPERATIONS = {"surface": surface}


# ---------------------------------------------------------------------------------------------------
# Tagged values (vectors/README.md, "Tagged values"): values JSON cannot carry arrive as objects with a
# "$dsh" member. Each becomes the nearest Python value that a lossless-JSON check (spec/02) would
# classify under the same code as the JavaScript value. The surface vectors never send one; the
# mapping is here for the load and append vectors a real implementation will meet.
#
# Before the replay phase, load reads records that hold such values (spec/00-processing.md, PROC-2):
# an object that is not plain is still an object, whose members are read by name (hidden ones
# included) and listed as JSON would write them (hidden ones left out). So the JavaScript objects
# become dict and list subclasses here, never opaque sentinels: a port built on this file can read them
# in those phases and reject them in replay by their class.


class Sentinel:
    """A host value Python has no counterpart for (JavaScript's undefined, a hole, a symbol)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


UNDEFINED = Sentinel("undefined")
HOLE = Sentinel("hole")
SYMBOL = Sentinel("symbol")


class NonPlainDict(dict):
    """An object that is not plain JSON (JSON_NON_PLAIN_OBJECT): its dict items are the members JSON
    would write; `hidden` holds the members that are there but not listed (a non-enumerable member), and
    `symbols` the symbol-keyed ones. Reading a member by name looks in `hidden` too; listing the members
    (for a rule like "no member besides") lists the dict's own keys only."""

    def __init__(self, members=(), hidden=None, symbols=None, kind="object"):
        super().__init__(members)
        self.hidden = hidden or {}
        self.symbols = symbols or []
        self.kind = kind


class NonPlainList(list):
    """An array that is not plain JSON: one with a symbol-keyed member or an extra named property
    (JSON_SPARSE_ARRAY), or an instance of an array subclass (JSON_NON_PLAIN_OBJECT)."""

    def __init__(self, items=(), properties=None, kind="array"):
        super().__init__(items)
        self.properties = properties or {}
        self.kind = kind


class RevokedProxy(NonPlainDict):
    """An object no inspection can read (a revoked JavaScript Proxy). Reached through plain values only,
    it counts as an object with no members before replay; inside a value that is not plain, reading it
    fails (PROC-2). Replay rejects it as not plain."""

    def __init__(self):
        super().__init__(kind="revoked-proxy")


def decode_sparse_array(tagged):
    entries = tagged.get("entries", {})
    return [decode_tagged(entries[str(index)]) if str(index) in entries else HOLE for index in range(tagged.get("length", 0))]


def decode_array_property(tagged):
    items = decode_tagged(tagged["items"])
    key = tagged["key"]
    if tagged.get("enumerable") is False and re.fullmatch(r"0|[1-9][0-9]*", key) and int(key) < len(items):
        # A hidden element is an element all the same (JSON-8); a Python list has no hidden ones.
        plain = list(items)
        plain[int(key)] = decode_tagged(tagged["value"])
        return plain
    return NonPlainList(items, {key: decode_tagged(tagged["value"])}, kind="array-property")


def decode_self_cycle(tagged):
    value = decode_tagged(tagged.get("object", {}))
    node = value
    # The path leads to the object or list whose member points back (vectors/README.md).
    for step in tagged.get("path", []):
        node = node[int(step)] if isinstance(node, list) else node[step]
    key = tagged.get("key", "self")
    if isinstance(node, list):
        # An index of an element, or the one just past the last (vectors/README.md).
        index = int(key)
        if index == len(node):
            node.append(value)
        else:
            node[index] = value
    else:
        node[key] = value
    return value


def decode_symbol_key(tagged):
    value = decode_tagged(tagged["object"])
    if isinstance(value, list):
        return NonPlainList(value, kind="symbol-key")
    return NonPlainDict(value, symbols=[(SYMBOL, decode_tagged(tagged.get("value", True)))], kind="symbol-key")


def decode_non_enumerable(tagged):
    return NonPlainDict(decode_tagged(tagged["object"]), hidden={tagged["key"]: decode_tagged(tagged["value"])}, kind="non-enumerable")


BUILT_IN_CLASSES = {"Date", "Map", "Set", "RegExp", "Error", "Uint8Array", "Boolean"}


def decode_instance(tagged):
    """A class instance: a built-in one has no members, any other class one member, `value`."""
    name = tagged["class"]
    if name == "ArraySubclass":
        return NonPlainList(kind="instance ArraySubclass")
    if name in BUILT_IN_CLASSES:
        return NonPlainDict(kind=f"instance {name}")
    return NonPlainDict({"value": decode_tagged(tagged.get("value"))}, kind=f"instance {name}")


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
    "symbol": lambda tagged: SYMBOL,
    "sparse-array": decode_sparse_array,
    "array-property": decode_array_property,
    "self-cycle": decode_self_cycle,
    "symbol-key": decode_symbol_key,
    "non-enumerable": decode_non_enumerable,
    "instance": decode_instance,
    "nested": decode_nested,
    "shared": decode_shared,
    "null-prototype": lambda tagged: decode_tagged(tagged.get("object", {})),
    # Python has one realm: the value built in another one is the plain value, taken literally.
    "foreign-realm": lambda tagged: copy.deepcopy(tagged.get("value")),
    "with-prototype": decode_with_prototype,
    "revoked-proxy": lambda tagged: RevokedProxy(),
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
        return DECODERS[tag](value)  # the runner sends well-formed tags only
    return {key: decode_tagged(member) for key, member in value.items()}


# Replies carry values JSON cannot write in tagged form too (spec/adapter-protocol.md): decodeJsonl
# returns the negative zeros and infinities it read, for example. A chain of 100 or more one-element
# lists is written as the nested tag, since the runner does not read replies nested arbitrarily deep.
NESTED_TAG_FROM = 100


def encode_number(number):
    if number != number:
        return {"$dsh": "NaN"}
    if number in (float("inf"), float("-inf")):
        return {"$dsh": "Infinity" if number > 0 else "-Infinity"}
    if number == 0 and str(number).startswith("-"):
        return {"$dsh": "-0"}
    return number


def encode_nested(value):
    depth, leaf = 0, value
    while type(leaf) is list and len(leaf) == 1:
        depth, leaf = depth + 1, leaf[0]
    return {"$dsh": "nested", "depth": depth, "leaf": encode_tagged(leaf)} if depth >= NESTED_TAG_FROM else None


def encode_tagged(value):
    """The reply form of a result value: tags for the values JSON cannot write, and the object escape
    for data that has a "$dsh" member of its own."""
    if value is UNDEFINED:
        return {"$dsh": "undefined"}
    if isinstance(value, float):
        return encode_number(value)
    if isinstance(value, list):
        return encode_nested(value) or [encode_tagged(item) for item in value]
    if isinstance(value, dict):
        members = {key: encode_tagged(member) for key, member in value.items()}
        return {"$dsh": "object", "value": members} if "$dsh" in value else members
    return value

# ---------------------------------------------------------------------------------------------------
# The protocol: one JSON object per line in each direction (spec/adapter-protocol.md).


def reply_line(message):
    # ensure_ascii (the default) keeps the line ASCII, so lone surrogates survive; allow_nan=False makes
    # an untagged NaN fail here instead of writing a line the runner cannot parse.
    return json.dumps(message, allow_nan=False) + "\n"


def reply(line):
    sys.stdout.write(line)
    sys.stdout.flush()  # a reply left in a buffer is a timeout


def started(implementation, profiles, operations):
    return {
        "protocol": PROTOCOL_VERSION,
        "implementation": implementation,
        "profiles": profiles,
        "operations": list(operations),
    }


def run(message, operations):
    """Answer one run message, as a reply line: the operation's result, or an implementation failure."""
    seq = message["seq"]
    try:
        operation = operations[message["operation"]]  # the runner sends declared operations only
        result = operation(decode_tagged(message["input"]))
        # Encoding is part of the answer: a value it cannot write is a failure of this step, reported
        # as one, and not a crash of the process.
        return reply_line({"seq": seq, "result": encode_tagged(result)})
    except Exception as error:  # a bug: a failure, never a rejection
        return reply_line({"seq": seq, "error": {"message": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()}})


def protocol_int(token):
    """An integer token of a protocol line denotes a double (JSON-2), so one beyond 2^53 is read as one."""
    value = int(token)
    return value if abs(value) <= 2 ** 53 else float(token)


def serve(implementation, profiles, operations):
    """The protocol loop over stdin and stdout, for the operations given (sqlite_storage.py uses it too)."""
    # readline() returns "" only at the end of stdin.
    for line in iter(sys.stdin.readline, ""):
        message = json.loads(line, parse_int=protocol_int)
        command = message.get("cmd")
        if command == "start":
            if message.get("protocol") != PROTOCOL_VERSION:
                log(f"the runner speaks protocol {message.get('protocol')}, this adapter {PROTOCOL_VERSION}")
            reply(reply_line(started(implementation, profiles, operations)))
        elif command == "run":
            reply(run(message, operations))
        elif command == "stop":
            return 0
        else:
            log(f"unknown message: {line.strip()}")
            return 2
    return 0


def main():
    return serve(IMPLEMENTATION, PROFILES, OPERATIONS)


if __name__ == "__main__":
    sys.exit(main())
