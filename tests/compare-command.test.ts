// `dsh-conformance compare` (conformance/compare-command.ts): one input of the user's own through an
// adapter and the reference, judged as a vector step is, with the exit status its usage gives; an
// answer the spec leaves open is not judged, and no answer at all never passes.
import { afterAll, describe, expect, it } from 'vitest'
import { parseCompareOptions } from '../conformance/compare-command.ts'
import { runCliHere } from './support/cli.ts'
import { HOSTILE, HOSTILE_ESCAPED, hostileAdapterCommand, RAW_CONTROL } from './support/hostile-text.ts'
import { inputFolder, userMessage } from './support/compare-inputs.ts'

const inputs = inputFolder('compare-')
afterAll(() => inputs.remove())
const inputFile = (name: string, input: unknown): string => inputs.write(name, input)
const USER = userMessage
/** A log every reader loads: two user messages on the surface. */
const LOADS = inputFile('loads.json', { events: [USER(0, 'u0'), USER(1, 'u1')] })
/** A log load rejects (an empty message id at seq 1). */
const REJECTED = inputFile('rejected.json', { events: [USER(0, 'u0'), USER(1, '')] })
const MISORDER = 'node tests/fakes/fake-adapter.mjs misorder'
const WRITER_MODULE = 'tests/fakes/writer-module.ts'
const HEADER = { version: 0, id: 's', createdAt: 1 }

describe('compare', () => {
  it('prints the reference\'s result and says the adapter agrees, exit 0', async () => {
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'load', REJECTED])
    expect(outcome.stdout.split('\n')).toEqual([
      'reference: {"ok":false,"error":{"code":"MESSAGE_ID_INVALID","seq":1,"message":"user/message lacks a message with a non-empty string id"}}',
      'reference: agrees with the reference',
      '',
    ])
    expect(outcome.code).toBe(0)
  })

  it('judges a subprocess adapter\'s answer as a vector step, with the reference\'s as the expectation: a difference exits 1', async () => {
    // The misorder fake folds each replacement to the tail; two appends need no replacement, so it agrees.
    const agrees = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', LOADS])
    expect(agrees.stdout).toContain('fake-misorder: agrees with the reference\n')
    expect(agrees.code).toBe(0)
    const replaced = inputFile('replaced.json', {
      events: [USER(0, 'u0'), USER(1, 'u1'), { type: 'user/message', seq: 2, time: 3, data: { id: 'u2', role: 'user', content: [], source: { kind: 'compact' } }, surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] }],
    })
    const differs = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', replaced])
    expect(differs.stdout).toMatch(/^fake-misorder: differs from the reference: step 0 \(surface\): value differs at \$\.nodes\[0\]/m)
    expect(differs.code).toBe(1)
  })

  it('judges nothing where the spec leaves the result open (a log load rejects, PROC-9), but a window that does not fold and an adapter that gives no answer are judged', async () => {
    const open = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', REJECTED])
    expect(open.stdout).toContain('not judged: load rejects the log (MESSAGE_ID_INVALID at seq 1), and the spec defines surface only over a log load accepts (PROC-9), so any answer is conforming\n')
    expect(open.code).toBe(0)
    // A window is loaded as a window (ENV-10): one from seq 5 is judged, and so is one that breaks its count.
    const window = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', inputFile('window.json', { baseSeq: 5, events: [USER(5, 'u5')] })])
    expect(window.stdout.split('\n').slice(1)).toEqual(['fake-misorder: agrees with the reference', ''])
    const broken = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', inputFile('broken-window.json', { baseSeq: 5, events: [USER(6, 'u6')] })])
    // A window is checked as a log of its own and its rejection passed on (PROC-9, ENV-10): judged.
    expect(broken.stdout).toMatch(/^fake-misorder: differs from the reference: step 0 \(surface\): expected rejection ENV_SEQ_NOT_CONTIGUOUS/m)
    expect(broken.stdout).not.toContain('not judged')
    expect(broken.code).toBe(1)
    const garbled = await runCliHere(['compare', '--adapter-cmd', 'node tests/fakes/fake-adapter.mjs garbage', '--operation', 'surface', REJECTED])
    expect(garbled.stdout).toMatch(/^fake-garbage: gave no answer: garbage: /m)
    expect(garbled.code).toBe(1)
  })

  it('judges an append onto a log load rejects only in its vocabulary phase: a writer accepts any type (PROC-9)', async () => {
    const unknownType = inputFile('unknown-type.json', { events: [USER(0, 'u0'), { type: 'team/task', seq: 1, time: 2, data: {} }], candidate: { type: 'x/z', data: {} }, time: 5 })
    const outcome = await runCliHere(['compare', '--adapter-module', WRITER_MODULE, '--operation', 'append', unknownType])
    expect(outcome.stdout).toMatch(/^writer-module: differs from the reference: step 0 \(append\): expected acceptance, got rejection FORMAT_UNKNOWN_EVENT_TYPE at seq 1/m)
    expect(outcome.stdout).not.toContain('not judged')
    expect(outcome.code).toBe(1)
  })

  it('asks a writer-only adapter the load, surface and messages a writer provides', async () => {
    const outcome = await runCliHere(['compare', '--adapter-module', WRITER_MODULE, '--operation', 'messages', LOADS])
    expect(outcome.stdout).toContain('writer-module: agrees with the reference\n')
    expect(outcome.code).toBe(0)
  })

  it.each([
    ['append', 'its time is no non-negative safe integer (PROC-4)', { events: [USER(0, 'u0')], candidate: { type: 'x/z', data: {} }, time: -5 }],
    ['requestHeader', 'its atSeq is the seq of no event of the log (HDR-4)', { events: [USER(0, 'u0')], atSeq: 7 }],
    ['requestHeader', 'its atSeq is the seq of no event of the log (HDR-4)', { events: [USER(0, 'u0')], atSeq: { $dsh: '-0' } }],
    ['messages', 'load rejects the log (HEADER_ID_MISMATCH)', { header: { version: 0, id: 's', createdAt: 1 }, sessionId: 't', events: [USER(0, 'u0')] }],
    ['fork', 'its childId is no non-empty string', { events: [USER(0, 'u0')], childId: '', now: 5 }],
    ['compactionState', 'its entry is neither "automatic" nor "manual"', { events: [USER(0, 'u0')], entry: null }],
    ['regionBalance', 'it gives only one of start and end (REGION-6)', { events: [USER(0, 'u0')], start: 0 }],
    ['messages', 'its events is no array, outside every operation\'s domain (PROC-10)', { events: 5 }],
    ['store', 'its header is one chapter 03 refuses (STORE-1)', { header: 5, batches: [[USER(0, 'u0')]] }],
    ['store', 'its batches are absent or no array, or have a hole or a batch that is no array, whatever its header (STORE-1)', { header: HEADER, batches: { $dsh: 'sparse-array', length: 2, entries: { 1: [USER(0, 'u0')] } } }],
    ['store', 'load, the vocabulary phase aside, rejects the log (MESSAGE_ID_INVALID)', { header: HEADER, batches: [[USER(0, '')]] }],
    ['encodeJsonl', 'its header is one chapter 03 refuses (JSONL-5)', { batches: [[USER(0, 'u0')]] }],
    ['decodeJsonl', 'it gives neither or both of text and base64', { text: '', base64: '' }],
    ['artifactPath', 'its encoding is neither "raw" nor "zstd"', { sessionId: 's', encoding: null }],
    ['headerEquals', 'a side is no request-header snapshot of lossless values (HDR-5)', { left: { config: {} }, right: { config: 5 } }],
    ['surface', 'its baseSeq is no non-negative safe integer (PROC-10)', { events: [USER(0, 'u0')], baseSeq: true }],
  ])('judges nothing of %s outside its domain: %s', async (operation, reason, input) => {
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', operation, inputFile(`open-${operation}.json`, input)])
    expect(outcome.stdout).toContain(`not judged: ${reason}`)
    expect(outcome.code).toBe(0)
  })

  it('judges a store whose first fault is a value outside the lossless domain (STORE-4), after a good batch', async () => {
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'store', inputFile('store-refused.json', { header: HEADER, batches: [[USER(0, 'u0')], [{ ...(USER(1, 'u1') as object), time: { $dsh: '-0' } }]] })])
    expect(outcome.stdout).toContain('"code":"JSON_NEGATIVE_ZERO"')
    expect(outcome.stdout).not.toContain('not judged')
  })

  it('cuts a long rejection message of the reference, which is never compared', async () => {
    const deep = inputFile('deep.json', { events: [{ type: 'plan/mode', seq: 0, time: 1, data: { $dsh: 'nested', depth: 3000, leaf: { $dsh: '-0' } } }] })
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'load', deep])
    const line = outcome.stdout.split('\n')[0]!
    expect(line).toMatch(/^reference: \{"ok":false,"error":\{"code":"JSON_NEGATIVE_ZERO","seq":0,"message":".*\\u2026 \(\d+ more characters\)"\}\}$/)
    expect(line.length).toBeLessThan(1200)
  })

  it('finds the Python example agreeing on a rewrite whose original is in the older shape (LEGACY-11), the rewrite in the current one', async () => {
    const result = (seq: number, data: Record<string, unknown>, surfaceOp: unknown, cites: number): Record<string, unknown> =>
      ({ type: 'tool/result', seq, time: 1000 + seq, data: { turn: 1, step: 1, ...data }, surfaceOp, sourceEventSeqs: [cites] })
    const block = (text: string): unknown => [{ type: 'text', text }]
    const mixed = inputFile('older-original.json', { events: [
      { type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } },
      { type: 'step/start', seq: 1, time: 1001, data: { turn: 1, step: 1 } },
      { type: 'tool/call', seq: 2, time: 1002, data: { turn: 1, step: 1, callId: 'c1', name: 'tool', arguments: '{}' } },
      result(3, { callId: 'c1', content: block('long output'), isError: false }, 'append', 2),
      result(4, { message: { id: 'legacy-message::3', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content: block('[removed]'), isError: false }], source: { kind: 'tool', callId: 'c1' } } }, { op: 'replace', start: 3, end: 3 }, 3),
    ] })
    const outcome = await runCliHere(['compare', '--adapter-cmd', 'python3 examples/python-adapter/adapter.py', '--operation', 'surface', mixed])
    expect(outcome.stdout).toContain('python-toy-surface: agrees with the reference\n')
    expect(outcome.code).toBe(0)
  })

  it('counts an input whose result the spec leaves open as not judged, whatever the answer, the reference\'s own included', async () => {
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'surface', LOADS, REJECTED])
    expect(outcome.stdout.split('\n').at(-2)).toBe('2 inputs: 1 agrees, 1 not judged')
    expect(outcome.code).toBe(0)
  })

  it('says an answer the spec leaves open is otherwise than the reference\'s, not that it differs', async () => {
    const outcome = await runCliHere(['compare', '--adapter-module', WRITER_MODULE, '--operation', 'append', inputFile('time.json', { events: [], candidate: { type: 'x/z', data: {} }, time: 1.5 })])
    expect(outcome.stdout).toMatch(/^writer-module: answers otherwise than the reference: /m)
    expect(outcome.stdout).toContain('not judged: its time is no non-negative safe integer (PROC-4), outside the operation\'s domain, so any answer is conforming\n')
    expect(outcome.code).toBe(0)
  })

  it('runs several inputs through one adapter, each under its name, counts them, and exits 1 when one differs', async () => {
    const replaced = inputFile('several-replaced.json', {
      events: [USER(0, 'u0'), USER(1, 'u1'), { type: 'user/message', seq: 2, time: 3, data: { id: 'u2', role: 'user', content: [], source: { kind: 'compact' } }, surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] }],
    })
    const outcome = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', LOADS, REJECTED, replaced])
    const lines = outcome.stdout.split('\n')
    expect(lines.filter((line) => line.startsWith('--- '))).toEqual([`--- ${LOADS}`, `--- ${REJECTED}`, `--- ${replaced}`])
    expect(lines.at(-2)).toBe('3 inputs: 1 agrees, 1 not judged, 1 differs')
    expect(outcome.code).toBe(1)
    // Any input that cannot be read stops the command before it runs one.
    const unreadable = await runCliHere(['compare', '--adapter-cmd', MISORDER, '--operation', 'surface', LOADS, inputFile('several-broken.json', '{')])
    expect(unreadable.stdout).toBe('')
    expect(unreadable.code).toBe(2)
  })

  it('prints the adapter\'s name, its failure and the input names through printable, the failure\'s later lines after a tab: no line passes for a verdict', async () => {
    const named = inputFile(`in${HOSTILE}.json`, { events: [USER(0, 'u0')] })
    const outcome = await runCliHere(['compare', '--adapter-cmd', hostileAdapterCommand(HOSTILE), '--operation', 'surface', LOADS, named])
    expect(outcome.stdout).not.toMatch(RAW_CONTROL)
    const lines = outcome.stdout.split('\n')
    expect(lines.filter((line) => line.startsWith('--- '))).toEqual([`--- ${LOADS}`, `--- ${named.replace(HOSTILE, HOSTILE_ESCAPED)}`])
    // The failure's message and traceback: their every line break (CR LF included) starts a line of its own, after a tab.
    const verdict = `${HOSTILE_ESCAPED}: gave no answer: adapter error: evil\\u001b]0;TITLE\\u0007\\u001b[2J`
    expect(lines.filter((line) => !/^(reference: |--- |\t|$)/.test(line))).toEqual([verdict, verdict, '2 inputs: 2 no answer'])
    expect(outcome.stdout).toContain(`${verdict}\n\tforged: ok\\u202e failed\n\tevil\\u001b]0;TITLE\\u0007\\u001b[2J\n\tforged: ok\\u202e: agrees with the reference\n\tTraceback:\n`)
    expect(outcome.code).toBe(1)
  })

  it('names an input it cannot read through printable', async () => {
    const absent = `${LOADS}${HOSTILE}`
    const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'load', absent])
    expect(outcome.stderr.startsWith(`${LOADS}${HOSTILE_ESCAPED}: `)).toBe(true)
    expect(outcome.stderr).not.toMatch(RAW_CONTROL)
    expect(outcome.stderr.split('\n')).toHaveLength(2)
    expect(outcome.code).toBe(2)
  })

  it('refuses a bad command line or an input that is no JSON object, naming it, exit 2', async () => {
    expect(parseCompareOptions(['--adapter', 'reference', LOADS])).toEqual({ error: 'compare needs --operation' })
    expect(parseCompareOptions(['--adapter', 'reference', '--operation', 'lod', LOADS])).toEqual({ error: '--operation lod is no operation of spec/00-processing.md; did you mean load?' })
    expect(parseCompareOptions(['--operation', 'load', LOADS])).toEqual({ error: 'compare needs exactly one --adapter, --adapter-cmd or --adapter-module' })
    expect(parseCompareOptions(['--adapter', 'reference', '--operation', 'load'])).toEqual({ error: 'compare needs an INPUT file (- for stdin)' })
    expect(parseCompareOptions(['--adapter', 'reference', '--operation', 'load', '-', LOADS, '-'])).toEqual({ error: 'compare reads stdin (-) once' })
    for (const [name, text, message] of [['array.json', '[1]', 'the input must be a JSON object'], ['broken.json', '{"events":', 'JSON'], ['tag.json', '{"events":[{"$dsh":"nope"}]}', 'unknown tagged value']]) {
      const path = inputFile(name!, text)
      const outcome = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'load', path])
      expect(outcome.stderr, name).toMatch(new RegExp(`^${path}: .*${message!}`))
      expect(outcome.code, name).toBe(2)
    }
    // A JSON fault Node names by its offset is named by its line and column too (the '2' here).
    const twoLines = inputFile('two-lines.json', '{\n  "events": [1 2]}')
    const broken = await runCliHere(['compare', '--adapter', 'reference', '--operation', 'load', twoLines])
    expect(broken.stderr).toMatch(new RegExp(`^${twoLines}: .* at position 17 \\(line 2,? column 16\\)\n$`))
  })
})
