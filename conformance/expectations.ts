// Judges one operation result against one expectation. The expectation kinds are a small closed set
// (vectors/README.md): accept, value, reject. Error codes are compared; messages never are.
import type { ExpectedRejection, Expectation } from './vector-cases.ts'
import { shortened } from './wording.ts'

export type OperationResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; seq?: number; line?: number; message?: string } }

/** What differed, for reports: where, both sides as short JSON text, and for logs the diverging seq. */
export interface Mismatch {
  path: string
  expected: string
  actual: string
  divergingSeq?: number
}

export type Verdict = { pass: true } | { pass: false; reason: string; diff: Mismatch }

/**
 * The first place (depth first, members in sorted order) where two JSON-shaped values differ, as a
 * path; undefined when they are equal. Iterative, so arbitrarily deep values cannot overflow the stack.
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  const pending: Array<[unknown, unknown, string]> = [[expected, actual, path]]
  while (pending.length > 0) {
    const [left, right, where] = pending.pop()!
    const children = differenceOrChildren(left, right, where)
    if (typeof children === 'string') return children
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!)
  }
  return undefined
}

/** Either the path where two values differ on the spot, or the pairs of children still to compare. */
function differenceOrChildren(expected: unknown, actual: unknown, path: string): string | Array<[unknown, unknown, string]> {
  if (typeof expected === 'number' && typeof actual === 'number') return Object.is(expected, actual) ? [] : path
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return path
    const shared = Math.min(expected.length, actual.length)
    const children = expected.slice(0, shared).map((item, index): [unknown, unknown, string] => [item, actual[index], `${path}[${index}]`])
    // A length difference shows at the first missing index, after the shared prefix is compared.
    if (expected.length !== actual.length) children.push([0, 1, `${path}[${shared}]`])
    return children
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort()
    const children: Array<[unknown, unknown, string]> = []
    for (const key of keys) {
      if (!Object.hasOwn(expected, key) || !Object.hasOwn(actual, key)) return children.length === 0 ? `${path}.${key}` : [...children, [0, 1, `${path}.${key}`]]
      children.push([expected[key], actual[key], `${path}.${key}`])
    }
    return children
  }
  return expected === actual ? [] : path
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** For a log (an array of events), the seq of the first event that differs: "where they diverge". */
export function firstDivergingSeq(expected: unknown, actual: unknown): number | undefined {
  if (!Array.isArray(expected) || !Array.isArray(actual)) return undefined
  const length = Math.max(expected.length, actual.length)
  for (let index = 0; index < length; index += 1) {
    if (firstDifference(expected[index], actual[index]) !== undefined) {
      const event = expected[index] ?? actual[index]
      return isRecord(event) && typeof event['seq'] === 'number' ? event['seq'] : index
    }
  }
  return undefined
}

/**
 * A judged value as JSON text, except for what JSON text cannot tell apart: `-0`, `NaN`, `Infinity`,
 * `undefined` (outside an object's members, which JSON drops too) and bigints are written as such, so
 * that a message never reads "expected 0, actual 0". Writing stops soon after `most` characters.
 */
export function showValue(value: unknown, most = 400): string {
  const parts: string[] = []
  let written = 0
  const ancestors = new Set<object>()
  const write = (text: string): void => {
    parts.push(text)
    written += text.length
  }
  const visit = (item: unknown): void => {
    if (written > most) return
    if (typeof item === 'number') return write(Object.is(item, -0) ? '-0' : String(item))
    if (typeof item === 'bigint') return write(`${item}n`)
    if (typeof item !== 'object' || item === null) return write(JSON.stringify(item) ?? String(item))
    if (ancestors.has(item)) return write('[cycle]')
    ancestors.add(item)
    const entries = Array.isArray(item) ? item.map((element) => [undefined, element] as const) : Object.entries(item).filter(([, member]) => member !== undefined)
    write(Array.isArray(item) ? '[' : '{')
    entries.forEach(([key, member], index) => {
      if (index > 0) write(',')
      if (key !== undefined) write(`${JSON.stringify(key)}:`)
      visit(member)
    })
    write(Array.isArray(item) ? ']' : '}')
    ancestors.delete(item)
  }
  try {
    visit(value)
  } catch {
    // An adapter returned an object that throws when inspected (a revoked proxy, say).
    return '[an object that cannot be inspected]'
  }
  return shortened(parts.join(''), most)
}

const show = (value: unknown): string => showValue(value)

/** The value at `path`, shown; "(absent)" when there is no such member or element, which undefined is not. */
function shownAt(value: unknown, path: string): string {
  const parts = path.slice(1).match(/\.[^.[]+|\[\d+\]/g) ?? []
  let current: unknown = value
  for (const part of parts) {
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part.slice(1)
    if (!(isRecord(current) || Array.isArray(current)) || !Object.hasOwn(current, key)) return '(absent)'
    current = (current as Record<string | number, unknown>)[key]
  }
  return show(current)
}

function rejectionText(error: ExpectedRejection): string {
  return show({ code: error.code, seq: error.seq, line: error.line })
}

export function judge(result: OperationResult, expect: Expectation): Verdict {
  if ('reject' in expect) return judgeRejection(result, expect.reject)
  if (!result.ok) {
    return {
      pass: false,
      reason: `expected acceptance, got rejection ${result.error.code}${result.error.seq === undefined ? '' : ` at seq ${result.error.seq}`}: ${result.error.message ?? ''}`,
      diff: { path: '$', expected: 'acceptance', actual: `rejection ${rejectionText(result.error)}` },
    }
  }
  if ('accept' in expect) return { pass: true }
  const path = firstDifference(expect.value, result.value)
  if (path === undefined) return { pass: true }
  const seq = firstDivergingSeq(expect.value, result.value)
  const where = seq === undefined ? '' : ` (logs diverge at seq ${seq})`
  const diff: Mismatch = { path, expected: shownAt(expect.value, path), actual: shownAt(result.value, path) }
  if (seq !== undefined) diff.divergingSeq = seq
  return { pass: false, reason: `value differs at ${path}${where}: expected ${diff.expected}, actual ${diff.actual}`, diff }
}

/** What a rejection pins as an expectation: its code and its seq or line, or `seq: null` when it carries neither. */
export function expectedRejectionOf(error: { code: string; seq?: number; line?: number }): ExpectedRejection {
  const { code, seq, line } = error
  if (seq === undefined && line === undefined) return { code, seq: null }
  return { code, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
}

/** How a rejection's seq or line departs from the expected one (null: none expected); undefined when it does not. */
function placeMismatch(code: string, name: 'seq' | 'line', expected: number | null | undefined, actual: number | undefined): string | undefined {
  if (expected === undefined || actual === (expected ?? undefined)) return undefined
  const wanted = expected === null ? `with no ${name}` : `at ${name} ${expected}`
  return `expected ${code} ${wanted}, got ${actual === undefined ? `no ${name}` : `${name} ${String(actual)}`}`
}

function judgeRejection(result: OperationResult, reject: ExpectedRejection): Verdict {
  const expected = `rejection ${rejectionText(reject)}`
  if (result.ok) return { pass: false, reason: `expected rejection ${reject.code}, got acceptance: ${show(result.value)}`, diff: { path: '$', expected, actual: `acceptance ${show(result.value)}` } }
  const { error } = result
  const diff = { path: '$.error', expected, actual: `rejection ${rejectionText(error)}` }
  if (error.code !== reject.code) return { pass: false, reason: `expected code ${reject.code}, got ${error.code}: ${error.message ?? ''}`, diff: { ...diff, path: '$.error.code' } }
  for (const name of ['seq', 'line'] as const) {
    const mismatch = placeMismatch(reject.code, name, reject[name], error[name])
    if (mismatch !== undefined) return { pass: false, reason: mismatch, diff: { ...diff, path: `$.error.${name}` } }
  }
  return { pass: true }
}
