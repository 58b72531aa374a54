// Misbehaving subprocess adapters, for tests/runner.test.ts only: `node fake-adapter.mjs <behaviour>`.
// Each one speaks just enough of spec/adapter-protocol.md to be started, then goes wrong its own way.
import { createInterface } from 'node:readline'

const behaviour = process.argv[2]

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

let runs = 0
const BEHAVIOURS = {
  // Answers the first run of each process, then dies in the middle of the second.
  crash: (message) => {
    if (runs === 1) return answer(message)
    process.stderr.write('fake-adapter: crashing on purpose\n')
    process.exit(3)
  },
  hang: () => {},
  garbage: () => process.stdout.write('this line is not JSON\n'),
  invalid: (message) => send({ seq: message.seq, result: { ok: 'yes' } }),
  liar: (message) => send({ seq: message.seq, result: { ok: true, value: null } }),
  misorder: (message) => answer(message, true),
}

const ALL_OPERATIONS = [
  'load', 'append', 'surface', 'messages', 'requestHeader', 'requestContext', 'relations', 'repair', 'resume',
  'compactionState', 'regionBalance', 'fork', 'decodeJsonl', 'encodeJsonl', 'artifactPath', 'headerEquals',
]
const ALL_PROFILES = ['reader', 'writer', 'relations', 'repair', 'compaction', 'fork', 'jsonl']
const liar = behaviour === 'liar'

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line)
  if (message.cmd === 'stop') process.exit(0)
  if (message.cmd === 'start') {
    send({
      protocol: 1,
      implementation: { name: `fake-${behaviour}`, version: '0.0.0', language: 'javascript' },
      // The liar claims every profile and operation it does not implement.
      profiles: liar ? ALL_PROFILES : ['reader'],
      operations: liar ? ALL_OPERATIONS : ['surface'],
    })
    continue
  }
  runs += 1
  BEHAVIOURS[behaviour](message)
}
