// The YAML files the suite is given (baselines, known-divergences files): text that is not YAML is an
// error naming the file, not a parser's message alone, and a member the file's shape lacks (a
// misspelt key) is named rather than passed over.
import { parse, type DocumentOptions, type ParseOptions, type SchemaOptions, type ToJSOptions } from 'yaml'
import { errorMessage } from './wording.ts'

/** `has unknown members x, y (it may have a, b)` when `record` has members besides `members`. */
export function unknownMembers(record: Record<string, unknown>, members: readonly string[]): string | undefined {
  const unknown = Object.keys(record).filter((key) => !members.includes(key))
  return unknown.length === 0 ? undefined : `has unknown members ${unknown.join(', ')} (it may have ${members.join(', ')})`
}

/** The value of YAML (or JSON) text; throws an Error naming `source` when the text is not YAML. */
export function parseYamlText(text: string, source: string, options?: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions): unknown {
  try {
    return parse(text, options)
  } catch (error) {
    throw new Error(`${source}: not YAML: ${errorMessage(error)}`)
  }
}
