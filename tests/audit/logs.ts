// Small hand-built session logs for the audit tests, stored as raw JSONL artifacts, and the corpus
// log the issue names. Token counts use the estimate, so these tests neither wait for nor depend on
// the tokenizer package.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditReport, AuditRow } from '../../generated/types/index.ts'
import { buildAuditReport } from '../../conformance/audit/report.ts'
import { estimateCounter } from '../../conformance/audit/tokens.ts'
import { event, result, stepEnd, stepStart, turnEnd, turnStart, call } from '../reference/helpers.ts'
import { replaceHeavyLines } from '../check/log-generator.ts'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
export const corpusLog = path.resolve(projectRoot, '../shared/corpus/upstream-rc8/examples__headless-agent__tests__snapshots__compaction-recovery__session.jsonl')
export const corpusPresent = existsSync(corpusLog)
export const corpusBytes = (): Uint8Array => readFileSync(corpusLog)

const SESSION_HEADER = { type: 'session', version: 0, id: 'audit-test', createdAt: 0, cwd: '/work/project', delegationDepth: 0 }

export const TOOL = { name: 'bash', description: 'Run a shell command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }

export function artifact(events: readonly SessionEvent[], tail = ''): Uint8Array {
  const lines = [SESSION_HEADER, ...events].map(record => `${JSON.stringify(record)}\n`)
  return new TextEncoder().encode(lines.join('') + tail)
}

/** check's adversarial log as a raw artifact: size/2 appends, then size/2 replaces of one or two nodes anywhere. */
export function replaceHeavyArtifact(size: number): Uint8Array {
  return new TextEncoder().encode([...replaceHeavyLines(size)].map(line => `${line}\n`).join(''))
}

/** The audit of `bytes` as the artifact `file` (whose name gives the encoding). */
export function auditOf(bytes: Uint8Array, vocabulary?: string, file = 'test.jsonl'): AuditReport {
  return buildAuditReport({ file, bytes, ...(vocabulary === undefined ? {} : { vocabulary }) }, estimateCounter('the tests ask for it'))
}

export function rowOf(report: AuditReport, id: AuditRow['id']): AuditRow {
  const found = report.rows.find(row => row.id === id)
  if (found === undefined) throw new Error(`no row ${id}`)
  return found
}

export function verdicts(report: AuditReport): Record<string, string> {
  return Object.fromEntries(report.rows.map(row => [row.id, row.verdict]))
}

// ---- event builders -----------------------------------------------------------------------------

export function requestHeader(seq: number, tools: unknown[] = [TOOL], extra: Record<string, unknown> = {}): SessionEvent {
  return event('request/header', seq, { header: { config: { provider: 'p', model: 'm' }, system: 'You are a test agent.', tools, ...extra }, reason: 'initial' })
}

export function userText(seq: number, text: string): SessionEvent {
  return event('user/message', seq, { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }, { surfaceOp: 'append' })
}

export function assistantText(seq: number, turn: number, step: number, text: string, calls: string[] = []): SessionEvent {
  const content = [{ type: 'text', text }, ...calls.map(id => ({ type: 'tool-call', id, name: 'bash', arguments: '{"command":"ls"}' }))]
  const message = { id: `a${seq}`, role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } }
  return event('assistant/message', seq, { turn, step, message }, { surfaceOp: 'append' })
}

const LONG_REQUEST = 'Rename the config loader in src/config/load.ts to loadSettings, keep the public API stable, '
  + 'do not touch tests/fixtures, and run npm test before you finish. '.repeat(12)

/** One complete turn: a prompt, a tool round, a final answer (seqs 0..11). */
export function goodTurn(): SessionEvent[] {
  return [
    turnStart(0, 1), stepStart(1, 1, 1), userText(2, LONG_REQUEST), requestHeader(3),
    assistantText(4, 1, 1, 'Looking at the loader.', ['c1']), call(5, 1, 1, 'c1'), result(6, 1, 1, 'c1'), stepEnd(7, 1, 1),
    stepStart(8, 1, 2), assistantText(9, 1, 2, 'Renamed it; the tests pass.'), stepEnd(10, 1, 2), turnEnd(11, 1),
  ]
}

/** goodTurn, then a manual compaction of 2…6 between turns (seqs 12..15). */
export function compactedLog(summaryText = 'The user asked to rename the loader to loadSettings; done, tests pass.'): SessionEvent[] {
  const id = 'k1'
  return [
    ...goodTurn(),
    event('compaction/start', 12, { compactionId: id, turn: null }),
    event('compaction/summary', 13, { compactionId: id, summary: [{ type: 'text', text: summaryText }], shadowedRange: { start: 2, end: 6 }, shadowedSeqs: [2, 4, 6], shadowedTokenCount: 300, provider: 'p', model: 'm' }),
    event('user/message', 14, { id: 'cp', role: 'user', content: [{ type: 'text', text: `Summary: ${summaryText}` }], source: { kind: 'plugin', plugin: 'compact', compactionId: id } },
      { surfaceOp: { op: 'replace', start: 2, end: 6 }, sourceEventSeqs: [12, 13, 2, 4, 6] }),
    event('compaction/end', 15, { compactionId: id, turn: null }),
  ]
}
