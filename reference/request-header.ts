/**
 * Chapter 16: the durable request-header shape, and the header and context folds.
 */
import { fault, type Fault } from './result.ts'
import { hasOwn, isNonEmptyString, isRecord, type JsonRecord } from './lossless-json.ts'
import type { SessionEvent } from './envelope.ts'

const ADAPTER_DEFAULT_FLAGS: readonly string[] = ['reasoningEffort', 'maxTokens']

/**
 * HDR-2 check 3. Presence is own membership, whatever the value (`undefined` included), and a hidden
 * flag counts for 3.4; names and values (3.2, 3.3) are checked over the listed members (PROC-2).
 */
function adapterDefaultsFault(header: JsonRecord, config: JsonRecord): Fault | undefined {
  if (!hasOwn(header, 'adapterDefaults')) return undefined
  const defaults = header['adapterDefaults']
  const invalid = fault('REQUEST_HEADER_INVALID', 'adapterDefaults must map reasoningEffort/maxTokens to true for fields set in config')
  if (!isRecord(defaults)) return invalid
  const listedFaulty = Object.entries(defaults).some(([flag, marker]) => !ADAPTER_DEFAULT_FLAGS.includes(flag) || marker !== true)
  const flagWithoutField = ADAPTER_DEFAULT_FLAGS.some(flag => hasOwn(defaults, flag) && !hasOwn(config, flag))
  return listedFaulty || flagWithoutField ? invalid : undefined
}

/** The shape a stored `request/header` payload must have (config provider/model, reasoningEffort, adapterDefaults). */
export function requestHeaderFault(data: unknown): Fault | undefined {
  const header = isRecord(data) ? data['header'] : undefined
  const config = isRecord(header) ? header['config'] : undefined
  if (!isRecord(header) || !isRecord(config) || !isNonEmptyString(config['provider']) || !isNonEmptyString(config['model'])) {
    return fault('REQUEST_HEADER_INVALID', 'request/header needs header.config with provider and model')
  }
  if (hasOwn(config, 'reasoningEffort') && !isNonEmptyString(config['reasoningEffort'])) {
    return fault('REQUEST_HEADER_INVALID', 'config.reasoningEffort must be a non-empty string')
  }
  return adapterDefaultsFault(header, config)
}

/** Canonical form: empty system, empty tools and flag-less adapterDefaults are dropped. */
export function canonicalHeader(header: JsonRecord): JsonRecord {
  const defaults = header['adapterDefaults']
  const hasFlag = isRecord(defaults) && (defaults['reasoningEffort'] === true || defaults['maxTokens'] === true)
  const system = header['system']
  const tools = header['tools']
  return {
    config: header['config'],
    ...(hasFlag ? { adapterDefaults: defaults } : {}),
    ...(typeof system === 'string' && system.length > 0 ? { system } : {}),
    ...(Array.isArray(tools) && tools.length > 0 ? { tools } : {}),
  }
}

function eventsUpTo(events: readonly SessionEvent[], atSeq: number | undefined): readonly SessionEvent[] {
  return atSeq === undefined ? events : events.filter(event => event.seq <= atSeq)
}

/** The latest `request/header` snapshot at or before `atSeq`, canonicalized; null before the first. */
export function foldRequestHeader(events: readonly SessionEvent[], atSeq?: number): JsonRecord | null {
  const last = eventsUpTo(events, atSeq).findLast(event => event.type === 'request/header')
  const header = isRecord(last?.data) ? last.data['header'] : undefined
  return isRecord(header) ? canonicalHeader(header) : null
}

/** HDR-8: the latest `request/context` payload at or before `atSeq`, whole; `{}` for a non-object; null before the first. */
export function foldRequestContext(events: readonly SessionEvent[], atSeq?: number): JsonRecord | null {
  const last = eventsUpTo(events, atSeq).findLast(event => event.type === 'request/context')
  if (last === undefined) return null
  return isRecord(last.data) ? last.data : {}
}

// ---- HDR-5: header equality (a writer's "change" decision) -----------------------------------

/** Same JSON type and equal scalars; objects and arrays are never strictly equal. */
function strictlyEqual(a: unknown, b: unknown): boolean {
  return a === b &&
    // Stryker disable next-line ConditionalExpression,StringLiteral: header values come from two separate snapshots, so no object is identical to another: a === b already fails for any two objects
    (a === null || typeof a !== 'object')
}

/** Member present on neither side, or on both with strictly equal values. */
function sameMember(a: JsonRecord, b: JsonRecord, key: string): boolean {
  if (hasOwn(a, key) !== hasOwn(b, key)) return false
  return !hasOwn(a, key) || strictlyEqual(a[key], b[key])
}

function sameStop(a: JsonRecord, b: JsonRecord): boolean {
  if (!hasOwn(a, 'stop') && !hasOwn(b, 'stop')) return true
  const x = a['stop']
  const y = b['stop']
  return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((item, index) => strictlyEqual(item, y[index]))
}

/** Ordered equality: equal JSON texts with members in stored order (values are lossless JSON). */
function orderedEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function recordOf(value: unknown): JsonRecord {
  return isRecord(value) ? value : {}
}

/** HDR-5 over two canonical headers. */
export function headerEquals(a: JsonRecord, b: JsonRecord): boolean {
  const configA = recordOf(a['config'])
  const configB = recordOf(b['config'])
  const flagsA = recordOf(a['adapterDefaults'])
  const flagsB = recordOf(b['adapterDefaults'])
  const toolsA = Array.isArray(a['tools']) ? a['tools'] : []
  const toolsB = Array.isArray(b['tools']) ? b['tools'] : []
  return ['provider', 'model', 'reasoningEffort', 'temperature', 'maxTokens'].every(key => sameMember(configA, configB, key))
    && sameStop(configA, configB)
    && ADAPTER_DEFAULT_FLAGS.every(flag => sameMember(flagsA, flagsB, flag))
    && sameMember(a, b, 'system')
    && toolsA.length === toolsB.length
    && toolsA.every((tool, index) => orderedEqual(tool, toolsB[index]))
}
