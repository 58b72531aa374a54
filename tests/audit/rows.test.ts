// The seven rows of `dsh-conformance audit`: on the corpus compaction-recovery log (skipped, and
// saying so, when ../shared/corpus is absent) and on small hand-built logs, one per failure signal of
// spec/acceptance.md. Every report must also validate against schemas/audit-report.schema.json.
import { beforeAll, describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditReport } from '../../generated/types/index.ts'
import { buildAuditReport } from '../../conformance/audit/report.ts'
import { loadTokenCounter } from '../../conformance/audit/tokens.ts'
import { tokenizerLine } from '../../conformance/audit/format.ts'
import { renderText } from '../../conformance/audit/render-text.ts'
import { CANNOT_DECIDE } from '../../conformance/audit/row-constraints.ts'
import { absentTerms } from '../../conformance/audit/replacements.ts'
import { event, call, endSeed, stepEnd, stepStart, turnEnd, turnStart } from '../reference/helpers.ts'
import { rawFrame, zstdArtifact } from '../check/support.ts'
import {
  artifact, assistantText, auditOf, compactedLog, corpusBytes, corpusLog, corpusPresent, goodTurn, requestHeader, rowOf, TOOL, userText, verdicts,
} from './logs.ts'
import { errorsOf, schemaValidator } from '../support/schemas.ts'

const validateReport = schemaValidator('audit-report')

function expectValid(report: AuditReport): void {
  const valid = validateReport(JSON.parse(JSON.stringify(report)))
  expect(valid, errorsOf(validateReport)).toBe(true)
}

function texts(report: AuditReport, id: Parameters<typeof rowOf>[1], mark?: string): string {
  return rowOf(report, id).evidence.filter(item => mark === undefined || item.mark === mark).map(item => item.text).join('\n')
}

const ALL_PASS = {
  'raw-facts': 'pass', 'surface-legality': 'pass', 'constraint-preservation': 'pass', 'request-rebuild': 'pass',
  persistence: 'pass', 'failure-recovery': 'pass', budget: 'pass',
}

function resumed(events: SessionEvent[]): SessionEvent[] {
  const value = reference.resume({ events, now: 5000 })
  if (!value.ok) throw new Error(`resume rejects the log: ${value.error.code}`)
  return value.value
}

describe.skipIf(!corpusPresent)(`audit of the corpus compaction-recovery log${corpusPresent ? '' : ' (skipped: ../shared/corpus/upstream-rc8 is absent)'}`, () => {
  let report: AuditReport
  beforeAll(async () => {
    report = buildAuditReport({ file: corpusLog, bytes: corpusBytes() }, await loadTokenCounter())
  }, 30_000)

  it('renders all seven rows, in the order of the acceptance table, with a verdict each', () => {
    expect(report.rows.map(row => row.title)).toEqual([
      'Raw-fact integrity', 'Surface legality', 'Constraint preservation', 'Request rebuild', 'Persistence', 'Failure recovery', 'Budget',
    ])
    expect(verdicts(report)).toEqual({ ...ALL_PASS, 'constraint-preservation': 'human', budget: 'warn' })
    expect(report.overall).toBe('warn')
    for (const row of report.rows) expect(row.evidence.length, row.id).toBeGreaterThan(0)
    expectValid(report)
  })

  it('counts with the DeepSeek tokenizer package', () => {
    expect(report.tokenizer.kind).toBe('tokenizer')
    expect(report.tokenizer.name).toMatch(/^@lenml\/tokenizer-deepseek_v3@/)
    expect(report.budget?.tokens.toolCount).toBe(15)
    expect(report.budget?.tokens.systemPrompt).toBeGreaterThan(0)
  })

  it('lists the one checkpoint with the range it shadowed and both texts, and says it cannot judge them', () => {
    expect(report.replacements).toHaveLength(1)
    const [checkpoint] = report.replacements
    expect(checkpoint).toMatchObject({ seq: 21, kind: 'compaction-checkpoint', start: 4, end: 4, shadowedSeqs: [4], citedSeqs: [19, 20, 4], bracketOutcome: 'completed', recordedShadowedTokenCount: 266 })
    expect(checkpoint?.shadowed[0]?.text).toContain('persistence uses JSONL')
    expect(checkpoint?.text).toContain('The request established a durable compaction premise.')
    expect(checkpoint?.absentTerms).toContain('JSONL')
    expect(texts(report, 'constraint-preservation')).toContain(CANNOT_DECIDE)
  })

  it('shows the recovery: the context overflow at seq 18, then the completed bracket and the retried call', () => {
    expect(texts(report, 'failure-recovery')).toContain('the model call failed at seq 18 (CONTEXT_WINDOW_EXCEEDED)')
    expect(texts(report, 'failure-recovery')).toContain('compaction bracket 19…22 (completed), then assistant message seq 28')
    // Chapter 13's failure classes: a cancel during the flush leaves a completed bracket too.
    expect(texts(report, 'failure-recovery', 'pass')).toContain('compaction bracket 19…22 is completed; possible classes: a success (or persistence, when the flush after it failed, or cancelled, when the cancel signal fired during that flush)')
    expect(report.timeline?.brackets).toEqual([{ startSeq: 19, endSeq: 22, outcome: 'completed', compactionId: '338e88fa-e78b-4d49-bd38-8f919e85f5e1', error: null }])
    expect(report.timeline?.finalSurface).toEqual([21, 13, 15, 28])
  })

  it('finds a header in force before each of the three model calls, the failed attempt at seq 18 among them (DER-10)', () => {
    expect(texts(report, 'request-rebuild', 'pass')).toMatch(/assistant message seq 13: header seq 6[\s\S]*the model call streamed from seq 18 \(no assistant message\): header seq 6[\s\S]*assistant message seq 28: header seq 6/)
    expect(rowOf(report, 'request-rebuild').summary).toMatch(/^Each of the 3 model calls /)
  })
})

describe('audit of hand-built logs', () => {
  it('passes every row of one clean turn, and validates against the schema', () => {
    const report = auditOf(artifact(goodTurn()))
    expect(verdicts(report)).toEqual(ALL_PASS)
    expect(report.overall).toBe('pass')
    expect(report.tokenizer.kind).toBe('estimate')
    expect(report.tokenizer.note).toContain('estimates')
    expectValid(report)
  })

  it('writes the same report twice over one log, and says how many runs of text the tokenizer estimated', async () => {
    const counter = await loadTokenCounter()
    expect(tokenizerLine(buildAuditReport({ file: 'test.jsonl', bytes: artifact(goodTurn()) }, counter))).toBe(`token counts: ${counter.name}`)
    // A system prompt of one letter, too long to count, in force at the replace and at the end: one run.
    const longSystem = compactedLog().map(item => (item.type === 'request/header' ? requestHeader(item.seq, [TOOL], { system: 'A'.repeat(200_000) }) : item))
    const [once, twice] = [1, 2].map(() => buildAuditReport({ file: 'test.jsonl', bytes: artifact(longSystem) }, counter))
    expect(once!.replacements).toHaveLength(1)
    expect(renderText(twice!)).toBe(renderText(once!))
    expect(once!.tokenizer.estimatedRuns).toBe(1)
    expect(tokenizerLine(once!)).toBe(`token counts: ${counter.name}; 1 run of text too long to count, with no place to cut it, estimated at one token per 4 UTF-8 bytes`)
    const estimated = { ...once!, tokenizer: { ...once!.tokenizer, estimatedRuns: 2 } }
    expect(tokenizerLine(estimated)).toBe(`token counts: ${counter.name}; 2 runs of text too long to count, with no place to cut them, estimated at one token per 4 UTF-8 bytes`)
  }, 30_000)

  it('counts the model calls whose request it rebuilt, and names a lone one as such', () => {
    const rebuilt = 'has a request header in force, with the provider, model, system prompt and tools it names.'
    expect(rowOf(auditOf(artifact(goodTurn())), 'request-rebuild').summary).toBe(`Each of the 2 model calls ${rebuilt}`)
    const oneCall = [...goodTurn().slice(0, 8), turnEnd(8, 1)]
    expect(rowOf(auditOf(artifact(oneCall)), 'request-rebuild').summary).toBe(`The one model call ${rebuilt}`)
  })

  it('fails failure recovery on a live orphaned compaction lock', () => {
    const events = [...goodTurn(), event('compaction/start', 12, { compactionId: 'k9', turn: null })]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(texts(report, 'failure-recovery', 'fail')).toContain('compaction/start seq 12 is unmatched and live')
    expect(report.timeline?.brackets[0]?.outcome).toBe('orphaned-live')
    expectValid(report)
  })

  it('warns of a stale bracket whose checkpoint landed: the surface holds a compaction never confirmed', () => {
    const crashed = [...compactedLog().slice(0, -1), event('session/end-seed', 15, {})]
    const report = auditOf(artifact(crashed))
    expect(report.log.rejection).toBeNull()
    expect(report.timeline?.brackets[0]?.outcome).toBe('orphaned-stale')
    expect(rowOf(report, 'failure-recovery').verdict).toBe('warn')
    expect(texts(report, 'failure-recovery', 'warn')).toContain('compaction bracket 12…(no end) is orphaned-stale; possible classes: a crash of an earlier lifecycle, but its checkpoint at seq 14 landed: the surface holds a compaction whose bracket never closed')
    // One that landed nothing holds nothing.
    const before = auditOf(artifact([...compactedLog().slice(0, 13), event('session/end-seed', 13, {})]))
    expect(rowOf(before, 'failure-recovery').verdict).toBe('pass')
  })

  it('passes failure recovery when a session/end-seed made the orphaned lock stale', () => {
    const events = [...goodTurn(), event('compaction/start', 12, { compactionId: 'k9', turn: null }), event('session/end-seed', 13, {})]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'failure-recovery').verdict).toBe('pass')
    expect(texts(report, 'failure-recovery')).toContain('unmatched but stale')
    expect(report.timeline?.endSeeds).toEqual([13])
  })

  it('fails request rebuild for an assistant message with no request header in force', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), assistantText(3, 1, 1, 'hello'), stepEnd(4, 1, 1), turnEnd(5, 1)]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'request-rebuild').verdict).toBe('fail')
    expect(texts(report, 'request-rebuild', 'fail')).toContain('assistant message seq 3 has no request header in force')
  })

  it('holds a failed attempt to the request state at its stream, though a retry in its step answered (DER-10)', () => {
    const failedFinish = (seq: number): SessionEvent => event('assistant/chunk', seq, { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'error', failure: { message: 'overloaded' } } } })
    const retried = [turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), failedFinish(3), requestHeader(4), event('assistant/chunk', 5, { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } }), assistantText(6, 1, 1, 'hello'), stepEnd(7, 1, 1), turnEnd(8, 1)]
    const report = auditOf(artifact(retried))
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'request-rebuild').verdict).toBe('fail')
    expect(texts(report, 'request-rebuild', 'fail')).toContain('the model call streamed from seq 3 (no assistant message) has no request header in force')
    // The answered attempt is built from the header at seq 4, and named by its message.
    expect(texts(report, 'request-rebuild', 'pass')).toContain('assistant message seq 6: header seq 4')
    // A drifted route at the failed attempt's stream is that attempt's fault.
    const drifted = [...retried.slice(0, 3), requestHeader(3), event('request/context', 4, { provider: 'other', model: 'm', contextWindow: 1000 }), failedFinish(5), event('request/context', 6, { provider: 'p', model: 'm', contextWindow: 1000 }), ...retried.slice(5).map((item, index) => ({ ...item, seq: 7 + index }))]
    const driftReport = auditOf(artifact(drifted))
    expect(driftReport.log.rejection).toBeNull()
    expect(texts(driftReport, 'request-rebuild', 'fail')).toContain('at the model call streamed from seq 5 (no assistant message) the request context routes to other/m')
  })

  it('takes a message after a failed attempt as a call of its own: a retry that streamed no chunk, or one after llm/retry', () => {
    const failedFinish = (seq: number): SessionEvent => event('assistant/chunk', seq, { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'error', failure: { message: 'overloaded' } } } })
    const delta = (seq: number): SessionEvent => event('assistant/chunk', seq, { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'he' } })
    const ended = (seq: number): SessionEvent[] => [stepEnd(seq, 1, 1), turnEnd(seq + 1, 1)]
    // The retry streamed no chunk (PROV-9: its message cites none): it was built on the header at seq 4.
    const noChunk = auditOf(artifact([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), failedFinish(3), requestHeader(4), assistantText(5, 1, 1, 'hello'), ...ended(6)]))
    expect(noChunk.log.rejection).toBeNull()
    expect(texts(noChunk, 'request-rebuild', 'fail')).toBe('the model call streamed from seq 3 (no assistant message) has no request header in force before it: its request cannot be rebuilt')
    expect(texts(noChunk, 'request-rebuild', 'pass')).toContain('assistant message seq 5: header seq 4')
    // A failed attempt with no finish chunk ends at the llm/retry of its step.
    const retry = event('llm/retry', 4, { retryId: 'r1', turn: 1, step: 1, provider: 'p', mode: 'always', policyKey: 'k', retry: 1, delayMs: 0, failure: { message: 'overloaded' } })
    const noFinish = auditOf(artifact([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), delta(3), retry, requestHeader(5), delta(6), assistantText(7, 1, 1, 'hello'), ...ended(8)]))
    expect(noFinish.log.rejection).toBeNull()
    expect(texts(noFinish, 'request-rebuild', 'fail')).toBe('the model call streamed from seq 3 (no assistant message) has no request header in force before it: its request cannot be rebuilt')
    expect(texts(noFinish, 'request-rebuild', 'pass')).toContain('assistant message seq 7: header seq 5')
    expect(rowOf(noFinish, 'request-rebuild').evidence.filter(item => item.mark === 'pass' || item.mark === 'fail')).toHaveLength(2)
  })

  it('fails request rebuild when the request context drifted from the header\'s route', () => {
    const events = goodTurn()
    events.splice(4, 0, event('request/context', 4, { provider: 'other', model: 'm', contextWindow: 1000 }))
    const report = auditOf(artifact(events.map((item, seq) => ({ ...item, seq }))))
    expect(rowOf(report, 'request-rebuild').verdict).toBe('fail')
    expect(texts(report, 'request-rebuild', 'fail')).toContain('routes to other/m, but the header names p/m')
  })

  it('warns on persistence for a torn tail, and still evaluates the committed events', () => {
    const tail = '{"type":"turn/start","seq":12,"ti'
    const report = auditOf(artifact(goodTurn(), tail))
    expect(rowOf(report, 'persistence').verdict).toBe('warn')
    expect(texts(report, 'persistence', 'warn')).toMatch(new RegExp(`torn tail from line 14 \\(byte \\d+, unterminated\\): dropped on read as uncommitted data, 1 line \\(${tail.length} bytes\\) from there on; a writer truncates`))
    expect(rowOf(report, 'raw-facts').verdict).toBe('pass')
    expect(rowOf(report, 'raw-facts').summary).toContain('of the committed log (a torn tail is dropped: see Persistence)')
    expect(report.log.events).toBe(12)
    // JSONL-15 is the zstd rule: a raw log's torn tail cites the raw ones.
    expect(rowOf(report, 'persistence').evidence.find(item => item.mark === 'warn')?.requirements).toEqual(['JSONL-11', 'JSONL-12'])
  })

  it('claims of a clean log only what it shows: no lost write, no marked reopening, no citation to check', () => {
    const report = auditOf(artifact(goodTurn()))
    expect(rowOf(report, 'persistence').summary).toBe('The log shows no lost write: no torn tail, no turn open at the tail, every resumption marked.')
    expect(texts(report, 'persistence', 'info')).toContain('no session/end-seed: the log marks no reopening')
    expect(texts(report, 'persistence', 'info')).not.toContain('seedLength')
    expect(texts(report, 'raw-facts', 'info')).toContain('no event cites an earlier one in sourceEventSeqs: no citation to check')
    expect(texts(report, 'raw-facts', 'pass')).not.toContain('cite')
    expect(rowOf(report, 'failure-recovery').summary).toBe('Every interrupted turn, call and compaction is closed or detectable, with the failure classes that could leave it.')
    expect(texts(auditOf(artifact(compactedLog())), 'raw-facts', 'pass')).toMatch(/^1 event cites 5 earlier events in sourceEventSeqs;/m)
    // Two events citing one: the event is counted once, the citations beside.
    const twice = goodTurn().map(item => (item.seq === 6 || item.seq === 9 ? { ...item, sourceEventSeqs: [2] } : item))
    expect(texts(auditOf(artifact(twice)), 'raw-facts', 'pass')).toMatch(/^2 events cite 1 earlier event \(2 citations\) in sourceEventSeqs;/m)
  })

  it('reports the seed a fork child inherited, from the header (SEED-2: no other count must agree with it)', () => {
    const text = new TextDecoder().decode(artifact(goodTurn())).replace('"delegationDepth":0', '"delegationDepth":0,"seedLength":3')
    const report = auditOf(new TextEncoder().encode(text))
    expect(texts(report, 'persistence', 'info')).toContain('the header records a seed of 3 events inherited from the parent session (seedLength)')
    expect(rowOf(report, 'persistence').verdict).toBe('pass')
  })

  it('fails persistence and raw facts when a damaged line is followed by a committed turn/end', () => {
    const lines = new TextDecoder().decode(artifact(goodTurn().slice(0, 11))).split('\n')
    lines.splice(5, 1, 'not json')
    const damaged = `${lines.join('\n')}${JSON.stringify(turnEnd(11, 1))}\n`
    const report = auditOf(new TextEncoder().encode(damaged))
    expect(verdicts(report)).toEqual({ ...Object.fromEntries(Object.keys(ALL_PASS).map(id => [id, 'fail'])) })
    expect(report.log.rejection).toMatchObject({ operation: 'decodeJsonl', code: 'JSONL_LINE_UNPARSABLE', line: 6 })
    expect(texts(report, 'surface-legality')).toContain('not evaluated')
    // A row that judged nothing asks no person to weigh anything either.
    for (const id of ['surface-legality', 'constraint-preservation', 'failure-recovery', 'budget'] as const) expect(rowOf(report, id).needsHuman).toBeNull()
    expect(report.timeline).toBeNull()
    expectValid(report)
  })

  it('says what a decoding refusal means: a header line that is none, a record that does not decode', () => {
    const goodLines = new TextDecoder().decode(artifact(goodTurn())).split('\n')
    const noHeader = new TextEncoder().encode(['{"type":"session","version":0}', ...goodLines.slice(1)].join('\n'))
    expect(texts(auditOf(noHeader), 'raw-facts', 'fail')).toMatch(/^decodeJsonl rejects the log with JSONL_HEADER_INVALID at line 1: .*; without a valid session header line, no event of the log is read$/)
    expect(auditOf(noHeader).log.sessionId).toBeNull()
    // A header line that fails its checks still names its session, which the report shows.
    const undepthed = new TextEncoder().encode(['{"type":"session","version":0,"id":"named","createdAt":1,"cwd":"/w"}', ...goodLines.slice(1)].join('\n'))
    expect(auditOf(undepthed).log).toMatchObject({ sessionId: 'named', rejection: { code: 'JSONL_HEADER_INVALID' } })
    // With no line feed the first line is the whole file, which readLog's values limit never counted
    // (it counts complete lines): one that would build more values than check parses in a line is
    // not parsed for its id (a 10 MB one took the process past a 256 MB heap).
    const deepId = (depth: number): Uint8Array => new TextEncoder().encode(`{"type":"session","id":"deep","x":${'['.repeat(depth)}${']'.repeat(depth)}}`)
    expect(auditOf(deepId(1000)).log.sessionId).toBe('deep')
    expect(auditOf(deepId(1_048_577)).log).toMatchObject({ sessionId: null, rejection: { code: 'JSONL_HEADER_INVALID' } })
    const gap = new TextEncoder().encode([...goodLines.slice(0, 3), ...goodLines.slice(4)].join('\n'))
    expect(texts(auditOf(gap), 'raw-facts', 'fail')).toMatch(/^decodeJsonl rejects the log with JSONL_SEQ_GAP at line 4: .*; a line breaks the seq count: an event is missing, doubled or out of place, or the line holds no event$/)
    // A line that holds no event breaks the count too: the meaning does not say an event was lost.
    const array = new TextEncoder().encode([...goodLines.slice(0, 3), '[1,2,3]', ...goodLines.slice(3)].join('\n'))
    expect(texts(auditOf(array), 'raw-facts', 'fail')).toMatch(/^decodeJsonl rejects the log with JSONL_SEQ_GAP at line 4: .*holds an array, not an event.*; a line breaks the seq count: .*or the line holds no event$/)
    const garbled = new TextEncoder().encode([...goodLines.slice(0, 3), '{"type":', ...goodLines.slice(4)].join('\n'))
    expect(texts(auditOf(garbled), 'raw-facts', 'fail')).toMatch(/^decodeJsonl rejects the log with JSONL_LINE_UNPARSABLE at line 4: .*; a record does not decode$/)
  })

  it('says what a relation violation breaks, in the words check prints, beside what it means for the row', () => {
    const report = auditOf(artifact([...goodTurn(), turnEnd(12, 1)]))
    expect(texts(report, 'raw-facts', 'fail')).toBe('TURN_NOT_OPEN at seq 12 (turn/end): turn/end with no open turn, so a turn or step boundary is missing or out of place')
  })

  it('puts a load refusal for a surface rule under surface legality, and persistence says the log does not load', () => {
    const replace = { ...userText(12, 'summary'), surfaceOp: { op: 'replace', start: 40, end: 2 }, sourceEventSeqs: [2] } as SessionEvent
    const report = auditOf(artifact([...goodTurn(), replace]))
    expect(report.log.rejection).toMatchObject({ operation: 'load', code: 'SURFACE_REPLACE_START_NOT_FOUND', seq: 12 })
    expect(rowOf(report, 'surface-legality').verdict).toBe('fail')
    expect(texts(report, 'surface-legality', 'fail')).toContain('load rejects the log with SURFACE_REPLACE_START_NOT_FOUND at seq 12')
    expect(texts(report, 'surface-legality')).not.toContain('not evaluated')
    expect(rowOf(report, 'raw-facts').summary).toContain('breaks a surface rule (see Surface legality)')
    expect(rowOf(report, 'persistence').summary).toBe('The log does not load, so its durability cannot be established.')
    expectValid(report)
  })

  it('fails raw facts on an unknown event type that is not marked ignorable, and keeps an ignorable one', () => {
    const refused = auditOf(artifact([...goodTurn(), event('future/thing', 12, {})]))
    expect(rowOf(refused, 'raw-facts').verdict).toBe('fail')
    expect(texts(refused, 'raw-facts')).toContain('FORMAT_UNKNOWN_EVENT_TYPE')
    const kept = auditOf(artifact([...goodTurn(), event('future/thing', 12, {}, { ignorable: true })]))
    expect(rowOf(kept, 'raw-facts').verdict).toBe('pass')
    expect(texts(kept, 'raw-facts')).toContain('future/thing')
  })

  it('shows the start of a long value a rejection message quotes, and the rest of the message', () => {
    const report = auditOf(artifact([...goodTurn(), event('x'.repeat(50_000), 12, {})]))
    expect(report.log.rejection?.code).toBe('FORMAT_UNKNOWN_EVENT_TYPE')
    // The value's first 200 characters, then how many it has beyond them: 50,000 - 200.
    expect(report.log.rejection?.message).toMatch(/^event type "x{200}…" \(49800 more characters\) is unknown to this reader/)
    expectValid(report)
  })

  it('warns about an open tail turn whose started call has an unknown outcome', () => {
    const events = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2']), call(16, 2, 1, 'c2')]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'persistence').verdict).toBe('warn')
    expect(texts(report, 'persistence', 'warn')).toContain('turn 2 is open at the tail')
    expect(rowOf(report, 'failure-recovery').verdict).toBe('warn')
    expect(texts(report, 'failure-recovery', 'warn')).toContain('crash repair would answer call "c2" as TOOL_OUTCOME_UNKNOWN')
    expect(rowOf(report, 'surface-legality').verdict).toBe('warn')
  })

  it('points a log of the rc8 builds to --vocabulary v0-rc8, as check does', () => {
    const report = auditOf(artifact([...goodTurn(), event('team/member', 12, {})]))
    expect(report.log.rejection).toMatchObject({ operation: 'load', code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: 12 })
    expect(report.log.rejection?.message).toMatch(/ \(the rc8 builds write team\/member: --vocabulary v0-rc8 knows their types\)$/)
  })

  it('names a stream a cancellation cut, kept as an interrupted message, and how its turn ended', () => {
    const prefix = assistantText(16, 2, 1, 'Start')
    const interrupted = { ...prefix, data: { ...(prefix.data as object), interrupted: true }, sourceEventSeqs: [15] }
    const cut = (ending: SessionEvent[]): AuditReport => auditOf(artifact([
      ...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14),
      event('assistant/chunk', 15, { turn: 2, step: 1, chunk: { type: 'text-delta', index: 0, text: 'Start' } }), interrupted, ...ending,
    ]))
    const closed = cut([stepEnd(17, 2, 1), event('turn/end', 18, { turn: 2, reason: { kind: 'aborted', reason: { kind: 'user' } } })])
    expect(texts(closed, 'failure-recovery', 'info')).toContain('turn 2 was cancelled while the model streamed: the assistant message at seq 16 (interrupted) keeps what was delivered before the cut; its turn ended aborted (turn/end seq 18)')
    expect(rowOf(closed, 'failure-recovery').verdict).toBe('pass')
    expect(texts(cut([stepEnd(17, 2, 1)]), 'failure-recovery', 'info')).toContain('(interrupted) keeps what was delivered before the cut; its turn is not closed')
    // Closed with crash repair's kind and no end-seed marker after it: a writer's mistake, or a repair
    // whose marker is missing (VOC-4, SEED-10). With the marker after it, it is crash repair's own.
    const repairKind = [stepEnd(17, 2, 1), event('turn/end', 18, { turn: 2, reason: { kind: 'interrupted' } })]
    const asRepair = cut(repairKind)
    // At the end of the log no marker is due yet (SEED-10): Persistence says nothing is unmarked.
    expect(texts(asRepair, 'failure-recovery', 'warn')).toContain("its turn ended interrupted (turn/end seq 18) at the end of the log: either its writer wrote crash repair's kind where a cancelled turn ends aborted (VOC-4), or crash repair closed it, and the end-seed marker comes with the reopened session's first live write (SEED-10)")
    expect(rowOf(asRepair, 'failure-recovery').verdict).toBe('warn')
    expect(rowOf(asRepair, 'persistence').verdict).toBe('pass')
    const writtenAfter = cut([...repairKind, requestHeader(19)])
    expect(texts(writtenAfter, 'failure-recovery', 'warn')).toContain("its turn ended interrupted (turn/end seq 18) with no session/end-seed after it: either its writer wrote crash repair's kind where a cancelled turn ends aborted (VOC-4), or crash repair closed it and the end-seed marker that follows repair is missing (see Persistence)")
    expect(rowOf(writtenAfter, 'persistence').verdict).toBe('fail')
    const repaired = cut([...repairKind, event('session/end-seed', 19, {})])
    expect(texts(repaired, 'failure-recovery', 'info')).toContain('its turn ended interrupted (turn/end seq 18)')
    expect(texts(repaired, 'failure-recovery', 'warn')).not.toContain('cancelled')
  })

  it('names the ignorable events of types the vocabulary lacks, in the singular for one', () => {
    const one = auditOf(artifact([...goodTurn(), event('team/task', 12, {}, { ignorable: true })]))
    expect(texts(one, 'raw-facts', 'pass')).toContain('1 event of a type unknown to v0-pinned (team/task) is marked ignorable and kept, not skipped')
    const three = auditOf(artifact([...goodTurn(), ...[12, 13, 14].map(seq => event(seq === 13 ? 'acme/x' : 'team/task', seq, {}, { ignorable: true }))]))
    expect(texts(three, 'raw-facts', 'pass')).toContain('3 events of 2 types unknown to v0-pinned (team/task, acme/x) are marked ignorable and kept, not skipped')
  })

  it('counts the closers of an open tail turn in the singular for one', () => {
    // A turn with no step open needs only its turn/end (REPAIR-5).
    const report = auditOf(artifact([...goodTurn(), turnStart(12, 2)]))
    expect(texts(report, 'failure-recovery', 'info')).toContain('the open tail turn would be closed by 1 repair closer (turn/end)')
  })

  it('fails failure recovery, and does not crash, when the open tail turn cannot be repaired (a call id "")', () => {
    const events = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2', ''])]
    const report = auditOf(artifact(events))
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(texts(report, 'failure-recovery', 'fail')).toContain('the open tail turn cannot be repaired, since its closers would not load (MESSAGE_SOURCE_INVALID at seq 17')
    expect(texts(report, 'failure-recovery')).not.toContain('crash repair would answer')
    expect(texts(report, 'surface-legality', 'warn')).toContain('tool call "c2" of assistant message seq 15 has no result on the current surface: it is pending in the open tail turn, which crash repair cannot close')
    expect(texts(report, 'persistence', 'warn')).toContain('turn 2 is open at the tail: a crash cut it, or a live writer still holds the log; a cold reopening cannot close it')
    expectValid(report)
  })

  it('names a call id that is not a string as it is, pending in the open tail turn that repair cannot close (REPAIR-13)', () => {
    const asked = assistantText(15, 2, 1, 'Running it.', ['c2'])
    const message = (asked.data as { message: { content: Record<string, unknown>[] } }).message
    const numbered = { ...asked, data: { ...(asked.data as object), message: { ...message, content: [message.content[0], { ...message.content[1], id: 123 }] } } }
    const report = auditOf(artifact([...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), numbered]))
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(texts(report, 'surface-legality', 'warn')).toContain('tool call 123 of assistant message seq 15 has no result on the current surface: it is pending in the open tail turn, which crash repair cannot close')
  })

  it('reads a .zstd artifact by its name, and says its bytes are the compressed ones', async () => {
    const lines = new TextDecoder().decode(artifact(goodTurn())).trimEnd().split('\n')
    const zstd = zstdArtifact(lines, [4, 8])
    const counter = await loadTokenCounter('estimate')
    const report = buildAuditReport({ file: 'log.jsonl.zstd', bytes: zstd }, counter)
    expect(report.log.encoding).toBe('zstd')
    expect(texts(report, 'budget')).toContain(`in ${zstd.length} bytes as stored, zstd-compressed`)
    // The same bytes under a raw name are read as raw, as check reads them: no header line.
    expect(buildAuditReport({ file: 'log.jsonl', bytes: zstd }, counter).log.rejection?.code).toBe('JSONL_HEADER_INVALID')
  })

  it('counts the events a torn final zstd frame keeps, which a writer writes again, as check does', async () => {
    const lines = new TextDecoder().decode(artifact(goodTurn())).trimEnd().split('\n')
    const zstd = zstdArtifact(lines, [4, 8])
    // The last frame holds lines 6 to 13 (seqs 4 to 11); cutting its checksum and the end of its last
    // line leaves seven of its eight lines whole (JSONL-15).
    const torn = zstd.subarray(0, zstd.length - 10)
    const frameStart = zstd.length - rawFrame(new TextEncoder().encode(`${lines.slice(5).join('\n')}\n`)).length
    const report = buildAuditReport({ file: 'log.jsonl.zstd', bytes: torn }, await loadTokenCounter('estimate'))
    expect(texts(report, 'persistence', 'warn')).toContain(`torn final frame from line 6 (byte ${frameStart}, unterminated): 7 events from its complete lines are kept on read (JSONL-15 reads them as JSONL-11 does); a writer truncates the artifact to byte ${frameStart}, dropping its last ${torn.length - frameStart} bytes, and writes those 7 events again, as a new frame, before it appends`)
  })

  it('says a header frame that does not decompress is damaged, not a frame of other lines', async () => {
    const lines = new TextDecoder().decode(artifact(goodTurn())).trimEnd().split('\n')
    const zstd = zstdArtifact(lines, [12])
    const headerEnd = rawFrame(new TextEncoder().encode(`${lines[0]}\n`)).length
    zstd[headerEnd - 1] = (zstd[headerEnd - 1] as number) ^ 0xff
    const report = buildAuditReport({ file: 'log.jsonl.zstd', bytes: zstd }, await loadTokenCounter('estimate'))
    expect(texts(report, 'raw-facts', 'fail')).toBe('decodeJsonl rejects the log with JSONL_FRAME_INVALID: the first frame, which holds the header line, does not decompress: its content does not match its checksum; a zstd frame is damaged or not laid out as JSONL-14 says')
  })

  it('gives check\'s words for a later frame that does not decompress: the reason and the line its content starts on', async () => {
    const lines = new TextDecoder().decode(artifact(goodTurn())).trimEnd().split('\n')
    const zstd = zstdArtifact(lines, [12])
    const headerEnd = rawFrame(new TextEncoder().encode(`${lines[0]}\n`)).length
    zstd[zstd.length - 1] = (zstd[zstd.length - 1] as number) ^ 0xff
    const report = buildAuditReport({ file: 'log.jsonl.zstd', bytes: zstd }, await loadTokenCounter('estimate'))
    expect(texts(report, 'raw-facts', 'fail')).toContain(`the frame at byte ${headerEnd} does not decompress (as check's reader puts it: the frame at byte ${headerEnd}, whose content starts on line 2, does not decompress: its content does not match its checksum)`)
  })

  it('says of a first frame of every line what check says: a log compressed whole', async () => {
    const lines = new TextDecoder().decode(artifact(goodTurn())).trimEnd().split('\n')
    const whole = rawFrame(new TextEncoder().encode(`${lines.join('\n')}\n`))
    const report = buildAuditReport({ file: 'log.jsonl.zstd', bytes: whole }, await loadTokenCounter('estimate'))
    expect(texts(report, 'raw-facts', 'fail')).toBe(`decodeJsonl rejects the log with JSONL_FRAME_INVALID: the first frame is not exactly one header line but holds ${lines.length} lines: a log compressed whole, as \`zstd FILE\` writes it, is one frame, and the layout wants the header line in a frame of its own, then a frame per append batch; a zstd frame is damaged or not laid out as JSONL-14 says`)
    // Every record is there: Persistence does not call the frame layout lost committed data.
    expect(texts(report, 'persistence', 'fail')).toMatch(/^the artifact is not a sound sequence of zstd frames \(JSONL_FRAME_INVALID; Raw-fact integrity says where\), which is no torn tail: it was damaged, or was not written as the store writes one/)
    expect(texts(report, 'persistence', 'fail')).not.toContain('what a turn committed was not kept intact')
    expect(rowOf(report, 'persistence').summary).toBe('The artifact is no sound sequence of zstd frames: damaged, or not laid out as the store writes one.')
    // A first frame of one line without its line feed is no whole log: no such words.
    const unended = rawFrame(new TextEncoder().encode(lines[0]!))
    const cut = buildAuditReport({ file: 'log.jsonl.zstd', bytes: unended }, await loadTokenCounter('estimate'))
    expect(texts(cut, 'raw-facts', 'fail')).toBe('decodeJsonl rejects the log with JSONL_FRAME_INVALID: the first frame is not exactly one header line; a zstd frame is damaged or not laid out as JSONL-14 says')
  })

  it('checks a repaired log: closers followed by the end-seed marker, and a resumption snapshot after it', () => {
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2']), call(16, 2, 1, 'c2')]
    const reopened = resumed(crashed)
    const marker = reopened.length - 1
    const next = [turnStart(marker + 1, 3), stepStart(marker + 2, 3, 1), assistantText(marker + 3, 3, 1, 'Back again.'), stepEnd(marker + 4, 3, 1), turnEnd(marker + 5, 3)]
    const report = auditOf(artifact([...reopened, ...next]))
    expect(rowOf(report, 'persistence').verdict).toBe('pass')
    expect(texts(report, 'persistence', 'pass')).toContain(`followed by the session/end-seed at seq ${marker}`)
    expect(rowOf(report, 'failure-recovery').verdict).toBe('warn')
    expect(texts(report, 'failure-recovery')).toContain('turn 2 ended interrupted, the kind crash repair closes a turn with (turn/end seq')
    expect(rowOf(report, 'request-rebuild').verdict).toBe('warn')
    expect(texts(report, 'request-rebuild', 'warn')).toContain(`first model call after the resumption at seq ${marker}`)
  })

  it('warns only of the first model call after each resumption that no snapshot preceded (HDR-6)', () => {
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2']), call(16, 2, 1, 'c2')]
    const reopened = resumed(crashed)
    const marker = reopened.length - 1
    const step = (seq: number, turn: number, number: number, text: string): SessionEvent[] =>
      [stepStart(seq, turn, number), assistantText(seq + 1, turn, number, text), stepEnd(seq + 2, turn, number)]
    // Turn 3 makes two model calls with no request/header since the marker; only the first is the
    // resumed lifecycle's first request. Then a second marker, and one more call without a snapshot.
    const again = marker + 9
    const events = [
      ...reopened, turnStart(marker + 1, 3), ...step(marker + 2, 3, 1, 'Back again.'), ...step(marker + 5, 3, 2, 'Still here.'), turnEnd(marker + 8, 3),
      endSeed(again), turnStart(again + 1, 4), ...step(again + 2, 4, 1, 'Once more.'), turnEnd(again + 5, 4),
    ]
    const report = auditOf(artifact(events))
    expect(report.log.rejection).toBeNull()
    const warnings = rowOf(report, 'request-rebuild').evidence.filter(item => item.requirements?.includes('HDR-6'))
    expect(warnings.map(item => [item.mark, item.seq])).toEqual([['warn', marker + 3], ['warn', again + 3]])
    expect(warnings[1]?.text).toContain(`after the resumption at seq ${again}`)
  })

  it('fails persistence when repair closers are followed by a turn with no session/end-seed between', () => {
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2'])]
    const closed = resumed(crashed).slice(0, -1)
    const next = closed.length
    const report = auditOf(artifact([...closed, turnStart(next, 3), stepStart(next + 1, 3, 1), userText(next + 2, 'again'), stepEnd(next + 3, 3, 1), turnEnd(next + 4, 3)]))
    expect(rowOf(report, 'persistence').verdict).toBe('fail')
    expect(texts(report, 'persistence', 'fail')).toContain(`followed by the turn/start at seq ${next}, not by a session/end-seed: the resumption is not marked`)
    expect(rowOf(report, 'persistence').summary).toBe('A resumption is not marked.')
  })

  it('fails a marker that does not follow the closers right away: something was written before it (SEED-10)', () => {
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2'])]
    const closed = resumed(crashed).slice(0, -1)
    const late = closed.length
    const report = auditOf(artifact([...closed, userText(late, 'written before the marker'), endSeed(late + 1)]))
    expect(rowOf(report, 'persistence').verdict).toBe('fail')
    expect(texts(report, 'persistence', 'fail')).toContain(`followed by the user/message at seq ${late}, not by a session/end-seed`)
  })

  it('fails repair closers followed by any other event and no marker at all (SEED-10)', () => {
    // A log-only event after the closers is a live write of the reopened session, made before its marker.
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2'])]
    const closed = resumed(crashed).slice(0, -1)
    const report = auditOf(artifact([...closed, requestHeader(closed.length)]))
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'persistence').verdict).toBe('fail')
    expect(rowOf(report, 'persistence').evidence.filter(item => item.requirements?.includes('SEED-10'))).toMatchObject([{ mark: 'fail', seq: closed.length - 1 }])
    expect(texts(report, 'persistence', 'fail')).toContain(`followed by the request/header at seq ${closed.length}, not by a session/end-seed`)
    expect(texts(report, 'persistence', 'info')).not.toContain('end the log')
  })

  it('does not fail repair closers that end the log: the marker is the reopened session\'s first live write (SEED-10)', () => {
    const crashed = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', ['c2'])]
    const closed = resumed(crashed).slice(0, -1)
    const report = auditOf(artifact(closed))
    expect(rowOf(report, 'persistence').verdict).toBe('pass')
    expect(rowOf(report, 'persistence').evidence.filter(item => item.requirements?.includes('SEED-10'))).toMatchObject([{ mark: 'info', seq: closed.length - 1 }])
    expect(texts(report, 'persistence', 'info')).toContain('end the log')
  })

  it('asks a person to judge a compaction, with the shadowed range and both texts', () => {
    const report = auditOf(artifact(compactedLog()))
    // The surface left after it is small, so the system prompt and tool schemas dominate the budget.
    expect(verdicts(report)).toEqual({ ...ALL_PASS, 'constraint-preservation': 'human', budget: 'warn' })
    const [checkpoint] = report.replacements
    expect(checkpoint).toMatchObject({ seq: 14, start: 2, end: 6, shadowedSeqs: [2, 4, 6], kind: 'compaction-checkpoint', bracketOutcome: 'completed', compactionId: 'k1' })
    expect(checkpoint?.shadowed.map(node => node.type)).toEqual(['user/message', 'assistant/message', 'tool/result'])
    expect(checkpoint?.text).toContain('loadSettings')
    expect(checkpoint?.absentTerms).toContain('src/config/load.ts')
    expect(rowOf(report, 'constraint-preservation').evidence.map(item => item.mark)).toContain('human')
    // Counted by the estimate here, and said so, as Budget says it.
    expect(texts(report, 'constraint-preservation', 'human')).toMatch(/seqs 2, 4, 6; \d+ estimated tokens\) became \d+ estimated tokens of text/)
    expectValid(report)
  })

  it('passes the budget when the compaction saved tokens and the messages still outweigh the fixed part', () => {
    const events = [...compactedLog(), turnStart(16, 2), stepStart(17, 2, 1), userText(18, 'Now document loadSettings in the README, with an example. '.repeat(20)), requestHeader(19),
      assistantText(20, 2, 1, 'Documented.'), stepEnd(21, 2, 1), turnEnd(22, 2)]
    const report = auditOf(artifact(events))
    expect(verdicts(report)).toEqual({ ...ALL_PASS, 'constraint-preservation': 'human' })
    expect(report.overall).toBe('pass')
    expect(texts(report, 'budget', 'pass')).toMatch(/the replaces saved \d+ estimated tokens/)
  })

  it('warns when a claim records a shadowed token count far from what was shadowed', () => {
    const events = compactedLog()
    const summary = events[13] as SessionEvent
    events[13] = { ...summary, data: { ...(summary.data as object), shadowedTokenCount: 5000 } }
    const report = auditOf(artifact(events))
    expect(texts(report, 'budget', 'warn')).toContain('records shadowedTokenCount 5000')
    expect(texts(report, 'budget', 'warn')).toContain('off by more than a factor of 2')
  })

  it('warns of a checkpoint no smaller than what it shadowed (REGION-8), and fails the budget that saved nothing', () => {
    const report = auditOf(artifact(compactedLog('The user asked for many things. '.repeat(200))))
    const budget = rowOf(report, 'budget')
    expect(budget.verdict).toBe('fail')
    expect(budget.evidence.filter(item => item.mark === 'warn').map(item => [item.seq, item.requirements])).toEqual([[14, ['REGION-8']]])
    expect(texts(report, 'budget', 'fail')).toMatch(/^the replaces did not shorten the surface: /)
  })

  it('fails the budget when the tool schemas grew back more than the compaction saved', () => {
    const tools = Array.from({ length: 40 }, (_, index) => ({ ...TOOL, name: `tool_${index}`, description: 'A tool with a long description. '.repeat(10) }))
    const events = [...compactedLog(), turnStart(16, 2), stepStart(17, 2, 1), requestHeader(18, tools), assistantText(19, 2, 1, 'ok'), stepEnd(20, 2, 1), turnEnd(21, 2)]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'budget').verdict).toBe('fail')
    expect(texts(report, 'budget', 'fail')).toContain('the budget was taken back')
  })

  it('fails surface legality when a replace leaves a result without its call on the surface', () => {
    const events = [
      ...goodTurn(),
      event('user/message', 12, { id: 'x', role: 'user', content: [{ type: 'text', text: 'short' }], source: { kind: 'user' } }, { surfaceOp: { op: 'replace', start: 2, end: 4 }, sourceEventSeqs: [2, 4] }),
    ]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'surface-legality').verdict).toBe('fail')
    const failures = texts(report, 'surface-legality', 'fail')
    expect(failures).toContain('REGION_UNBALANCED')
    expect(failures).toContain('answers call "c1", which is not on the current surface')
  })

  it('fails failure recovery when the model ran on the surface of a failed-partial bracket', () => {
    const base = compactedLog()
    const events = [
      ...base.slice(0, 15),
      event('compaction/end', 15, { compactionId: 'k1', turn: null, error: 'commit: the end could not be flushed' }),
      turnStart(16, 2), stepStart(17, 2, 1), requestHeader(18), assistantText(19, 2, 1, 'continuing'), stepEnd(20, 2, 1), turnEnd(21, 2),
    ]
    const report = auditOf(artifact(events))
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(texts(report, 'failure-recovery', 'fail')).toContain('failed-partial (error: commit: the end could not be flushed)')
  })
})

describe('the timeline', () => {
  it('holds each turn with how it ended, each bracket with its outcome, the markers and the surface left', () => {
    // compactedLog: turn 1 at seqs 0…11, a compaction bracket 12…15 whose checkpoint 14 stands for 2, 4
    // and 6; then a resumption marker and a second turn that a crash cut after its start.
    const events = [...compactedLog(), endSeed(16), turnStart(17, 2), stepStart(18, 2, 1)]
    const timeline = auditOf(artifact(events)).timeline
    expect(timeline).toMatchObject({
      firstTime: 1000,
      lastTime: 1018,
      finalSurface: [14, 9],
      turns: [{ turn: 1, startSeq: 0, endSeq: 11, endReason: 'completed' }, { turn: 2, startSeq: 17, endSeq: null, endReason: null }],
      brackets: [{ startSeq: 12, endSeq: 15, outcome: 'completed', compactionId: 'k1', error: null }],
      endSeeds: [16],
      modelFailures: [],
    })
    expect(timeline?.eventTypes).toEqual(events.map(item => item.type))
  })

  it('gives a bracket that never ended no end, and the error an end records', () => {
    const events = [...goodTurn(), event('compaction/start', 12, { compactionId: 'k1', turn: null }), endSeed(13)]
    expect(auditOf(artifact(events)).timeline?.brackets).toEqual([{ startSeq: 12, endSeq: null, outcome: 'orphaned-stale', compactionId: 'k1', error: null }])
    const clean = [...goodTurn(), event('compaction/start', 12, { compactionId: 'k2', turn: null }), event('compaction/end', 13, { compactionId: 'k2', turn: null, error: 'summary refused' })]
    expect(auditOf(artifact(clean)).timeline?.brackets).toEqual([{ startSeq: 12, endSeq: 13, outcome: 'failed-clean', compactionId: 'k2', error: 'summary refused' }])
  })
})

describe('absent terms', () => {
  it('lists paths, identifiers and numbers the summary never mentions, not ordinary words', () => {
    expect(absentTerms('Edit src/app.ts and call loadSettings with MAX_RETRIES=30 in the JSONL store', 'Edited the app and the JSONL store')).toEqual(['src/app.ts', 'loadSettings', 'MAX_RETRIES', '30'])
  })

  it('reads a long run of path characters without a slash in linear time', () => {
    // A separator line or a progress bar of dots in a tool's output; the path pattern, tried at every
    // character of such a run, once made a 200 KB run take 22 s and a 2 MB one half an hour.
    const started = performance.now()
    expect(absentTerms(`${'-'.repeat(100_000)} see docs/check.md ${'a.'.repeat(50_000)}`, '')).toEqual(['docs/check.md'])
    expect(performance.now() - started).toBeLessThan(2000) // the quadratic pattern: about 20 s
  })
})
