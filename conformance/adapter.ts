// What the runner needs from an implementation under test: its metadata and the operations it has.
import type { OperationResult } from './expectations.ts'
import { PROFILES } from './spec-catalog.ts'
import { OPERATIONS, type OperationName } from './vector-cases.ts'

export interface AdapterMeta {
  name: string
  version: string
  language: string
  profiles: string[]
  homepage?: string
  /**
   * How inputs reach the implementation. A subprocess adapter (spec/adapter-protocol.md) receives
   * inputs in tagged form and returns decoded values; an in-process one (the default) receives the
   * decoded values.
   */
  transport?: 'in-process' | 'subprocess'
}

/** Which vector step an operation call runs; a subprocess adapter passes it on for the adapter's logs. */
export interface StepContext {
  caseId: string
  step: number
}

/**
 * What an operation returns: an operation result, except that a rejection's `seq` or `line` may be
 * null, which says there is none, as leaving it out does; or, for an input the implementation cannot
 * handle by design, what it lacks (spec/adapter-protocol.md).
 */
export type AdapterResult =
  | Extract<OperationResult, { ok: true }>
  | { ok: false; error: { code: string; seq?: number | null; line?: number | null; message?: string } }
  | { ok: false; unsupported: string }

export type Operation = (input: Record<string, unknown>, context?: StepContext) => AdapterResult | Promise<AdapterResult>

export interface Adapter {
  meta: AdapterMeta
  operations: Partial<Record<OperationName, Operation>>
  /** Releases what the adapter holds (a subprocess adapter stops its process). */
  close?: () => Promise<void>
  /** The tail of what the implementation wrote for people (a subprocess adapter's stderr), for reports. */
  stderr?: () => string
}

/**
 * The operation result an operation returned, a rejection's null seq or line left out; undefined when
 * the value has no such shape, which is an adapter error. Every caller of an operation reads its
 * result through this, so null means none wherever it comes from. A rejection's seq and line are
 * numbers and its message a string; a number that is no seq (-1, 2^53, -0) is carried, to be judged
 * against the expected one.
 */
export function operationResultOf(value: unknown): OperationResult | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const record = value as Record<string, unknown>
  // A verdict beside `unsupported` says two things at once, as the protocol's schema refuses too.
  if ('unsupported' in record) return undefined
  if (record['ok'] === true) return 'value' in record ? value as OperationResult : undefined
  if (record['ok'] !== false) return undefined
  const error = record['error']
  if (typeof error !== 'object' || error === null) return undefined
  // Read member by member, as the judge reads them: a getter or an Error's own message counts too.
  const { code, seq, line, message } = error as Record<string, unknown>
  if (typeof code !== 'string') return undefined
  const absent = (value: unknown): boolean => value === null || value === undefined
  if (![seq, line].every(place => absent(place) || typeof place === 'number')) return undefined
  if (message !== undefined && typeof message !== 'string') return undefined
  return {
    ok: false,
    error: {
      code,
      ...(absent(seq) ? {} : { seq: seq as number }),
      ...(absent(line) ? {} : { line: line as number }),
      ...(message === undefined ? {} : { message }),
    },
  }
}

/**
 * What the implementation lacks, when an operation answered that it cannot handle its input
 * (`{ok: false, unsupported}`, a string that is not blank, and no `error`); undefined for any other value.
 */
export function unsupportedOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const record = value as Record<string, unknown>
  if (record['ok'] !== false || 'error' in record) return undefined
  const lacking = record['unsupported']
  return typeof lacking === 'string' && lacking.trim() !== '' ? lacking : undefined
}

/**
 * What is wrong with an in-process adapter's claims: a profile or an operation name the suite does
 * not know would make cases skip silently (a subprocess adapter's start reply is checked by schema).
 */
export function adapterClaimProblem(adapter: Adapter): string | undefined {
  const unknownProfiles = adapter.meta.profiles.filter((profile) => !(PROFILES as readonly string[]).includes(profile))
  if (unknownProfiles.length > 0) return `the adapter claims unknown profile(s) ${unknownProfiles.join(', ')} (profiles: ${PROFILES.join(', ')})`
  const unknownOperations = Object.keys(adapter.operations).filter((name) => !(OPERATIONS as readonly string[]).includes(name))
  if (unknownOperations.length > 0) return `the adapter provides unknown operation(s) ${unknownOperations.join(', ')} (operations: ${OPERATIONS.join(', ')})`
  return undefined
}
