// The two snapshots a headerEquals probe compares (HDR-5): a request header the run's log stores, and
// the same snapshot, another of the log's snapshots, or the snapshot after one edit. Each edit touches
// one rule of HDR-3 or HDR-5, some so that the canonical headers stay equal (a member canonical form
// drops, an unnamed config member, config members reordered) and some so that they differ (a named
// config member, stop, system, tools, the adapter flags, a false or null flag beside a true one (the
// false one also on both sides, which is equal), a
// provider in other letter case, a system prompt against its twin that Unicode normalization would
// equal, a tool member holding null against none, a tool parameter named `__proto__`, a system prompt
// against the same with a trailing space, a tool's `required` list against an object keyed "0"); one
// puts values outside HDR-1 in stop (nested lists and null on both sides among them), system or tools,
// and its disagreements are told apart from the others' (compare.ts), so that they cannot hide a
// departure on HDR-1 values. The pair is swapped half the time, so an asymmetric comparison shows.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser, type Chooser } from '../generators/index.ts'
import { pick } from '../generators/choices.ts'
import { PROVIDER } from '../generators/events.ts'

type Snapshot = Record<string, unknown>
type Edit = (left: Snapshot, others: readonly Snapshot[], chooser: Chooser) => [Snapshot, Snapshot]

function configOf(snapshot: Snapshot): Snapshot {
  return snapshot['config'] as Snapshot
}

function withConfig(snapshot: Snapshot, config: Snapshot): Snapshot {
  return { ...snapshot, config }
}

/** The snapshot with `key` set to `value`, or without `key` when `value` is undefined. */
function withMember(record: Snapshot, key: string, value: unknown): Snapshot {
  const { [key]: _dropped, ...rest } = record
  return value === undefined ? rest : { ...rest, [key]: value }
}

function reversedMembers(record: Snapshot): Snapshot {
  return Object.fromEntries(Object.entries(record).reverse())
}

function toolsOf(snapshot: Snapshot): unknown[] {
  return Array.isArray(snapshot['tools']) ? snapshot['tools'] : []
}

/** A value for each config member HDR-5 names, different from what the generated headers hold. */
const NAMED_CONFIG_VALUES: Readonly<Record<string, unknown>> = {
  provider: 'openai', model: 'deepseek-v4-pro', reasoningEffort: 'high', temperature: 0.7, maxTokens: 8192,
}

/** The left and right `stop`: absent against [], the same list, the same stops in another order. */
const STOPS: readonly (readonly [unknown, unknown])[] = [
  [undefined, []],
  [['END', 'STOP'], ['END', 'STOP']],
  [['END', 'STOP'], ['STOP', 'END']],
]
const SYSTEMS: readonly unknown[] = [undefined, '', ' ', 'Another prompt.']
// A `false` flag, or a flag on a config without its member, lies outside HDR-1 too; no known class
// lists a departure there, so these pairs need no variant to keep one apart.
const ADAPTER_DEFAULTS: readonly unknown[] = [
  {}, { reasoningEffort: true }, { maxTokens: true }, { reasoningEffort: false }, { reasoningEffort: true, maxTokens: false },
]
const EXTRA_TOOL = { name: 'extra', description: 'One more tool.', parameters: { type: 'object', properties: {} } }

/** The variant of the probes whose pairs hold values outside HDR-1 (Probe.variant). */
export const OUTSIDE_HDR_1_VARIANT = 'values outside HDR-1'

/**
 * Members outside the shapes of HDR-1, which a snapshot given to headerEquals may still hold: where it
 * sits (in `config` or at the top), its name, and the left and right values. HDR-5 calls a `stop` that
 * is no array different from anything; HDR-3 drops a `system` that is no non-empty string and `tools`
 * that are no array, so that they compare as absent.
 */
const OUTSIDE_HDR_1: readonly (readonly ['config' | 'top', string, unknown, unknown])[] = [
  ['config', 'stop', 'ab', ['a', 'b']],
  ['config', 'stop', 'END', 'END'],
  ['top', 'system', null, null],
  ['top', 'system', ['x'], undefined],
  ['top', 'tools', 'abc', undefined],
  ['top', 'tools', null, []],
  ['config', 'stop', [['END']], [['END']]],
  ['config', 'stop', null, null],
]

/** The edit that puts values outside HDR-1 on both sides: its pairs are a class of their own (headerPair). */
function outsideHdr1(left: Snapshot, _others: readonly Snapshot[], chooser: Chooser): [Snapshot, Snapshot] {
  const [place, key, leftValue, rightValue] = pick(chooser, OUTSIDE_HDR_1)
  const set = (value: unknown): Snapshot => (place === 'config' ? withConfig(left, withMember(configOf(left), key, value)) : withMember(left, key, value))
  return [set(leftValue), set(rightValue)]
}

/** The left's tools (or one tool) against the same with the first tool's parameters holding a member named `__proto__`. */
function inheritedParameterName(left: Snapshot): [Snapshot, Snapshot] {
  const tools = toolsOf(left)
  const [first, ...rest] = isRecord(tools[0]) ? tools : [EXTRA_TOOL, ...tools]
  // A computed key defines the member; `{__proto__: …}` would set the prototype.
  const parameters = { type: 'object', properties: { ['__proto__']: { type: 'string' } } }
  return [withMember(left, 'tools', [first, ...rest]), withMember(left, 'tools', [{ ...(first as Snapshot), parameters }, ...rest])]
}

/** `text` with each letter's case swapped. */
const swappedCase = (text: string): string =>
  [...text].map(letter => (letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase())).join('')

/** The left's first tool (or one more) with a member holding null, against the same without it (HDR-5: present against absent). */
function nullToolMember(left: Snapshot): [Snapshot, Snapshot] {
  const tools = toolsOf(left)
  const [first, ...rest] = isRecord(tools[0]) ? tools : [EXTRA_TOOL, ...tools]
  return [withMember(left, 'tools', [{ ...(first as Snapshot), strict: null }, ...rest]), withMember(left, 'tools', [first, ...rest])]
}

/** The left's first tool (or one more) whose parameters require ["path"], against the same requiring {"0": "path"}: an array is no object. */
function arrayAgainstIndexObject(left: Snapshot): [Snapshot, Snapshot] {
  const tools = toolsOf(left)
  const [first, ...rest] = isRecord(tools[0]) ? tools : [EXTRA_TOOL, ...tools]
  const requiring = (required: unknown): Snapshot =>
    withMember(left, 'tools', [{ ...(first as Snapshot), parameters: { type: 'object', properties: {}, required } }, ...rest])
  return [requiring(['path']), requiring({ 0: 'path' })]
}

const EDITS: readonly Edit[] = [
  left => [left, left],
  (left, others, chooser) => [left, others.length > 0 ? pick(chooser, others) : left],
  left => [left, withConfig(left, reversedMembers(configOf(left)))],
  left => [left, withConfig(left, { ...configOf(left), topP: 0.5 })],
  (left, _others, chooser) => {
    const [key, value] = pick(chooser, Object.entries(NAMED_CONFIG_VALUES))
    const config = configOf(left)
    return [left, withConfig(left, withMember(config, key, config[key] === value ? undefined : value))]
  },
  (left, _others, chooser) => {
    const withStop = (stop: unknown): Snapshot => withConfig(left, withMember(configOf(left), 'stop', stop))
    const [leftStop, rightStop] = pick(chooser, STOPS)
    return [withStop(leftStop), withStop(rightStop)]
  },
  (left, _others, chooser) => [left, withMember(left, 'system', pick(chooser, SYSTEMS))],
  (left, _others, chooser) => [left, withMember(left, 'tools', chooser.int(2) === 0 ? [] : undefined)],
  left => {
    const [first, ...rest] = toolsOf(left)
    const tools = isRecord(first) ? [reversedMembers(first), ...rest] : [...rest, EXTRA_TOOL]
    return [left, withMember(left, 'tools', tools)]
  },
  left => [left, withMember(left, 'tools', toolsOf(left).slice(0, -1))],
  (left, _others, chooser) => [left, withMember(left, 'adapterDefaults', pick(chooser, ADAPTER_DEFAULTS))],
  // A false flag beside a true one is kept (HDR-3) and present (HDR-5): not the same as no flag, and,
  // one time in two, on both sides, the same as itself.
  (left, _others, chooser) => {
    const withFalse = withMember(left, 'adapterDefaults', { reasoningEffort: true, maxTokens: false })
    return [chooser.int(2) === 0 ? withFalse : withMember(left, 'adapterDefaults', { reasoningEffort: true }), withFalse]
  },
  left => [withMember(left, 'messagePrefix', 'a'), withMember(left, 'messagePrefix', 'b')],
  // A flag holding null beside a true one is kept and present, as a false one is: not the same as none.
  left => [withMember(left, 'adapterDefaults', { reasoningEffort: true }), withMember(left, 'adapterDefaults', { reasoningEffort: true, maxTokens: null })],
  // Strings are compared code unit by code unit: a provider in other letter case is another provider.
  left => [left, withConfig(left, { ...configOf(left), provider: swappedCase(String(configOf(left)['provider'] ?? PROVIDER)) })],
  nullToolMember,
  left => [withMember(left, 'system', 'caf\u00e9'), withMember(left, 'system', 'cafe\u0301')],
  inheritedParameterName,
  outsideHdr1,
  // Strings are compared as they are: a trailing space makes another system prompt.
  left => [withMember(left, 'system', 'You are terse.'), withMember(left, 'system', 'You are terse. ')],
  arrayAgainstIndexObject,
]

/** The snapshots the log's request/header events store: epoch headers whose config is an object. */
function storedSnapshots(events: readonly unknown[]): Snapshot[] {
  return events.flatMap(event => {
    if (!isRecord(event) || event['type'] !== 'request/header' || !isRecord(event['data'])) return []
    const header = event['data']['header']
    return isRecord(header) && isRecord(header['config']) ? [header] : []
  })
}

/** The snapshot compared when the log stores none (as after the shrinker cut every request/header). */
const FALLBACK: Snapshot = { config: { provider: PROVIDER, model: 'deepseek-v4-flash' } }

/** Salts the plan's seed, so that the pair's draws are not those of the batch cuts drawn from it too. */
const PAIR_SALT = 0x48445235

/**
 * The pair for a run. It is drawn from a seed of the run's plan, not from the run's own draws: a
 * shrunk log then draws the same edit, and the fuzzer's other draws stay as they were before this
 * probe existed (a seed's runs, and the vectors the other probes write, do not change).
 */
export function headerPair(events: readonly unknown[], planSeed: number): { pair: { left: Snapshot; right: Snapshot }; outsideHdr1: boolean } {
  const chooser = saltedChooser(planSeed, PAIR_SALT)
  // Draws whose bounds do not depend on the log come first, so a shrunk log draws them alike.
  const edit = pick(chooser, EDITS)
  const swapped = chooser.int(2) === 1
  const leftAt = chooser.int(1000)
  const snapshots = storedSnapshots(events)
  const left = snapshots.length > 0 ? snapshots[Math.floor((leftAt * snapshots.length) / 1000)]! : FALLBACK
  // Copies, so that no two inputs share an object (an in-process adapter could compare by identity).
  const [first, second] = edit(left, snapshots, chooser).map(snapshot => structuredClone(snapshot))
  return { pair: swapped ? { left: second!, right: first! } : { left: first!, right: second! }, outsideHdr1: edit === outsideHdr1 }
}
