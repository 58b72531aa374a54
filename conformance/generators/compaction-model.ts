// The compaction part of the log model (spec chapters 13 and 14): brackets that open with a legal
// region chosen on the surface as it stands (REGION-5), and close in one of the ways a producer
// closes them (COMP-12): committed (summary, checkpoint, end), failed before anything changed, or
// failed while committing. A manual bracket (owner null) lives between turns, an automatic one inside
// its turn; while a bracket is open nothing replaces surface nodes but a prune of a result outside its
// region (log-model.ts), so the region stays intact.
import { chance, weighted } from './choices.ts'
import { PROVIDER, pluginEvent, someText, textBlock, userMessage, type JsonObject } from './events.ts'
import { chooseLegalRegion, hasLegalRegion } from './surface-model.ts'
import { nextSeq, write, type Action, type BracketRecord, type Model } from './model-state.ts'

function identity(model: Model): JsonObject {
  const bracket = model.bracket!
  return { compactionId: bracket.compactionId, ...(bracket.commandId === undefined ? {} : { sourceCommandId: bracket.commandId }) }
}

function record(model: Model): BracketRecord {
  return model.brackets.at(-1)!
}

/** COMP-15 picks the owner; the region is legal now and stays so, since only appends follow. */
function startCompaction(model: Model): void {
  const chooser = model.chooser
  const owner = model.openTurn
  const [first, last] = chooseLegalRegion(model.nodes, chooser)
  const number = model.brackets.length + 1
  const commandId = owner === null && chance(chooser, 70) ? `cmd-compact-${number}` : undefined
  if (commandId !== undefined) write(model, { type: 'command/run', data: { commandId, name: 'compact', source: { kind: 'user' } } })
  const compactionId = `cmp-${number}-${chooser.int(10_000)}`
  const startSeq = nextSeq(model)
  model.bracket = { compactionId, commandId, owner, startSeq, region: model.nodes.slice(first, last + 1).map(node => node.seq) }
  write(model, { type: 'compaction/start', data: { ...identity(model), turn: owner } })
  model.brackets.push({ startSeq, endSeq: null, compactionId, outcome: 'orphaned-live' })
}

function writeSummary(model: Model): number {
  const region = model.bracket!.region
  return write(model, {
    type: 'compaction/summary',
    data: {
      ...identity(model),
      summary: [textBlock(someText(model.chooser))],
      shadowedRange: { start: region[0]!, end: region.at(-1)! },
      shadowedSeqs: region,
      shadowedTokenCount: 100 + model.chooser.int(10_000),
      provider: PROVIDER,
      model: 'deepseek-v4-flash',
    },
  }).seq
}

/**
 * The checkpoint: a user/message replace citing [startSeq, summarySeq, ...shadowedSeqs] (PROV-10). Its
 * source's `kind` is "plugin"; a producer that writes another (commitCompaction) writes a plain
 * replace instead, which marks no bracket (Terms of chapter 13).
 */
function writeCheckpoint(model: Model, summarySeq: number, kind = 'plugin'): void {
  const bracket = model.bracket!
  const region = bracket.region
  const positions = region.map(seq => model.nodes.findIndex(node => node.seq === seq))
  if (positions.some((position, index) => position !== positions[0]! + index)) throw new Error('the bracket region changed')
  const draft = userMessage(`msg-${nextSeq(model)}`, 'Summary of the earlier conversation:', { kind, plugin: 'compact', ...identity(model) })
  const data = draft.data as JsonObject
  ;(data['content'] as JsonObject[]).push(textBlock(someText(model.chooser)))
  write(model, { ...draft, surfaceOp: { op: 'replace', start: region[0]!, end: region.at(-1)! }, sourceEventSeqs: [bracket.startSeq, summarySeq, ...region] })
}

function writeEnd(model: Model, error: string | undefined, outcome: BracketRecord['outcome']): void {
  const bracket = model.bracket!
  const end = write(model, { type: 'compaction/end', data: { ...identity(model), turn: bracket.owner, ...(error === undefined ? {} : { error }) } })
  Object.assign(record(model), { endSeq: end.seq, outcome })
  model.bracket = undefined
  if (bracket.commandId !== undefined && chance(model.chooser, 60)) {
    write(model, { type: 'command/done', data: { commandId: bracket.commandId, kind: error === undefined ? 'success' : 'error' } })
  }
}

/**
 * The committed transaction. Now and then the producer gets its replace's source kind wrong: that replace
 * is no checkpoint, so the bracket claims success without one and is irregular (COMP-16).
 */
export function commitCompaction(model: Model): void {
  const kind = chance(model.chooser, 8) ? 'user' : 'plugin'
  writeCheckpoint(model, writeSummary(model), kind)
  writeEnd(model, undefined, kind === 'plugin' ? 'completed' : 'irregular')
}

function failCompaction(model: Model): void {
  writeEnd(model, weighted(model.chooser, [['summarizer failed: the provider returned no text', 3], ['the region changed', 1]]), 'failed-clean')
}

/** The commit failed after the summary (and maybe the checkpoint) landed. */
function failWhileCommitting(model: Model): void {
  const summarySeq = writeSummary(model)
  if (chance(model.chooser, 50)) writeCheckpoint(model, summarySeq)
  writeEnd(model, 'appending the compaction end failed', 'failed-partial')
}

/**
 * Unrelated events while the summary is written: appends and log-only events only. A notice of the
 * compact plugin itself is appended, so it is no checkpoint (Terms of chapter 13) and changes no outcome.
 */
function bracketFiller(model: Model): void {
  const notice = (source: JsonObject): void => void write(model, userMessage(`msg-${nextSeq(model)}`, someText(model.chooser), source))
  const filler = weighted(model.chooser, [['context', 2], ['compact', 1], ['plugin', 2]])
  if (filler === 'context') notice({ kind: 'plugin', plugin: 'context', form: 'notice', summary: 'context' })
  else if (filler === 'compact') notice({ kind: 'plugin', plugin: 'compact', ...identity(model) })
  else write(model, pluginEvent(model.chooser, nextSeq(model)))
}

/** The compaction actions open to the model now: start one, or move the open bracket on. */
export function compactionActions(model: Model): Action[] {
  if (model.step !== undefined) return []
  const bracket = model.bracket
  if (bracket === undefined) {
    const weight = hasLegalRegion(model.nodes) ? (model.openTurn === null ? 6 : 4) : 0
    return [['startCompaction', weight, startCompaction]]
  }
  if (bracket.owner !== model.openTurn) return []
  return [
    ['commitCompaction', 20, commitCompaction],
    ['failCompaction', 4, failCompaction],
    ['failWhileCommitting', 2, failWhileCommitting],
    ['bracketFiller', 5, bracketFiller],
  ]
}
