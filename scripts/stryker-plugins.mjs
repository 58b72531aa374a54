// Stryker plugins of this project (stryker.config.mjs).
//
// `free-text-messages`, an ignore-plugin: mutants inside the free-text message of a rejection
// are not run. PROC-1 makes messages text for people that no vector compares, so every such mutant
// is equivalent under the suite; codes, seqs and lines are mutated as usual. A message is the message
// argument of a helper that builds a fault (or names where the fault is), the text of a `why` or
// `message` member, the text a chunk-row check returns as the reason of its fault, or the body of a
// function that builds only message text.
//
// `run-timer`, a reporter: writes when the run started and ended to reports/mutation/run.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { PluginKind, declareClassPlugin, declareValuePlugin } from '@stryker-mutator/api/plugin'

/** Callee name -> index of its message argument, for every reference helper that carries one. */
const MESSAGE_ARGUMENT = {
  fault: 1, reject: 1, failed: 1, rowFault: 1, invalidPayload: 1, identityFault: 1,
  invalid: 0, malformed: 0, invalidField: 0, fail: 0, ZstdError: 0,
}

/** Functions that return the reason text of a fault, or undefined when the check passes. */
const REASON_RETURNING = new Set(['dataKeysFault', 'payloadFault', 'replaceOpProblem', 'headerFrameLine'])

/**
 * Functions whose result goes into message text and nowhere else in reference/: their whole body is
 * free text. (check compares `unknownTypeMessage`'s text with a refusal's, under its own tests.)
 */
const MESSAGE_BUILDING = new Set(['placeOf', 'seqGapText', 'firstEventText', 'unparsableWhy', 'valueText', 'numberText', 'identityMismatch', 'unknownTypeMessage'])

function isMessageBuilder(path) {
  return path.isFunctionDeclaration() && MESSAGE_BUILDING.has(path.node.id?.name)
}

function isReturnedReason(path) {
  if (!path.isStringLiteral() && !path.isTemplateLiteral()) return false
  const parent = path.parentPath
  if (!parent || !(parent.isReturnStatement() || parent.isConditionalExpression())) return false
  const owner = path.getFunctionParent()
  return owner !== null && owner.isFunctionDeclaration() && REASON_RETURNING.has(owner.node.id?.name)
}

/** The text of a `why` (zstd scan failure) or `message` (a fault written out) member. */
function isMessageMember(path) {
  if (!path.isStringLiteral() && !path.isTemplateLiteral()) return false
  const parent = path.parentPath
  return Boolean(parent?.isObjectProperty() && parent.node.value === path.node && ['why', 'message'].includes(parent.node.key.name))
}

function isMessageArgument(path) {
  const parent = path.parentPath
  if (!parent || !(parent.isCallExpression() || parent.isNewExpression())) return false
  const callee = parent.node.callee
  if (callee.type !== 'Identifier' || !Object.hasOwn(MESSAGE_ARGUMENT, callee.name)) return false
  return parent.node.arguments[MESSAGE_ARGUMENT[callee.name]] === path.node
}

/** Stryker's JSON report holds no times; docs/mutation.md needs the run's end and duration. */
class RunTimer {
  static inject = []

  onMutationTestReportReady() {
    const ended = new Date()
    const started = new Date(ended.getTime() - Math.round(process.uptime() * 1000))
    mkdirSync('reports/mutation', { recursive: true })
    writeFileSync('reports/mutation/run.json', `${JSON.stringify({ started: started.toISOString(), ended: ended.toISOString() })}\n`)
  }
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.Reporter, 'run-timer', RunTimer),
  declareValuePlugin(PluginKind.Ignore, 'free-text-messages', {
    shouldIgnore: path => (isMessageArgument(path) || isMessageMember(path) || isReturnedReason(path) || isMessageBuilder(path)
      ? 'a rejection message is free text that no vector compares (PROC-1)'
      : undefined),
  }),
]
