// The YAML files the suite is given (baselines, known-divergences files): text that is not YAML is an
// error naming the file, not a parser's message alone.
import { parse, type DocumentOptions, type ParseOptions, type SchemaOptions, type ToJSOptions } from 'yaml'
import { errorMessage } from './wording.ts'

/** The value of YAML (or JSON) text; throws an Error naming `source` when the text is not YAML. */
export function parseYamlText(text: string, source: string, options?: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions): unknown {
  try {
    return parse(text, options)
  } catch (error) {
    throw new Error(`${source}: not YAML: ${errorMessage(error)}`)
  }
}
