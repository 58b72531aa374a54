// A model of a session writer that builds a valid v0 log event by event. At each point it lists the
// actions that keep every rule of the spec (load rules and relations, chapters 05-16) and lets a
// Chooser pick one: turns and steps with streamed chunks, assistant messages with tool-call blocks,
// tool calls and results (including not-started ones), injected user messages, request headers and
// contexts, prunes with their rewrites, plain replaces, compaction brackets (manual and automatic, all
// outcomes), crashes with repair closers and an end-seed, and plugin events. It also records facts a
// reader must derive from the log (surface, header in force, bracket outcomes, repair closers, stable
// fork boundaries), so properties can compare an implementation with the model.
import { chance, pick, weighted, type Chooser } from './choices.ts'
import {
  INHERITED_NAMES, LOOKALIKE_CALL_IDS, PROVIDER, TURN_END_REASONS, assistantContent, chooseHeader, contextFor, epochHeader, modelSource, pluginEvent,
  someText, streamChunks, syntheticResult, toolResultData, userMessage,
  type AssistantPlan, type Draft, type JsonObject, type LogEvent, type StorageHeader,
} from './events.ts'
import { chooseLegalRegion, hasLegalRegion, type SurfaceNode } from './surface-model.ts'
import { compactionActions, commitCompaction } from './compaction-model.ts'
import { messageId, nextSeq, openTurnNumber, write, type Action, type BracketRecord, type CallState, type Model, type StepState } from './model-state.ts'

export type Ending = 'clean' | 'crash' | 'resumed'

export interface LogFacts {
  ending: Ending
  /** Seqs a fork may cut at (FORK-3): no turn is open after them. */
  stableBoundaries: number[]
  /** The surface node seqs after the last event. */
  nodes: number[]
  headerInForce: JsonObject | null
  contextInForce: JsonObject | null
  brackets: BracketRecord[]
  /** What `repair` must return for the log (empty unless the log ends inside a turn). */
  closers: LogEvent[]
  /**
   * Tool-call blocks on the surface left without results (PAIR-6): of steps that ended without them,
   * blocks repeating an earlier block's id, and calls repair forgot (REPAIR-4's finding) when a crash
   * closed their step. No compaction can shadow them (REGION-3), so the surface's pairing counter ends
   * at this number once repaired.
   */
  unansweredCalls: number
}

export interface GeneratedLog {
  header: StorageHeader
  events: LogEvent[]
  facts: LogFacts
}

export interface LogOptions {
  /** The log grows to at least this many events before the model ends it. */
  size: number
}

// ---- turns, steps and the model call ----------------------------------------------------------

function startTurn(model: Model): void {
  model.lastTurn += 1
  model.nextStep = 1
  write(model, { type: 'turn/start', data: { turn: model.lastTurn } })
  if (chance(model.chooser, 70)) writeUserMessage(model)
}

function endTurn(model: Model): void {
  const reason = weighted(model.chooser, TURN_END_REASONS.map((reason, index) => [reason, index === 0 ? 10 : 1] as const))
  write(model, { type: 'turn/end', data: { turn: openTurnNumber(model), reason } })
}

function writeUserMessage(model: Model): void {
  const draft = userMessage(messageId(model), someText(model.chooser))
  // DER-3 projects the whole data; a computed key defines a member named `__proto__` as data.
  if (chance(model.chooser, 3)) draft.data = { ...(draft.data as JsonObject), [pick(model.chooser, INHERITED_NAMES)]: 'note' }
  write(model, draft)
}

/** Now and then `ignorable: true`, which has no effect on a type the reader knows (UNK-4): the folds still read the record. */
function knownButMarkedIgnorable(chooser: Chooser): { ignorable?: true } {
  return chance(chooser, 5) ? { ignorable: true } : {}
}

/** HDR-6 and HDR-7: a snapshot when the loop instance needs one or the header changed; a context when it differs. */
function writeRequestRecords(model: Model): void {
  const chooser = model.chooser
  const drawn = !model.needsSnapshot && chance(chooser, 15) ? chooseHeader(chooser) : undefined
  // A config member HDR-5 does not compare stays as it was, so a snapshot is written exactly when the
  // header is different under HDR-5 (HDR-6), which the JSON comparison below then tells.
  const changed = drawn === undefined || model.headerChoice === undefined ? drawn : { ...drawn, inheritedConfigMember: model.headerChoice.inheritedConfigMember }
  const choice = changed ?? model.headerChoice ?? chooseHeader(chooser)
  const header = epochHeader(choice)
  const differs = JSON.stringify(header) !== JSON.stringify(model.headerInForce)
  if (model.needsSnapshot || differs) {
    const reason = model.needsSnapshot ? (model.headerInForce === null ? 'initial' : 'resume') : 'change'
    write(model, { type: 'request/header', data: { header, reason }, ...knownButMarkedIgnorable(chooser) })
    model.headerInForce = header
    model.headerChoice = choice
    model.needsSnapshot = false
  }
  const context = contextFor(choice)
  if (JSON.stringify(context) !== JSON.stringify(model.contextInForce)) {
    write(model, { type: 'request/context', data: context, ...knownButMarkedIgnorable(chooser) })
    model.contextInForce = context
  }
}

function startStep(model: Model): void {
  write(model, { type: 'step/start', data: { turn: openTurnNumber(model), step: model.nextStep } })
  model.step = { phase: 'stream', calls: [] }
  writeRequestRecords(model)
}

function endStep(model: Model): void {
  write(model, { type: 'step/end', data: { turn: openTurnNumber(model), step: model.nextStep } })
  model.step = undefined
  model.nextStep += 1
}

/** A failed or cancelled step that ends with calls unanswered (PAIR-6). */
function abandonStep(model: Model): void {
  model.unansweredCalls += openCalls(model).length
  endStep(model)
}

function planMessage(model: Model, allowCalls: boolean): AssistantPlan {
  const chooser = model.chooser
  const count = allowCalls ? weighted(chooser, [[0, 50], [1, 30], [2, 15], [3, 5]]) : 0
  const prefix = `call_${openTurnNumber(model)}_${model.nextStep}_${nextSeq(model)}`
  const lookalikes = chance(chooser, 10) ? pick(chooser, LOOKALIKE_CALL_IDS) : undefined
  const calls = Array.from({ length: count }, (_, index) => ({
    id: lookalikes?.[index] ?? `${prefix}_${index}`,
    name: chance(chooser, 50) ? 'bash' : 'read_file',
    arguments: chance(chooser, 50) ? '{"command":"ls -la"}' : '{"path":"src/index.ts"}',
  }))
  // Now and then a call takes the id of a call of an earlier step, as a later step may (PAIR-4), and a
  // message repeats a call id, which a counter of distinct ids would miss (REGION-3).
  const earlierIds = model.events.flatMap(event => (event.type === 'tool/call' ? [String((event.data as JsonObject)['callId'])] : []))
  if (calls.length > 0 && earlierIds.length > 0 && chance(chooser, 5)) calls[0]!.id = pick(chooser, earlierIds)
  if (calls.length >= 2 && chance(chooser, 10)) calls.at(-1)!.id = calls[0]!.id
  const plan: AssistantPlan = { calls }
  if (chance(chooser, 30)) plan.reasoning = someText(chooser)
  if (chance(chooser, 85)) plan.text = someText(chooser)
  return plan
}

/** Writes one model call's chunks; returns their seqs (the message's sources, PROV-9). */
function writeStream(model: Model, plan: AssistantPlan, finish: string): number[] {
  const turn = openTurnNumber(model)
  return streamChunks(model.chooser, plan, finish).map(chunk => write(model, { type: 'assistant/chunk', data: { turn, step: model.nextStep, chunk } }).seq)
}

function modelCall(model: Model, allowCalls = true): void {
  const plan = planMessage(model, allowCalls)
  const finish = plan.calls.length > 0 ? 'tool-calls' : assistantContent(plan).length === 0 ? 'max-tokens' : 'stop'
  const sources = chance(model.chooser, 90) ? writeStream(model, plan, finish) : []
  const message = { id: messageId(model), role: 'assistant', content: assistantContent(plan), source: modelSource(PROVIDER, model.headerChoice?.model ?? 'deepseek-v4-flash') }
  const usage = { inputTokens: 100 + model.chooser.int(900), outputTokens: model.chooser.int(200) }
  write(model, { type: 'assistant/message', data: { turn: openTurnNumber(model), step: model.nextStep, message, usage }, surfaceOp: 'append', sourceEventSeqs: sources })
  const calls = plan.calls.map((block, index): CallState => ({ block, status: plan.calls.slice(0, index).some(earlier => earlier.id === block.id) ? 'twin' : 'asked' }))
  model.unansweredCalls += calls.filter(call => call.status === 'twin').length
  model.step = { phase: plan.calls.length > 0 ? 'tools' : 'done', calls }
}

/** A failed attempt: its chunks, then an llm/retry; the next attempt's message will not cite them. */
function retryAttempt(model: Model): void {
  writeStream(model, planMessage(model, false), 'stop')
  const turn = openTurnNumber(model)
  write(model, {
    type: 'llm/retry',
    data: { retryId: `retry-${nextSeq(model)}`, turn, step: model.nextStep, provider: PROVIDER, mode: 'normal', policyKey: 'default', retry: 1, maxRetries: 3, delayMs: 250, failure: { message: 'overloaded', code: 'PROVIDER_OVERLOADED' } },
  })
}

/** A step whose model call failed: maybe some chunks, then the step ends without a message. */
function failStep(model: Model): void {
  if (chance(model.chooser, 50)) writeStream(model, planMessage(model, false), 'stop')
  endStep(model)
}

function callsWith(model: Model, status: CallState['status']): CallState[] {
  return model.step?.calls.filter(call => call.status === status) ?? []
}

function settleStep(model: Model): void {
  if (model.step !== undefined && model.step.calls.every(call => call.status === 'answered' || call.status === 'twin')) model.step.phase = 'done'
}

function startCall(model: Model): void {
  const call = callsWith(model, 'asked')[0]!
  const { id, name, arguments: args } = call.block
  call.callSeq = write(model, { type: 'tool/call', data: { turn: openTurnNumber(model), step: model.nextStep, callId: id, name, arguments: args } }).seq
  call.status = 'started'
}

function answerCall(model: Model): void {
  const started = callsWith(model, 'started')
  const call = started[model.chooser.int(started.length)]!
  const failed = chance(model.chooser, 15)
  const data = toolResultData(openTurnNumber(model), model.nextStep, messageId(model), call.block.id, someText(model.chooser), failed ? true : chance(model.chooser, 50) ? false : undefined)
  if (failed) data['error'] = { name: 'ToolError', code: 'TOOL_FAILED' }
  // meta is any JSON value; an empty object or array is what a comparison over Object.keys confuses.
  const meta = weighted(model.chooser, [['none', 61], ['duration', 24], ['empty object', 10], ['empty array', 5]] as const)
  if (meta === 'duration') data['meta'] = { durationMs: model.chooser.int(5000) }
  if (meta === 'empty object') data['meta'] = {}
  if (meta === 'empty array') data['meta'] = []
  const cite = chance(model.chooser, 80)
  write(model, { type: 'tool/result', data, surfaceOp: 'append', ...(cite ? { sourceEventSeqs: [call.callSeq!] } : {}) })
  call.status = 'answered'
  settleStep(model)
}

/** A call cancelled before it started: a result marked twice as not started (PAIR-5). */
function cancelCall(model: Model): void {
  const call = callsWith(model, 'asked')[0]!
  const data = toolResultData(openTurnNumber(model), model.nextStep, `msg-${nextSeq(model)}`, call.block.id, 'The tool call was cancelled.', true)
  data['error'] = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' }
  write(model, { type: 'tool/result', data, surfaceOp: 'append' })
  call.status = 'answered'
  settleStep(model)
}

function writeTodo(model: Model): void {
  write(model, { type: 'todo/write', data: { todos: [{ content: someText(model.chooser), status: chance(model.chooser, 50) ? 'pending' : 'in_progress' }] } })
}

// ---- crash repair and resume (chapters 11 and 12) ---------------------------------------------

/** REPAIR-5..9 from the model's own state: results for unanswered blocks, then step/end, turn/end. */
export function modelClosers(model: Model): Draft[] {
  if (model.openTurn === null) return []
  const turn = model.openTurn
  const closers: Draft[] = []
  let seq = nextSeq(model)
  for (const call of openCalls(model)) {
    if (call.forgotten !== true) closers.push(syntheticResult(turn, model.nextStep, call.block.id, seq++, call.callSeq))
  }
  if (model.step !== undefined) closers.push({ type: 'step/end', data: { turn, step: model.nextStep } })
  closers.push({ type: 'turn/end', data: { turn, reason: { kind: 'interrupted' } } })
  return closers
}

/** The calls of the open step still asked or started. */
function openCalls(model: Model): CallState[] {
  return model.step?.calls.filter(call => call.status === 'asked' || call.status === 'started') ?? []
}

/** The open calls repair writes no closer for (REPAIR-4's finding): they stay on the surface unanswered. */
function forgottenCalls(model: Model): number {
  return openCalls(model).filter(call => call.forgotten === true).length
}

/** A crash and a cold reopening: the closers at the last event's time, then the end-seed (SEED-10). */
function crashAndResume(model: Model): void {
  const lastTime = model.events.at(-1)?.time ?? model.time
  model.unansweredCalls += forgottenCalls(model)
  for (const closer of modelClosers(model)) write(model, closer, lastTime)
  model.step = undefined
  // Now and then the session is picked up on a machine whose clock is an hour behind: the end-seed and
  // what follows are stamped before the events they follow, which no rule reads (ENV-5, COMP-14).
  if (chance(model.chooser, 25)) model.time -= 3_600_000
  write(model, { type: 'session/end-seed', data: {} })
  if (model.bracket !== undefined) {
    model.brackets.at(-1)!.outcome = 'orphaned-stale'
    model.bracket = undefined
  }
  model.needsSnapshot = true
}

// ---- choosing actions -------------------------------------------------------------------------

const callIdOfResult = (model: Model, seq: number): unknown => (((model.events[seq]!.data as JsonObject)['message'] as JsonObject)['source'] as JsonObject)['callId']

function resultNodes(model: Model): SurfaceNode[] {
  return model.nodes.filter(node => node.type === 'tool/result')
}

/**
 * The result nodes a prune may rewrite: any, or while a bracket is open those outside its region, which
 * must stay as it was summarized (COMP-12). A rewrite keeps the node's place and call id, so the region
 * stays legal (REGION-5).
 */
function prunableNodes(model: Model): SurfaceNode[] {
  const region = model.bracket?.region
  return resultNodes(model).filter(node => region === undefined || !region.includes(node.seq))
}

/**
 * A rewrite of a tool-result node, announced by its prune claim (COMP-13). Half the time, when a call of
 * the open step uses again the id of a result node, that result is the one: the rewrite takes the id out
 * of repair's map (REPAIR-4's finding), so repair will write no closer for the call.
 */
function pruneResult(model: Model): void {
  const open = new Set(openCalls(model).map(call => call.block.id))
  const results = prunableNodes(model)
  const reused = results.filter(node => open.has(callIdOfResult(model, node.seq) as string))
  const nodes = reused.length > 0 && chance(model.chooser, 50) ? reused : results
  const target = nodes[model.chooser.int(nodes.length)]!.seq
  write(model, { type: 'compaction/prune', data: { shadowedRange: { start: target, end: target }, shadowedSeqs: [target], shadowedTokenCount: 50 + model.chooser.int(5000) } })
  const data = structuredClone(model.events[target]!.data) as JsonObject
  const block = ((data['message'] as JsonObject)['content'] as JsonObject[])[0]!
  block['content'] = [{ type: 'text', text: `[output pruned at ${nextSeq(model)}]` }]
  write(model, { type: 'tool/result', data, surfaceOp: { op: 'replace', start: target, end: target }, sourceEventSeqs: [target] })
  const rewrittenId = callIdOfResult(model, target)
  for (const call of openCalls(model)) if (call.block.id === rewrittenId) call.forgotten = true
}

/**
 * What a replace cites: the seqs it shadows (PROV-7), now and then with one more earlier event among
 * them and in another order, which PROV-6 allows and a reader keeps as stored.
 */
function replaceCitations(model: Model, shadowed: readonly number[]): number[] {
  const chooser = model.chooser
  if (!chance(chooser, 40)) return [...shadowed]
  const extra = chooser.int(nextSeq(model))
  const cited = shadowed.includes(extra) ? [...shadowed] : [...shadowed, extra]
  for (let at = cited.length - 1; at > 0; at--) {
    const other = chooser.int(at + 1)
    ;[cited[at], cited[other]] = [cited[other]!, cited[at]!]
  }
  return cited
}

/** A non-compaction replace of a legal region (SURF-7): a plugin note that stands for what it hides. */
function plainReplace(model: Model): void {
  const [first, last] = chooseLegalRegion(model.nodes, model.chooser)
  const shadowed = model.nodes.slice(first, last + 1).map(node => node.seq)
  const draft = userMessage(`msg-${nextSeq(model)}`, 'Notes on the earlier work.', { kind: 'plugin', plugin: 'notes' })
  write(model, { ...draft, surfaceOp: { op: 'replace', start: shadowed[0]!, end: shadowed.at(-1)! }, sourceEventSeqs: replaceCitations(model, shadowed) })
}

function stepActions(model: Model, step: StepState): Action[] {
  const common: Action[] = [['injectUser', 2, writeUserMessage], ['crashResume', 1, crashAndResume]]
  switch (step.phase) {
    case 'stream':
      return [['modelCall', 30, modelCall], ['retry', 2, retryAttempt], ['failStep', 1, failStep], ...common]
    case 'tools': {
      const tools: Action[] = [
        ['startCall', callsWith(model, 'asked').length > 0 ? 10 : 0, startCall],
        ['answerCall', callsWith(model, 'started').length > 0 ? 10 : 0, answerCall],
        ['cancelCall', callsWith(model, 'asked').length > 0 ? 1 : 0, cancelCall],
        ['prune', prunableNodes(model).length > 0 ? 1 : 0, pruneResult],
        ...common,
      ]
      // Now and then a failed or cancelled step ends with calls unanswered (PAIR-6); they stay on the
      // surface and no region can end after them (REGION-3), so this is kept to a few logs in a hundred.
      return [...tools.map(([name, weight, run]): Action => [name, weight * 5, run]), ['abandonStep', 1, abandonStep]]
    }
    case 'done':
      return [['endStep', 30, endStep], ['todo', 1, writeTodo], ['prune', prunableNodes(model).length > 0 ? 2 : 0, pruneResult], ...common]
  }
}

function turnActions(model: Model): Action[] {
  const free = model.bracket === undefined
  return [
    ['startStep', 30, startStep],
    ['endTurn', free ? 8 : 0, endTurn],
    ['todo', 2, writeTodo],
    ['injectUser', 3, writeUserMessage],
    ['prune', prunableNodes(model).length > 0 ? 4 : 0, pruneResult],
    ['plainReplace', free && hasLegalRegion(model.nodes) ? 1 : 0, plainReplace],
    ['crashResume', 2, crashAndResume],
    ...compactionActions(model),
  ]
}

function idleActions(model: Model): Action[] {
  const free = model.bracket === undefined
  return [
    ['startTurn', free ? 40 : 0, startTurn],
    ['userPrompt', 4, writeUserMessage],
    ['plugin', 4, m => write(m, pluginEvent(m.chooser, nextSeq(m)))],
    ['plainReplace', free && hasLegalRegion(model.nodes) ? 2 : 0, plainReplace],
    ['resume', 2, crashAndResume],
    ...compactionActions(model),
  ]
}

export function enabledActions(model: Model): Action[] {
  const actions = model.step !== undefined ? stepActions(model, model.step) : model.openTurn !== null ? turnActions(model) : idleActions(model)
  return actions.filter(([, weight]) => weight > 0)
}

function takeAction(model: Model): void {
  const actions = enabledActions(model)
  const run = weighted(model.chooser, actions.map(([, weight, run]) => [run, weight] as const))
  run(model)
}

// ---- ending the log ---------------------------------------------------------------------------

/** Closes whatever is open the way a writer finishes normally. */
function finishCleanly(model: Model): void {
  for (let guard = 0; guard < 1000; guard++) {
    const step = model.step
    if (step?.phase === 'stream') modelCall(model, false)
    else if (step?.phase === 'tools') (callsWith(model, 'asked').length > 0 ? startCall : answerCall)(model)
    else if (step?.phase === 'done') endStep(model)
    else if (model.bracket !== undefined) commitCompaction(model)
    else if (model.openTurn !== null) endTurn(model)
    else return
  }
  throw new Error('the model did not settle')
}

/**
 * A header's cwd from a roll in [0, 100): most often a POSIX path, now and then a Windows one, and now
 * and then one with a `..` segment and a trailing slash, absolute and kept as written (META-7).
 */
function cwdOf(roll: number): string {
  if (roll >= 20) return '/workspace/project'
  return roll >= 10 ? 'C:\\work\\repo' : '/workspace/../project/'
}

/** A session header with its members in the order JSONL-7 decodes them. */
function storageHeader(chooser: Chooser): StorageHeader {
  const child = chance(chooser, 20)
  const header = { version: 0, id: `session-${chooser.int(1_000_000)}`, createdAt: 1_786_000_000_000 + chooser.int(1_000_000) } as StorageHeader
  if (chance(chooser, 70)) header.cwd = cwdOf(chooser.int(100))
  if (child) header.parentSession = `session-parent-${chooser.int(1000)}`
  if (child && chance(chooser, 50)) header.seedLength = chooser.int(50)
  if (child) header.origin = 'subagent'
  header.delegationDepth = child ? 1 : 0
  if (child && chance(chooser, 50)) header.agentPreset = 'reviewer'
  if (chance(chooser, 10)) Object.assign(header, chance(chooser, 50) ? { title: 'notes' } : { title: 'notes', theme: { dark: true } })
  return header
}

export function createModel(chooser: Chooser, createdAt: number): Model {
  return {
    chooser, events: [], time: createdAt + 5, openTurn: null, lastTurn: 0, nextStep: 1, step: undefined, nodes: [],
    bracket: undefined, brackets: [], headerChoice: undefined, headerInForce: null, contextInForce: null,
    needsSnapshot: true, stableBoundaries: [], unansweredCalls: 0,
  }
}

/** Builds one valid log of at least `options.size` events from the chooser's decisions. */
export function generateLog(chooser: Chooser, options: LogOptions): GeneratedLog {
  const header = storageHeader(chooser)
  const model = createModel(chooser, header.createdAt)
  while (model.events.length < options.size) takeAction(model)
  const open = model.openTurn !== null || model.bracket !== undefined
  const ending: Ending = weighted(chooser, [['clean', 60], ['crash', open ? 25 : 0], ['resumed', 15]])
  if (ending === 'clean') finishCleanly(model)
  if (ending === 'resumed') crashAndResume(model)
  const lastTime = model.events.at(-1)?.time ?? model.time
  const closers = modelClosers(model).map((draft, index) => ({ ...draft, seq: nextSeq(model) + index, time: lastTime }) as LogEvent)
  return {
    header,
    events: model.events,
    facts: {
      ending,
      stableBoundaries: model.stableBoundaries,
      nodes: model.nodes.map(node => node.seq),
      headerInForce: model.headerInForce,
      contextInForce: model.contextInForce,
      brackets: model.brackets,
      closers: closers.map(orderedEnvelope),
      // A crash leaves the forgotten calls for the resumed log, which P8 counts.
      unansweredCalls: model.unansweredCalls + (ending === 'crash' ? forgottenCalls(model) : 0),
    },
  }
}

/** An event with its members in envelope order, as `write` lays them out. */
function orderedEnvelope(event: LogEvent): LogEvent {
  const { type, seq, time, data, surfaceOp, sourceEventSeqs } = event
  return { type, seq, time, data, ...(surfaceOp === undefined ? {} : { surfaceOp }), ...(sourceEventSeqs === undefined ? {} : { sourceEventSeqs }) }
}

