// Misbehaving subprocess adapters, for the tests only:
// `node fake-adapter.mjs <behaviour>`. Each one speaks just enough of spec/adapter-protocol.md to be
// started, then goes wrong its own way.
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const behaviour = process.argv[2]
/** For `first-start-only`: a file that marks the first process as started. */
const marker = process.argv[3]
/** For `hostile`: its name and the text of its failures, given as a JSON string (`hostile '"evil\\u001b…"'`). */
const hostileText = behaviour === 'hostile' ? JSON.parse(process.argv[3]) : undefined

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)

/** The surface fold (spec/05-surface.md) of a log `load` accepts; `misordered` appends replacements at the tail. */
function fold(events, misordered) {
  const nodes = []
  const replacements = []
  for (const event of events) {
    const op = event.surfaceOp
    if (op === undefined) continue
    if (op === 'append') {
      nodes.push(event.seq)
      continue
    }
    const first = nodes.indexOf(op.start)
    const last = nodes.indexOf(op.end)
    const shadowedSeqs = nodes.splice(first, last - first + 1)
    if (misordered) nodes.push(event.seq)
    else nodes.splice(first, 0, event.seq)
    replacements.push({ seq: event.seq, start: op.start, end: op.end, shadowedSeqs })
  }
  return { ok: true, value: { nodes, replacements, generation: replacements.length } }
}

const answer = (message, misordered = false) => send({ seq: message.seq, result: fold(message.input.events, misordered) })

/** A reply whose value is `depth` one-element arrays around 0, written literally (JSON.stringify would overflow). */
/** The `unsupported` behaviour's invalid answers, by case id. */
const UNSUPPORTED_ANSWERS = {
  'fake-empty-unsupported': { ok: false, unsupported: '' },
  'fake-unsupported-beside-error': { ok: false, unsupported: 'x', error: { code: 'SURFACE_REPLACE_REVERSED' } },
  'fake-unsupported-beside-value': { ok: true, value: { nodes: [] }, unsupported: 'x' },
}
const deepReply = (message, depth) => `{"seq":${message.seq},"result":{"ok":true,"value":${'['.repeat(depth)}0${']'.repeat(depth)}}}\n`

let runs = 0
/** For `duplicate`: the reply to write a second time, and its timer. */
let echo
const BEHAVIOURS = {
  // Answers the first run of each process, then dies in the middle of the second.
  crash: (message) => {
    if (runs === 1) return answer(message)
    process.stderr.write('fake-adapter: crashing on purpose\n')
    process.exit(3)
  },
  hang: () => {},
  garbage: () => process.stdout.write('this line is not JSON\n'),
  // Its right answer, after a byte order mark, as .NET and PowerShell write one unless told not to.
  bom: (message) => process.stdout.write(`\ufeff${JSON.stringify({ seq: message.seq, result: fold(message.input.events, false) })}\n`),
  // Answers what it cannot do with a rejection of a code of its own, which the protocol forbids.
  'invented-code': (message) => send({ seq: message.seq, result: { ok: false, error: { code: 'NOT_IMPLEMENTED', seq: null, message: 'not written yet' } } }),
  'long-error': (message) => send({ seq: message.seq, error: { message: `${'m'.repeat(100_000)} end`, traceback: `${'  frame\n'.repeat(20_000)}ValueError: the cause` } }),
  invalid: (message) => send({ seq: message.seq, result: { ok: 'yes' } }),
  // Cannot handle any input, by design; an empty reason, or one beside a verdict, is an invalid reply.
  unsupported: (message) => send({ seq: message.seq, result: UNSUPPORTED_ANSWERS[message.case] ?? { ok: false, unsupported: 'no zstd decoder' } }),
  // Rejects everything, writing "no seq, no line" as null, as a serializer of None or nil would.
  'null-places': (message) => send({ seq: message.seq, result: { ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: null, line: null } } }),
  // A rejection with a seq of the wrong type: its schema faults, and only those, are named.
  'string-seq': (message) => send({ seq: message.seq, result: { ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: '3' } } }),
  liar: (message) => send({ seq: message.seq, result: { ok: true, value: null } }),
  // Fails every operation with a message and a traceback of many lines, each holding its text, the
  // second posing as a verdict line of compare.
  hostile: (message) => send({ seq: message.seq, error: { message: `${hostileText} failed\n${hostileText}: agrees with the reference`, traceback: `Traceback:\n${hostileText}: agrees with the reference` } }),
  // A reply holding -0.0 as a JSON number, as a Python json.dumps of -0.0 writes it, not as its tag.
  'bare-negative-zero': (message) => process.stdout.write(`{"seq":${message.seq},"result":{"ok":true,"value":{"generation":-0.0}}}\n`),
  // A number that overflows binary64, which ECMAScript reads as Infinity, not as its tag.
  'bare-infinity': (message) => process.stdout.write(`{"seq":${message.seq},"result":{"ok":true,"value":{"generation":1e400}}}\n`),
  misorder: (message) => answer(message, true),
  // A text member holding the bytes FF and E2 82, as an implementation that never decodes UTF-8 would.
  'ill-formed-utf8': (message) => process.stdout.write(Buffer.concat([Buffer.from(`{"seq":${message.seq},"result":{"ok":true,"value":"a`), Buffer.from([0xff, 0x62, 0xe2, 0x82]), Buffer.from('c"}}\n')])),
  // A correct reply with 16 MiB of JSON white space in it, written at once.
  'huge-reply': (message) => process.stdout.write(`{"seq":${message.seq},${' '.repeat(16 * 1024 * 1024)}"result":${JSON.stringify(fold(message.input.events))}}\n`),
  'deep-reply': (message) => process.stdout.write(deepReply(message, 100_000)),
  // Writes each reply again a moment later (or on stop, if that comes first), when no reply is due.
  duplicate: (message) => {
    flushEcho()
    answer(message)
    echo = { message, timer: setTimeout(() => flushEcho(), 300) }
  },
  // Writes each reply and then, in a write of its own right after it, a line nobody asked for.
  'two-writes': (message) => {
    answer(message)
    process.stdout.write('{"extra":1}\n')
  },
  // Writes each reply with the start of another line after it, in the same write.
  'begun-line': (message) => process.stdout.write(`${JSON.stringify({ seq: message.seq, result: fold(message.input.events, false) })}\njunk`),
  // Writes each reply twice in one write: the line nobody asked for comes with the reply.
  'duplicate-in-one-write': (message) => {
    const line = `${JSON.stringify({ seq: message.seq, result: fold(message.input.events, false) })}\n`
    process.stdout.write(line + line)
  },
  // Writes its reply with no line feed after it, and keeps running.
  'no-line-feed': (message) => process.stdout.write(JSON.stringify({ seq: message.seq, result: fold(message.input.events, false) })),
  // Correct replies, and then wrong ways to end (see the stop handling below).
  'exit-3-on-stop': answer,
  'ignore-stop': answer,
  daemon: answer,
  'exit-after-reply': (message) => {
    answer(message)
    process.exit(0)
  },
  // The right result, under the seq of another request.
  'wrong-seq': (message) => send({ seq: message.seq + 1, result: fold(message.input.events, false) }),
  // An error reply ("the implementation failed") without the optional traceback.
  'error-no-traceback': (message) => send({ seq: message.seq, error: { message: 'boom' } }),
  // A value holding a tag the protocol does not know.
  'malformed-tag': (message) => send({ seq: message.seq, result: { ok: true, value: { $dsh: 'no-such-tag' } } }),
  // A result reply with a protocol member, which only a start reply has.
  'result-protocol': (message) => send({ seq: message.seq, protocol: 2, result: fold(message.input.events, false) }),
  // Writes 100 KiB to stderr with each reply.
  'stderr-flood': (message) => {
    process.stderr.write(`${'e'.repeat(100 * 1024)}\n`)
    answer(message)
  },
  // Writes 257 MiB with no line feed: more than the runner reads as one line.
  'endless-line': () => {
    const chunk = 'x'.repeat(1024 * 1024)
    let left = 257
    const more = () => {
      while (left > 0) {
        left -= 1
        if (!process.stdout.write(chunk)) return process.stdout.once('drain', more)
      }
    }
    more()
  },
}
function flushEcho() {
  if (echo === undefined) return
  clearTimeout(echo.timer)
  answer(echo.message)
  echo = undefined
}

// Crash as `crash` does. restart-differs: each process declares a version of its own;
// first-start-only: every process after the first fails to start.
BEHAVIOURS['restart-differs'] = BEHAVIOURS.crash
BEHAVIOURS['first-start-only'] = BEHAVIOURS.crash
BEHAVIOURS['start-twice'] = answer
BEHAVIOURS['begun-on-stop'] = answer
BEHAVIOURS['slow-start'] = answer

/** Start replies that go wrong, by behaviour; every other behaviour sends its startReply() at once. */
const STARTS = {
  // start-twice: its start reply, and the same line again in the same write.
  'start-twice': () => process.stdout.write(`${JSON.stringify(startReply())}\n${JSON.stringify(startReply())}\n`),
  'start-protocol-2': () => send({ ...startReply(), protocol: 2 }),
  'start-null': () => process.stdout.write('null\n'),
  'start-number': () => process.stdout.write('5\n'),
  // Takes 1.5 s to start: longer than a short step timeout, far shorter than the 10 s a start may take.
  'slow-start': () => setTimeout(() => send(startReply()), 1500),
}

if (behaviour === 'first-start-only') {
  if (existsSync(marker)) {
    process.stderr.write('fake-adapter: cannot start again\n')
    process.exit(4)
  }
  writeFileSync(marker, 'started')
}

const ALL_OPERATIONS = [
  'load', 'append', 'surface', 'messages', 'requestHeader', 'requestContext', 'relations', 'repair', 'resume',
  'compactionState', 'regionBalance', 'fork', 'decodeJsonl', 'encodeJsonl', 'artifactPath', 'store',
  'headerEquals',
]
const ALL_PROFILES = ['reader', 'writer', 'relations', 'repair', 'compaction', 'fork', 'jsonl', 'storage']
const liar = behaviour === 'liar'

if (behaviour === 'daemon') {
  // A helper that leaves the process group (a language server, a JVM daemon) and keeps stdout and stderr.
  const helper = spawn('sleep', ['30'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] })
  helper.unref()
  process.stderr.write(`fake-adapter: helper pid ${helper.pid}\n`)
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line)
  if (message.cmd === 'stop') {
    flushEcho()
    // begun-on-stop: the start of a line nobody asked for, and a clean exit.
    if (behaviour === 'begun-on-stop') process.stdout.write('junk')
    if (behaviour === 'ignore-stop') continue
    process.exit(behaviour === 'exit-3-on-stop' ? 3 : 0)
  }
  if (message.cmd === 'start') {
    ;(STARTS[behaviour] ?? (() => send(startReply())))()
    continue
  }
  runs += 1
  BEHAVIOURS[behaviour](message)
}

function startReply() {
  return {
    protocol: 1,
    implementation: { name: hostileText ?? `fake-${behaviour}`, version: behaviour === 'restart-differs' ? `0.0.${process.pid}` : '0.0.0', language: 'javascript' },
    // The liar claims every profile and operation it does not implement.
    profiles: liar ? ALL_PROFILES : ['reader'],
    operations: liar ? ALL_OPERATIONS : ['surface'],
  }
}
// ignore-stop: stuck, it outlives the end of its stdin too.
if (behaviour === 'ignore-stop') setInterval(() => {}, 1000)
