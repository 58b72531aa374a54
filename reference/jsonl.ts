/** Placeholder until chapter 19 is written. */
import { reject, type Result } from './result.ts'
export interface JsonlValue { header: unknown; events: unknown[]; tornTail: unknown }
export function decodeJsonl(_input: { text: unknown; base64: unknown }): Result<JsonlValue> {
  return reject('JSONL_HEADER_INVALID', 'not yet implemented')
}
