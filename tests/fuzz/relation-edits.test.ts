// The relations probe's edits (conformance/fuzz/relation-edits.ts): one plan in four, each of the
// edits drawn, every edited log one that load accepts, and the relations of each as the spec says,
// checked by hand on a small log.
import { describe, expect, it } from 'vitest'
import { buildLog } from '../../conformance/builder.ts'
import { withRelationEdit } from '../../conformance/fuzz/relation-edits.ts'
import { reference } from '../../reference/index.ts'

// Turn 1 asks for and runs c1 (surface nodes 2, 3, 5); then a standalone compaction summarizes them.
const built = buildLog([
  { 'turn/start': 1 }, { 'step/start': [1, 1] }, { user: 'go' }, { assistant: [1, 1], calls: ['c1'] }, { call: [1, 1, 'c1'] },
  { result: [1, 1, 'c1'], sources: [4] }, { 'step/end': [1, 1] }, { 'turn/end': [1, 'completed'] },
  { 'compaction/start': ['k1', null] }, { 'compaction/summary': ['k1', [2, 5]] },
  { checkpoint: 'k1', replace: [2, 5], sources: [8, 9, 2, 3, 5] }, { 'compaction/end': ['k1', null] },
])
const LOG = 'events' in built ? built.events : []

type EventRecord = Record<string, unknown>
const dataOf = (event: unknown): EventRecord => (event as { data: EventRecord }).data

/** Which edit made `events` from LOG, told from its shape, and the index of the event it changed first. */
function editOf(events: unknown[]): [string, number] {
  const changed = events.findIndex((event, index) => JSON.stringify(event) !== JSON.stringify(LOG[index]))
  const event = events[changed] as EventRecord
  if (events.length > LOG.length) return [event['type'] === 'compaction/start' ? 'start after the last turn' : 'summary repeated', changed]
  if (event['data'] === null) return ['data null', changed]
  if (JSON.stringify(events).includes('e\u0301')) return ['ids normalizing alike', events.findIndex(item => JSON.stringify(item).includes('e\u0301'))]
  if (dataOf(event)['shadowedTokenCount'] === 2 ** 53) return ['tokens 2^53', changed]
  if (dataOf(event)['shadowedTokenCount'] === 0) return ['tokens 0', changed]
  if (dataOf(event)['compactionId'] === 7) return ['id a number', changed]
  if (event['ignorable'] === true) return ['next turn named, ignorable', changed]
  if (event['type'] === 'compaction/prune') return ['summary as prune', changed]
  if (dataOf(event)['compactionId'] === 'cmp-nested') return ['nested start, command id empty', changed]
  if (JSON.stringify(event).includes('"sourceCommandId":""')) return ['command id empty', changed]
  if (event['type'] === 'compaction/start') return ['owned by the ended turn', changed]
  return ['next turn named', changed]
}

// By hand (chapters 09, 10 and 13), by the edit and the event it changed. A step-scoped event naming
// turn 2 is STEP_MISMATCH (TURN-8): a vetoed tool/call leaves c1 unlogged, so its result is an orphan
// (PAIR-2); a vetoed result leaves c1 pending, dropped at step/end (PAIR-6); a vetoed step/end leaves the
// step open at turn/end (TURN-6), so the turn stays open and the standalone start mismatches (COMP-3).
// A start that fails (no id, COMP-1; an owner with no turn open, COMP-3) opens no bracket: the summary
// and end find none (COMP-4), the checkpoint lies outside (COMP-9). A summary that fails (its id another
// string, COMP-4; 2^53 tokens, COMP-5; no id) leaves the end without one (COMP-6); a count of 0 is a
// safe integer, so nothing is vetoed. A number is no compaction id, and an empty sourceCommandId is
// none either (COMP-1): the start opens no bracket; a vetoed checkpoint or end leaves the bracket as it
// was, and the summary's claim armed, which the end, accepted, disarms (COMP-10). Marked ignorable, the
// step-scoped events are read as unmarked (UNK-4). A prune in the bracket's summary's place arms the
// same claim, which the checkpoint meets, and is no summary (COMP-6); so is no nested start, which
// breaks COMP-1 before COMP-2 and so arms nothing (COMP-11). A second summary in the bracket is vetoed
// (COMP-5), so the first one's claim stands, which the checkpoint (now 11) meets.
const NO_BRACKET = ['COMPACTION_NOT_OPEN@9', 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET@10', 'COMPACTION_NOT_OPEN@11']
const NEXT_TURN_NAMED = {
  4: ['STEP_MISMATCH@4', 'TOOL_RESULT_ORPHAN@5'],
  5: ['STEP_MISMATCH@5'],
  6: ['STEP_MISMATCH@6', 'TURN_END_STEP_OPEN@7', 'COMPACTION_OWNER_MISMATCH@8', ...NO_BRACKET],
}
const VIOLATIONS: Record<string, Record<number, string[]>> = {
  'next turn named': NEXT_TURN_NAMED,
  'next turn named, ignorable': NEXT_TURN_NAMED,
  'ids normalizing alike': { 9: ['COMPACTION_ID_MISMATCH@9', 'COMPACTION_END_WITHOUT_SUMMARY@11'], 11: ['COMPACTION_ID_MISMATCH@11'] },
  'tokens 2^53': { 9: ['COMPACTION_SUMMARY_INVALID@9', 'COMPACTION_END_WITHOUT_SUMMARY@11'] },
  'data null': {
    8: ['COMPACTION_ID_INVALID@8', ...NO_BRACKET],
    9: ['COMPACTION_ID_INVALID@9', 'COMPACTION_END_WITHOUT_SUMMARY@11'],
    11: ['COMPACTION_ID_INVALID@11'],
  },
  'owned by the ended turn': { 8: ['COMPACTION_OWNER_MISMATCH@8', ...NO_BRACKET] },
  'tokens 0': { 9: [] },
  'id a number': { 8: ['COMPACTION_ID_INVALID@8', ...NO_BRACKET] },
  'command id empty': { 8: ['COMPACTION_ID_INVALID@8', ...NO_BRACKET], 10: ['COMPACTION_ID_INVALID@10'], 11: ['COMPACTION_ID_INVALID@11'] },
  'start after the last turn': { 12: ['COMPACTION_OWNER_MISMATCH@12'] },
  'summary as prune': { 9: ['COMPACTION_END_WITHOUT_SUMMARY@11'] },
  'nested start, command id empty': { 9: ['COMPACTION_ID_INVALID@9', 'COMPACTION_END_WITHOUT_SUMMARY@11'] },
  'summary repeated': { 10: ['COMPACTION_SUMMARY_DUPLICATE@10'] },
}

describe('relation edits', () => {
  it('are drawn for about one plan in four, each edit, over logs load accepts, and checked as the spec says', () => {
    const edits = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      const events = withRelationEdit(LOG, seed)
      if (events === undefined) continue
      edited += 1
      expect(reference.load({ events }).ok).toBe(true)
      const [edit, at] = editOf(events)
      edits.add(edit)
      const result = reference.relations({ events })
      const found = result.ok ? (result.value as { violations: { code: string; seq: number }[] }).violations.map(({ code, seq }) => `${code}@${seq}`) : []
      expect(found, `${edit} at ${at}`).toEqual(VIOLATIONS[edit]![at])
    }
    expect(edited).toBeGreaterThan(150)
    expect(edited).toBeLessThan(260)
    expect([...edits].sort()).toEqual([
      'command id empty', 'data null', 'id a number', 'ids normalizing alike', 'nested start, command id empty', 'next turn named',
      'next turn named, ignorable', 'owned by the ended turn', 'start after the last turn', 'summary as prune', 'summary repeated', 'tokens 0',
      'tokens 2^53',
    ])
  })
})
