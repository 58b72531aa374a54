// The verdict logic of `dsh-conformance audit`: which acceptance row a finding is filed under, each
// row's verdict under the conditions that decide it, and the seqs and requirement IDs its evidence
// cites. Every expectation comes from spec/acceptance.md, the spec chapters it names and the README.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditEvidence, AuditReport, AuditRow } from '../../generated/types/index.ts'
import { capped, evidence, overallVerdict, rowOfViolation, verdictOf } from '../../conformance/audit/verdicts.ts'
import { event, replace, result, stepEnd, stepStart, turnEnd, turnStart, endSeed } from '../reference/helpers.ts'
import { artifact, assistantText, auditOf, compactedLog, goodTurn, projectRoot, requestHeader, rowOf, userText } from './logs.ts'
import { readSpecCatalog } from '../../conformance/spec-catalog.ts'
import { check, tempFolder, zstdArtifact } from '../check/support.ts'

type RowId = AuditRow['id']

/** The evidence of a row that cites a requirement (and a seq, when given). */
function cited(report: AuditReport, id: RowId, requirement: string, seq?: number): AuditEvidence[] {
  return rowOf(report, id).evidence.filter(item => item.requirements?.includes(requirement) === true && (seq === undefined || item.seq === seq))
}

/** Renumbers events by position, so that a log can be spliced without counting seqs by hand. */
function renumbered(events: SessionEvent[]): SessionEvent[] {
  return events.map((item, seq) => ({ ...item, seq, time: 1000 + seq }))
}

const SPEC_IDS = new Set(readSpecCatalog(path.join(projectRoot, 'spec')).requirements.map(requirement => requirement.id))

/**
 * Every report these tests build also keeps the citation contract: each ID it cites is a requirement
 * of spec/, and in a log that loads every fail or warn item names the rule it rests on (a refusal's
 * rows cite what they can: the log's faults beyond the first are unknown).
 */
function expectCitedRules(report: AuditReport): void {
  for (const { id, evidence: items } of report.rows) {
    for (const item of items) {
      for (const cite of item.requirements ?? []) expect(SPEC_IDS.has(cite), `${id}: ${cite}`).toBe(true)
      if (report.log.rejection === null && (item.mark === 'fail' || item.mark === 'warn')) expect(item.requirements ?? [], `${id}: ${item.text}`).not.toEqual([])
    }
  }
}

function audit(events: SessionEvent[]): AuditReport {
  const report = auditOf(artifact(events))
  expectCitedRules(report)
  return report
}

const start = (seq: number, id: string): SessionEvent => event('compaction/start', seq, { compactionId: id, turn: null })
const end = (seq: number, id: string, extra: Record<string, unknown> = {}): SessionEvent => event('compaction/end', seq, { compactionId: id, turn: null, ...extra })
/** A compaction/summary claiming the replace of 2…6 in goodTurn (nodes 2, 4, 6). */
const summary = (seq: number, id: string): SessionEvent => event('compaction/summary', seq, {
  compactionId: id, summary: [{ type: 'text', text: 'done' }], shadowedRange: { start: 2, end: 6 }, shadowedSeqs: [2, 4, 6], shadowedTokenCount: 300, provider: 'p', model: 'm',
})
const checkpoint = (seq: number, id: string, from: number, to: number, sources: number[]): SessionEvent => event('user/message', seq,
  { id: `cp${seq}`, role: 'user', content: [{ type: 'text', text: 'Summary: done' }], source: { kind: 'plugin', plugin: 'compact', compactionId: id } }, replace(from, to, sources))
/** A user message replacing the one node `target` (not a compaction). */
const userReplace = (seq: number, target: number): SessionEvent => ({ ...userText(seq, 'shorter'), ...replace(target, target, [target]) })
/** goodTurn, then turn 2 cut after its assistant message called `calls` (an open tail turn). */
const openTail = (calls: string[], extra: SessionEvent[] = []): SessionEvent[] =>
  [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), requestHeader(14), assistantText(15, 2, 1, 'Running it.', calls), ...extra]

describe('the verdict a row\'s evidence adds up to', () => {
  it('lets info and human items count for nothing, so only warn and fail items move a verdict', () => {
    expect(verdictOf([evidence('pass', 'a'), evidence('info', 'b'), evidence('human', 'c')])).toBe('pass')
    expect(verdictOf([evidence('human', 'a'), evidence('warn', 'b'), evidence('info', 'c')])).toBe('warn')
    expect(verdictOf([evidence('warn', 'a'), evidence('fail', 'b'), evidence('human', 'c')])).toBe('fail')
  })

  it('gives the overall verdict of the worst row, where a row left to a person is no failure', () => {
    const budget = rowOf(audit(goodTurn()), 'budget')
    const rows = (...verdicts: AuditRow['verdict'][]) => verdicts.map(verdict => ({ ...budget, verdict }))
    expect(overallVerdict(rows('pass', 'human'))).toBe('pass')
    expect(overallVerdict(rows('human', 'warn', 'pass'))).toBe('warn')
    expect(overallVerdict(rows('warn', 'fail', 'human'))).toBe('fail')
  })

  it('caps a long list of like facts and counts the rest, and leaves a list of the limit whole', () => {
    const items = [1, 2, 3, 4, 5].map(seq => evidence('fail', `fault ${seq}`, { seq }))
    expect(capped(items.slice(0, 4), 4)).toEqual(items.slice(0, 4))
    const cut = capped(items, 4)
    expect(cut.slice(0, 4)).toEqual(items.slice(0, 4))
    expect(cut).toHaveLength(5)
    expect(cut[4]).toMatchObject({ mark: 'fail' })
    expect(cut[4]?.text).toMatch(/\b1 more\b/)
    // Over the default limit, the row still fails: the cap hides items, never the verdict.
    const many = Array.from({ length: 30 }, (_, seq) => evidence('fail', `fault ${seq}`, { seq }))
    expect(capped(many).length).toBeLessThan(30)
    expect(verdictOf(capped(many))).toBe('fail')
  })

  it('marks the line that counts the rest as the gravest of them, so a warning past the limit still warns', () => {
    const infos = Array.from({ length: 3 }, (_, seq) => evidence('info', `fact ${seq}`, { seq }))
    const humans = Array.from({ length: 3 }, (_, seq) => evidence('human', `to read ${seq}`, { seq }))
    expect(capped([...infos, evidence('warn', 'late')], 3).at(-1)).toMatchObject({ mark: 'warn', text: '… and 1 more like these' })
    expect(verdictOf(capped([...infos, evidence('warn', 'late')], 3))).toBe('warn')
    expect(capped([...infos, evidence('warn', 'late'), evidence('fail', 'later')], 3).at(-1)).toMatchObject({ mark: 'fail' })
    expect(capped([...infos, ...humans], 3).at(-1)).toMatchObject({ mark: 'info', text: '… and 3 more like these' })
  })

  it('cites a seq or requirements only when it has them', () => {
    expect(evidence('info', 'x')).toStrictEqual({ mark: 'info', text: 'x' })
    expect(evidence('fail', 'x', { seq: 0, requirements: ['ENV-9'] })).toStrictEqual({ mark: 'fail', text: 'x', seq: 0, requirements: ['ENV-9'] })
  })
})

describe('the row a relation violation is filed under', () => {
  it('files an orphan tool result (PAIR-2) under surface legality, not raw facts', () => {
    const events = renumbered([...goodTurn().slice(0, 10), result(0, 1, 2, 'zz'), stepEnd(0, 1, 2), turnEnd(0, 1)])
    const report = audit(events)
    expect(rowOf(report, 'surface-legality').verdict).toBe('fail')
    expect(cited(report, 'surface-legality', 'PAIR-2', 10).map(item => item.text)).toEqual([expect.stringMatching(/^TOOL_RESULT_ORPHAN at seq 10/)])
    expect(rowOf(report, 'raw-facts').verdict).toBe('pass')
    // The orphan on the current surface is its own evidence: the counter goes negative at the result (REGION-2).
    expect(cited(report, 'surface-legality', 'REGION-2', 10).length).toBeGreaterThanOrEqual(1)
    expect(cited(report, 'surface-legality', 'PAIR-8', 10)).toHaveLength(1)
  })

  it('files a replace that names another range than its claim (COMP-10) under surface legality, with the claim\'s own COMP-12 fault', () => {
    const events = compactedLog()
    events[14] = checkpoint(14, 'k1', 2, 2, [12, 13, 2])
    const report = audit(events)
    expect(rowOf(report, 'surface-legality').verdict).toBe('fail')
    expect(cited(report, 'surface-legality', 'COMP-10', 14)).toEqual([expect.objectContaining({ mark: 'fail' })])
    expect(cited(report, 'surface-legality', 'COMP-12', 14)).toEqual([expect.objectContaining({ mark: 'fail' })])
    expect(rowOf(report, 'failure-recovery').verdict).toBe('pass')
    expect(rowOf(report, 'raw-facts').verdict).toBe('pass')
  })

  it('files a turn boundary inside a live bracket (COMP-8) under failure recovery', () => {
    const report = audit([...goodTurn(), start(12, 'k2'), turnStart(13, 2), end(14, 'k2', { error: 'cancelled' })])
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(rowOf(report, 'failure-recovery').evidence.filter(item => item.mark === 'fail').map(item => item.seq)).toEqual([13])
    // The rule the turn/start breaks, as check names it: COMP-8, not the compaction chapter at large.
    expect(cited(report, 'failure-recovery', 'COMP-8', 13)).toEqual([expect.objectContaining({ mark: 'fail' })])
    expect(rowOf(report, 'raw-facts').verdict).toBe('pass')
    expect(rowOf(report, 'surface-legality').verdict).toBe('pass')
  })

  it('files a request/header outside any turn (TURN-9, HDR-9) under request rebuild, and a todo/write outside one under raw facts', () => {
    const header = audit([...goodTurn(), requestHeader(12)])
    expect(rowOf(header, 'request-rebuild').verdict).toBe('fail')
    expect(cited(header, 'request-rebuild', 'TURN-9', 12)).toHaveLength(1)
    // Every call had its header: the summary blames the placement, not a call.
    expect(rowOf(header, 'request-rebuild').summary).toBe('Every model call has a request header in force, but a request record lies outside any turn (HDR-9).')
    const unexplained = audit([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), assistantText(3, 1, 1, 'hello'), stepEnd(4, 1, 1), turnEnd(5, 1), requestHeader(6)])
    expect(rowOf(unexplained, 'request-rebuild').summary).toBe('At least one model call cannot be explained by the request state in the log.')
    expect(rowOf(header, 'raw-facts').verdict).toBe('pass')
    const todo = audit([...goodTurn(), event('todo/write', 12, { todos: [] })])
    expect(rowOf(todo, 'raw-facts').verdict).toBe('fail')
    expect(rowOf(todo, 'raw-facts').evidence.filter(item => item.mark === 'fail').map(item => item.seq)).toEqual([12])
    // todo/write is turn-scoped (TURN-9), the rule check cites for it too.
    expect(cited(todo, 'raw-facts', 'TURN-9', 12)).toEqual([expect.objectContaining({ mark: 'fail' })])
    const lateEnd = audit([...goodTurn(), turnEnd(12, 1)])
    expect(cited(lateEnd, 'raw-facts', 'TURN-6', 12)).toEqual([expect.objectContaining({ mark: 'fail' })])
    expect(rowOf(todo, 'request-rebuild').verdict).toBe('pass')
    expect(rowOf(todo, 'failure-recovery').verdict).toBe('pass')
    expect(rowOf(todo, 'surface-legality').verdict).toBe('pass')
  })

  it('cites the turn and step relations and the vocabulary (UNK-3) as the evidence of a clean log\'s raw facts', () => {
    const clean = audit(goodTurn())
    expect(cited(clean, 'raw-facts', 'TURN-4')).toEqual([expect.objectContaining({ mark: 'pass' })])
    expect(cited(clean, 'raw-facts', 'UNK-3')).toEqual([expect.objectContaining({ mark: 'pass' })])
    expect(cited(clean, 'raw-facts', 'UNK-4')).toEqual([])
    // An ignorable unknown event is kept (UNK-4), which is no fault.
    const kept = audit([...goodTurn(), event('future/thing', 12, {}, { ignorable: true })])
    expect(cited(kept, 'raw-facts', 'UNK-4')).toEqual([expect.objectContaining({ mark: 'pass' })])
  })
})

describe('a log that load refuses', () => {
  it('makes an uncited shadowed node (PROV-7) the evidence of surface legality and of raw facts, at its seq', () => {
    const report = audit([...goodTurn(), { ...userText(12, 'summary'), ...replace(2, 6, [2]) }])
    expect(report.log.rejection).toMatchObject({ operation: 'load', code: 'PROVENANCE_INCOMPLETE', seq: 12 })
    for (const id of ['surface-legality', 'raw-facts'] as const) {
      const row = rowOf(report, id)
      expect(row.verdict).toBe('fail')
      expect(row.evidence).toEqual([expect.objectContaining({ mark: 'fail', seq: 12 })])
      expect(row.evidence[0]?.text).toContain('PROVENANCE_INCOMPLETE at seq 12')
      expect(row.evidence[0]?.text).not.toContain('not evaluated')
      // Both cite the rule the replace breaks, as check does: PROV-7, a replace cites every node it shadows.
      expect(row.evidence[0]?.requirements).toEqual(['PROV-7'])
    }
  })

  it('makes a tool-result rewrite fault the evidence of surface legality', () => {
    // A tool/result that replaces the user message at seq 2 (REWR-2).
    const rewrite = { ...result(0, 1, 2, 'c1'), ...replace(2, 2, [2]) } as SessionEvent
    const report = audit(renumbered([...goodTurn().slice(0, 10), rewrite, stepEnd(0, 1, 2), turnEnd(0, 1)]))
    expect(report.log.rejection?.code).toMatch(/^REWRITE_/)
    expect(rowOf(report, 'surface-legality').evidence[0]?.text).toContain(`load rejects the log with ${report.log.rejection?.code}`)
  })

  it('makes a request header without a model (HDR-2) the evidence of request rebuild, at its seq', () => {
    // acceptance.md: "a header without provider or model" is a failure signal of request rebuild.
    const noModel = event('request/header', 14, { header: { config: { provider: 'p' }, tools: [] }, reason: 'change' })
    const report = audit([...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), noModel])
    expect(report.log.rejection).toMatchObject({ operation: 'load', code: 'REQUEST_HEADER_INVALID', seq: 14 })
    const rebuild = rowOf(report, 'request-rebuild')
    expect(rebuild.verdict).toBe('fail')
    expect(rebuild.evidence).toEqual([expect.objectContaining({ mark: 'fail', seq: 14, requirements: ['HDR-2'] })])
    expect(rebuild.evidence[0]?.text).toContain('REQUEST_HEADER_INVALID at seq 14')
    expect(rebuild.evidence[0]?.text).not.toContain('not evaluated')
    expect(rowOf(report, 'raw-facts').evidence[0]?.text).toContain('(see Request rebuild)')
    expect(rowOf(report, 'surface-legality').evidence[0]?.text).toContain('not evaluated')
  })

  it('leaves surface legality and request rebuild not evaluated for a refusal of another row\'s rule, and cites the seq under raw facts', () => {
    const report = audit([...goodTurn(), event('future/thing', 12, {})])
    expect(rowOf(report, 'surface-legality').evidence[0]?.text).toContain('not evaluated')
    // FMT-5: a refusal is said as such, never as damage.
    expect(report.log.rejection).toMatchObject({ operation: 'load', code: 'FORMAT_UNKNOWN_EVENT_TYPE', class: 'refusal' })
    expect(rowOf(report, 'request-rebuild').evidence).toEqual([expect.objectContaining({ mark: 'fail', text: expect.stringMatching(/^not evaluated: load refuses it with FORMAT_UNKNOWN_EVENT_TYPE, which is no sign of damage \(FMT-5\)/) })])
    expect(rowOf(report, 'request-rebuild').summary).toBe('This reader cannot read the log, so this row cannot be established here.')
    expect(rowOf(report, 'raw-facts').summary).toBe('This reader cannot read the log: an unknown event type that is not marked ignorable. That is no sign of damage (FMT-5): the log may be intact.')
    expect(rowOf(report, 'raw-facts').evidence).toEqual([expect.objectContaining({ mark: 'fail', seq: 12 })])
    expect(rowOf(report, 'raw-facts').evidence[0]?.text).toContain('at seq 12')
    // Not damage: nothing committed follows a defect, so persistence does not cite JSONL-11.
    expect(rowOf(report, 'persistence').verdict).toBe('fail')
    expect(cited(report, 'persistence', 'JSONL-11')).toEqual([])
  })

  it('cites under raw facts the rule check cites for the refusal, raw or zstd', () => {
    const text = (events: SessionEvent[]): string => new TextDecoder().decode(artifact(events))
    const lines = (events: SessionEvent[]): string[] => text(events).split('\n').slice(0, -1)
    const refused: [name: string, bytes: Uint8Array][] = [
      // README: a negative zero in the header breaks META-5, the header member's rule, not JSON-2.
      ['header-zero.jsonl', new TextEncoder().encode(text(goodTurn()).replace('"delegationDepth":0', '"delegationDepth":0,"seedLength":-0'))],
      ['unknown.jsonl', artifact([...goodTurn(), event('future/thing', 12, {})])],
      ['damaged.jsonl', new TextEncoder().encode(`${lines(goodTurn()).slice(0, 5).join('\n')}\nnot json\n${lines(goodTurn()).slice(6).join('\n')}\n`)],
      ['unknown.jsonl.zstd', zstdArtifact(lines([...goodTurn(), event('future/thing', 12, {})]), [4])],
    ]
    const folder = tempFolder()
    try {
      const cites = refused.map(([name, bytes]) => {
        const audited = rowOf(auditOf(bytes, undefined, name), 'raw-facts').evidence[0]?.requirements
        return [name, audited, [check(folder.write(name, bytes)).diagnostics[0]?.requirement]] as const
      })
      // Both sides take the rule from check's code: pin each, or a wrong rule would move them together.
      expect(cites.map(([name, audited]) => [name, audited])).toEqual([
        ['header-zero.jsonl', ['META-5']],
        ['unknown.jsonl', ['UNK-3']],
        ['damaged.jsonl', ['JSONL-11']],
        ['unknown.jsonl.zstd', ['UNK-3']],
      ])
      for (const [name, audited, checked] of cites) expect(audited, name).toEqual(checked)
    } finally {
      folder.remove()
    }
  })

  it('calls a damaged line followed by a committed turn/end damage under persistence, citing the line', () => {
    const lines = new TextDecoder().decode(artifact(goodTurn().slice(0, 11))).split('\n')
    lines.splice(5, 1, 'not json')
    const report = auditOf(new TextEncoder().encode(`${lines.join('\n')}${JSON.stringify(turnEnd(11, 1))}\n`))
    const damage = cited(report, 'persistence', 'JSONL-11')
    // JSONL-14 is the zstd frames' rule, which a raw log's damage does not break.
    expect(damage).toEqual([expect.objectContaining({ mark: 'fail', requirements: ['JSONL-11'] })])
    expect(damage[0]?.text).toContain('line 6')
    // A log that does not decode has no torn tail to report, nor anything a loaded log would show.
    expect(rowOf(report, 'persistence').evidence).toEqual(damage)
    expect(rowOf(report, 'raw-facts').evidence[0]?.text).toContain('at line 6')
  })
})

describe('surface legality of a loaded log', () => {
  it('passes a tool-result rewrite after its prune claim (REGION-7: a rewrite needs no balance), and files it as a rewrite', () => {
    const original = result(6, 1, 1, 'c1')
    const data = original.data as { message: { content: [Record<string, unknown>] } }
    const pruned = { ...data, message: { ...data.message, content: [{ ...data.message.content[0], content: [{ type: 'text', text: '[pruned]' }] }] } }
    const prune = event('compaction/prune', 13, { shadowedRange: { start: 6, end: 6 }, shadowedSeqs: [6], shadowedTokenCount: 7 })
    const rewrite = event('tool/result', 14, pruned, replace(6, 6, [6]))
    const report = audit([...goodTurn(), turnStart(12, 2), prune, rewrite, turnEnd(15, 2)])
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'surface-legality').verdict).toBe('pass')
    expect(cited(report, 'surface-legality', 'REWR-1', 14)).toEqual([expect.objectContaining({ mark: 'pass' })])
    expect(report.replacements).toEqual([expect.objectContaining({ seq: 14, kind: 'tool-result-rewrite', recordedShadowedTokenCount: 7, bracketOutcome: null })])
    // The rewrite is a little longer than the result it stands for, so nothing was saved; but REGION-8
    // binds a compaction's summary, not a rewrite, so no item warns that it is not smaller.
    expect(rowOf(report, 'budget').evidence.filter(item => item.mark === 'warn')).toEqual([])
  })

  it('fails an illegal region even past the replaces it lists one by one', () => {
    // Ten legal replaces of one user message each, then one that splits call c1 (seq 4) from its result (seq 6).
    const legal = Array.from({ length: 10 }, (_, index) => userReplace(13 + index, 12 + index))
    const report = audit([...goodTurn(), userText(12, 'note'), ...legal, { ...userText(23, 'short'), ...replace(2, 4, [2, 4]) }])
    expect(cited(report, 'surface-legality', 'REGION-5', 23)).toEqual([expect.objectContaining({ mark: 'fail' })])
    // Two faults at the result: the counter falls below zero there (REGION-2), and it answers no call (PAIR-8).
    expect(cited(report, 'surface-legality', 'REGION-2', 6).map(item => [item.mark, item.requirements?.includes('PAIR-8')])).toEqual([['fail', false], ['fail', true]])
  })

  it('states that pairing holds only when it does', () => {
    expect(cited(audit(goodTurn()), 'surface-legality', 'PAIR-2')).toEqual([expect.objectContaining({ mark: 'pass' })])
    const orphaned = audit([...goodTurn(), { ...userText(12, 'short'), ...replace(2, 4, [2, 4]) }])
    expect(rowOf(orphaned, 'surface-legality').evidence.filter(item => item.mark === 'pass' && item.requirements?.includes('PAIR-2'))).toEqual([])
  })
})

describe('the row of each relation code', () => {
  // docs/audit.md: turn and step nesting under raw facts, a request event outside any turn under
  // request rebuild, pairing and claims under surface legality, the bracket under failure recovery.
  const ROWS: Record<string, RowId> = {
    TURN_ALREADY_OPEN: 'raw-facts', TURN_NUMBER_INVALID: 'raw-facts', TURN_NOT_OPEN: 'raw-facts', TURN_END_MISMATCH: 'raw-facts',
    TURN_END_STEP_OPEN: 'raw-facts', STEP_ALREADY_OPEN: 'raw-facts', STEP_NUMBER_INVALID: 'raw-facts', STEP_NOT_OPEN: 'raw-facts', STEP_MISMATCH: 'raw-facts',
    TOOL_RESULT_ORPHAN: 'surface-legality', COMPACTION_CLAIM_MISMATCH: 'surface-legality',
    COMPACTION_ALREADY_OPEN: 'failure-recovery', COMPACTION_NOT_OPEN: 'failure-recovery', COMPACTION_ID_INVALID: 'failure-recovery',
    COMPACTION_ID_MISMATCH: 'failure-recovery', COMPACTION_OWNER_MISMATCH: 'failure-recovery', COMPACTION_SUMMARY_DUPLICATE: 'failure-recovery',
    COMPACTION_SUMMARY_INVALID: 'failure-recovery', COMPACTION_END_WITHOUT_SUMMARY: 'failure-recovery', COMPACTION_TURN_CROSSES_BRACKET: 'failure-recovery',
    COMPACTION_CHECKPOINT_OUTSIDE_BRACKET: 'failure-recovery',
  }

  it('files every relation code of spec/errors.md under the row docs/audit.md gives it (a new code needs its row)', () => {
    const relationCodes = readSpecCatalog(path.join(projectRoot, 'spec')).codes.filter(error => error.kind === 'relation').map(error => error.code)
    expect(relationCodes.sort()).toEqual(Object.keys(ROWS).sort())
    for (const code of relationCodes) expect(rowOfViolation(code, 'turn/start'), code).toBe(ROWS[code])
    expect(rowOfViolation('TURN_NOT_OPEN', 'request/header')).toBe('request-rebuild')
  })
})

describe('the bracket a replace belongs to (COMP-16: membership by position)', () => {
  it('puts a replace in the bracket it lies in, and none before, after the end, or after the marker that ended it', () => {
    const events = [
      ...goodTurn(), userText(12, 'note'), userReplace(13, 12),
      start(14, 'a'), end(15, 'a', { error: 'cancelled' }), userReplace(16, 13),
      start(17, 'b'), summary(18, 'b'), checkpoint(19, 'b', 2, 6, [17, 18, 2, 4, 6]),
      endSeed(20), userText(21, 'again'), userReplace(22, 21),
    ]
    const report = audit(events)
    expect(report.log.rejection).toBeNull()
    expect(report.replacements.map(item => [item.seq, item.bracketOutcome])).toEqual([[13, null], [16, null], [19, 'orphaned-stale'], [22, null]])
  })

  it('keeps a checkpoint in a bracket that never ended', () => {
    const report = audit([...goodTurn(), start(12, 'b'), summary(13, 'b'), checkpoint(14, 'b', 2, 6, [12, 13, 2, 4, 6])])
    expect(report.replacements.map(item => item.bracketOutcome)).toEqual(['orphaned-live'])
  })
})

describe('failure recovery', () => {
  it('fails an irregular bracket: an end without error that replaced nothing has no known class', () => {
    const report = audit([...goodTurn(), start(12, 'k'), summary(13, 'k'), end(14, 'k')])
    expect(rowOf(report, 'failure-recovery').verdict).toBe('fail')
    expect(cited(report, 'failure-recovery', 'COMP-16', 12)).toEqual([expect.objectContaining({ mark: 'fail' })])
  })

  it('passes a call that crash repair answers as not started (PAIR-5): its outcome is known', () => {
    const report = audit(openTail(['c2']))
    expect(rowOf(report, 'failure-recovery').verdict).toBe('pass')
    const notStarted = cited(report, 'failure-recovery', 'PAIR-5')
    expect(notStarted).toEqual([expect.objectContaining({ mark: 'pass' })])
    expect(notStarted[0]?.text).toContain('"c2" as TOOL_NOT_STARTED')
    // An ordinary result of the log is no repair closer.
    expect(audit(goodTurn()).rows.flatMap(row => row.evidence).filter(item => item.text.includes('TOOL_NOT_STARTED'))).toEqual([])
  })

  it('lists only the lock for a clean log: a call that finished well is no failure, a completed turn no interruption', () => {
    const finished = event('assistant/chunk', 5, { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } })
    const events = [turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'go'), requestHeader(3), assistantText(4, 1, 1, 'done'), finished, stepEnd(6, 1, 1), turnEnd(7, 1)]
    const report = audit(events)
    expect(rowOf(report, 'failure-recovery').evidence).toEqual([
      { mark: 'pass', text: 'no unmatched compaction/start: the compaction lock is free', requirements: ['COMP-14'] },
    ])
  })

  it('cites each failed model call with its seq and code, and what followed it in the same turn', () => {
    const failed = (seq: number, turn: number): SessionEvent => event('assistant/chunk', seq, {
      turn, step: 1, chunk: { type: 'finish', reason: { kind: 'error', failure: { code: 'CONTEXT_WINDOW_EXCEEDED', message: 'too long' } } },
    })
    const events = [
      turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'go'), requestHeader(3), failed(4, 1), assistantText(5, 1, 1, 'retried'), stepEnd(6, 1, 1), turnEnd(7, 1),
      turnStart(8, 2), stepStart(9, 2, 1), requestHeader(10), failed(11, 2), stepEnd(12, 2, 1), turnEnd(13, 2),
      // Retried before a compaction in its turn: what followed is named in the log's order.
      turnStart(14, 3), stepStart(15, 3, 1), requestHeader(16), failed(17, 3), assistantText(18, 3, 1, 'retried first'), stepEnd(19, 3, 1),
      event('compaction/start', 20, { compactionId: 'k1', turn: 3 }), event('compaction/end', 21, { compactionId: 'k1', turn: 3 }), turnEnd(22, 3),
    ]
    const report = audit(events)
    expect(report.log.rejection).toBeNull()
    const failures = cited(report, 'failure-recovery', 'DER-10')
    expect(failures.map(item => [item.mark, item.seq])).toEqual([['info', 4], ['info', 11], ['info', 17]])
    expect(failures[0]?.text).toContain('(CONTEXT_WINDOW_EXCEEDED): too long; then, in the same turn: assistant message seq 5')
    expect(failures[1]?.text).toContain('then, in the same turn: nothing')
    expect(failures[2]?.text).toMatch(/then, in the same turn: assistant message seq 18, then compaction bracket 20…21 \(\S+\)$/)
  })
})

describe('request rebuild', () => {
  it('fails an assistant message whose model is not the one the header names', () => {
    const events = goodTurn()
    const message = (events[9]?.data as { message: Record<string, unknown> }).message
    events[9] = { ...events[9], data: { turn: 1, step: 2, message: { ...message, source: { kind: 'model', provider: 'p', model: 'other' } } } } as SessionEvent
    const report = audit(events)
    expect(rowOf(report, 'request-rebuild').verdict).toBe('fail')
    expect(rowOf(report, 'request-rebuild').evidence.filter(item => item.mark === 'fail').map(item => item.seq)).toEqual([9])
  })

  it('passes a log with no model call, saying there is none to rebuild', () => {
    const report = audit([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hello'), stepEnd(3, 1, 1), turnEnd(4, 1)])
    expect(rowOf(report, 'request-rebuild')).toMatchObject({ verdict: 'pass', summary: 'No model call to rebuild.' })
    expect(rowOf(report, 'request-rebuild').evidence).toEqual([expect.objectContaining({ mark: 'info', text: expect.stringMatching(/^no assistant message and no stream chunk: /) })])
  })

  it('counts a model call that left no assistant message, and fails it with no request header in force (HDR-4)', () => {
    const usage = event('assistant/chunk', 3, { turn: 1, step: 1, chunk: { type: 'usage', usage: { inputTokens: 10, outputTokens: 0 } } })
    const failed = event('assistant/chunk', 4, { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'error', failure: { code: 'PROVIDER_ERROR', message: 'boom' } } } })
    const events = [turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), usage, failed, stepEnd(5, 1, 1), turnEnd(6, 1)]
    expect(cited(audit(events), 'request-rebuild', 'HDR-4', 3)).toEqual([expect.objectContaining({ mark: 'fail', text: expect.stringContaining('the model call streamed from seq 3 (no assistant message) has no request header') })])
    // With a header in force the call is rebuilt; a step whose message came is one call, counted once.
    const withHeader = renumbered([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), requestHeader(3), usage, failed, stepEnd(6, 1, 1),
      stepStart(7, 1, 2), event('assistant/chunk', 8, { turn: 1, step: 2, chunk: { type: 'text-delta', text: 'ok' } }), assistantText(9, 1, 2, 'ok'), stepEnd(10, 1, 2), turnEnd(11, 1)])
    const report = audit(withHeader)
    expect(rowOf(report, 'request-rebuild')).toMatchObject({ verdict: 'pass', summary: expect.stringContaining('Each of the 2 model calls') })
    expect(cited(report, 'request-rebuild', 'DER-1').map(item => item.seq)).toEqual([4, 9])
  })

  it('warns of model calls with no system prompt in force (HDR-3), counting them and naming the first', () => {
    const events = goodTurn()
    events[3] = event('request/header', 3, { header: { config: { provider: 'p', model: 'm' }, tools: [] }, reason: 'initial' })
    const report = audit(events)
    expect(rowOf(report, 'request-rebuild').verdict).toBe('warn')
    expect(cited(report, 'request-rebuild', 'HDR-3').map(item => [item.mark, item.text])).toEqual([
      ['warn', '2 model calls had no system prompt in force (first: seq 4): none was sent, or none was recorded'],
    ])
  })

  it('passes a request context on the header\'s route', () => {
    const events = renumbered([...goodTurn().slice(0, 4), event('request/context', 0, { provider: 'p', model: 'm', contextWindow: 1000 }), ...goodTurn().slice(4)])
    expect(rowOf(audit(events), 'request-rebuild').verdict).toBe('pass')
  })

  it('passes the first call after a resumption that has a fresh header snapshot', () => {
    const events = [...goodTurn(), endSeed(12), turnStart(13, 2), stepStart(14, 2, 1), event('request/header', 15, { ...(requestHeader(15).data as object), reason: 'resume' }),
      assistantText(16, 2, 1, 'back'), stepEnd(17, 2, 1), turnEnd(18, 2)]
    const report = audit(events)
    expect(rowOf(report, 'request-rebuild').verdict).toBe('pass')
    // HDR-6 and SEED-3: a "resume" snapshot after a marker is a marked resumption.
    expect(rowOf(report, 'persistence').verdict).toBe('pass')
    expect(cited(report, 'persistence', 'SEED-6', 12)).toHaveLength(1)
  })

  it('counts the messages of each rebuilt request on the surface just before it (DER-1)', () => {
    const events = [...compactedLog(), turnStart(16, 2), stepStart(17, 2, 1), userText(18, 'next'), requestHeader(19), assistantText(20, 2, 1, 'ok'), stepEnd(21, 2, 1), turnEnd(22, 2)]
    // The surface before seq 20: the checkpoint 14 in place of 2, 4 and 6, then 9 and 18.
    expect(cited(audit(events), 'request-rebuild', 'DER-1', 20)[0]?.text).toContain('3 surface nodes as messages')
  })
})

describe('a log of its header line alone', () => {
  it('warns that no writer writes one, and claims nothing of turns or seqs it does not hold', () => {
    const report = audit([])
    expect(report.log.rejection).toBeNull()
    expect(rowOf(report, 'raw-facts')).toMatchObject({ verdict: 'warn', summary: 'The artifact holds only its header line, which no writer writes; it loads as an empty log (see the warnings).' })
    expect(cited(report, 'raw-facts', 'JSONL-12')).toEqual([expect.objectContaining({ mark: 'warn', text: expect.stringContaining('holds only its header line') })])
    expect(cited(report, 'raw-facts', 'ENV-9')).toEqual([expect.objectContaining({ mark: 'info', text: 'the log holds no event: no seq to check' })])
    expect(cited(report, 'persistence', 'REPAIR-2')).toEqual([expect.objectContaining({ mark: 'info', text: 'no turn is open at the tail: the log holds no turn' })])
    expect(cited(report, 'surface-legality', 'SURF-10')[0]?.text).toBe('the current surface holds 0 nodes after 0 replaces')
  })
})

describe('persistence', () => {
  it('fails a "resume" snapshot that no session/end-seed marks, at its seq', () => {
    const events = [...goodTurn(), turnStart(12, 2), stepStart(13, 2, 1), event('request/header', 14, { ...(requestHeader(14).data as object), reason: 'resume' }),
      assistantText(15, 2, 1, 'back'), stepEnd(16, 2, 1), turnEnd(17, 2)]
    const report = audit(events)
    // spec/acceptance.md names "a missing end-seed after a resumption" among Persistence's failure signals.
    expect(rowOf(report, 'persistence').verdict).toBe('fail')
    expect(cited(report, 'persistence', 'HDR-6', 14)).toMatchObject([{ mark: 'fail', text: expect.stringContaining('since the previous snapshot') }])
    // A "resume" snapshot that is the log's first has no previous snapshot to be marked since.
    const first = audit([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'hi'), event('request/header', 3, { ...(requestHeader(3).data as object), reason: 'resume' })])
    expect(cited(first, 'persistence', 'HDR-6', 3)).toMatchObject([{ mark: 'fail', text: expect.stringContaining('before it (it is the log\'s first snapshot)') }])
  })

  it('cites the last of several session/end-seed markers', () => {
    const report = audit([...goodTurn(), endSeed(12), endSeed(13), userText(14, 'after')])
    expect(cited(report, 'persistence', 'SEED-6').map(item => item.seq)).toEqual([13])
  })
})
