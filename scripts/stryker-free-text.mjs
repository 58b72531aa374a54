// A Stryker ignore-plugin (stryker.config.mjs): mutants inside the free-text message of a rejection
// are not run. PROC-1 makes messages text for people that no vector compares, so every such mutant
// is equivalent under the suite; codes, seqs and lines are mutated as usual.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin'

/** Callee name -> index of its message argument, for every reference helper that carries one. */
const MESSAGE_ARGUMENT = {
  fault: 1, reject: 1, failed: 1, rowFault: 1, invalidPayload: 1,
  invalid: 0, malformed: 0, invalidField: 0, fail: 0, ZstdError: 0,
}

function isMessageArgument(path) {
  const parent = path.parentPath
  if (!parent || !(parent.isCallExpression() || parent.isNewExpression())) return false
  const callee = parent.node.callee
  if (callee.type !== 'Identifier' || !Object.hasOwn(MESSAGE_ARGUMENT, callee.name)) return false
  return parent.node.arguments[MESSAGE_ARGUMENT[callee.name]] === path.node
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'free-text-messages', {
    shouldIgnore: path => (isMessageArgument(path) ? 'a rejection message is free text that no vector compares (PROC-1)' : undefined),
  }),
]
