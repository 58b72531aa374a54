// Which fault upstream's own checks stopped at, for the two rejections whose message
// gives no reason ("not losslessly JSON-serializable", "invalid event envelope"). Both checks stop at a
// well-defined first fault: the lossless-JSON walk (`walkJsonValue` in lib/index.js) returns at the first
// fault in its traversal order (members in own-key order, depth first), and the envelope test
// (`assertSessionEventEnvelope`) runs the key loop and then one `||` chain in the order type, seq, time,
// data, ignorable. Naming that fault reports what upstream found; naming the fault the spec ranks first
// (the reference's classifier) would report a priority upstream never applied.

function hasIntrinsicConstructor(prototype: object, name: string): boolean {
  const constructor: unknown = Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value
  if (typeof constructor !== 'function') return false
  try {
    return constructor.name === name && constructor.prototype === prototype && Function.prototype.toString.call(constructor) === `function ${name}() { [native code] }`
  } catch {
    return false
  }
}

function isIntrinsicObjectPrototype(value: object): boolean {
  return Object.getPrototypeOf(value) === null && hasIntrinsicConstructor(value, 'Object')
}

function hasPlainArrayPrototype(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  if (!Array.isArray(prototype) || !hasIntrinsicConstructor(prototype, 'Array')) return false
  const objectPrototype: unknown = Object.getPrototypeOf(prototype)
  return typeof objectPrototype === 'object' && objectPrototype !== null && isIntrinsicObjectPrototype(objectPrototype)
}

function hasPlainObjectPrototype(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === null || (typeof prototype === 'object' && isIntrinsicObjectPrototype(prototype))
}

type Task =
  | { kind: 'visit'; value: unknown }
  | { kind: 'leave'; source: object }
  | { kind: 'array-item'; source: unknown[]; index: number }
  | { kind: 'object-property'; source: Record<string | symbol, unknown>; key: string }

/** The code of the fault at which upstream's lossless-JSON walk stops, or undefined when it passes. */
export function upstreamJsonFault(value: unknown): string | undefined {
  const ancestors = new Set<object>()
  const tasks: Task[] = [{ kind: 'visit', value }]
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    if (task.kind === 'leave') {
      ancestors.delete(task.source)
      continue
    }
    if (task.kind === 'array-item') {
      if (!Object.prototype.hasOwnProperty.call(task.source, task.index)) return 'JSON_SPARSE_ARRAY'
      tasks.push({ kind: 'visit', value: task.source[task.index] })
      continue
    }
    if (task.kind === 'object-property') {
      tasks.push({ kind: 'visit', value: task.source[task.key] })
      continue
    }
    const current = task.value
    if (current === null || typeof current === 'boolean' || typeof current === 'string') continue
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'JSON_NON_FINITE'
      if (Object.is(current, -0)) return 'JSON_NEGATIVE_ZERO'
      continue
    }
    if (current === undefined) return 'JSON_UNDEFINED'
    if (typeof current !== 'object') return 'JSON_UNSUPPORTED_VALUE'
    if (ancestors.has(current)) return 'JSON_CYCLE'
    if (Array.isArray(current)) {
      if (!hasPlainArrayPrototype(current)) return 'JSON_NON_PLAIN_OBJECT'
      if (Reflect.ownKeys(current).length !== current.length + 1) return 'JSON_SPARSE_ARRAY'
      ancestors.add(current)
      tasks.push({ kind: 'leave', source: current })
      for (let index = current.length - 1; index >= 0; index--) tasks.push({ kind: 'array-item', source: current, index })
      continue
    }
    if (!hasPlainObjectPrototype(current)) return 'JSON_NON_PLAIN_OBJECT'
    const keys = Reflect.ownKeys(current)
    if (keys.some(key => typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(current, key))) return 'JSON_NON_PLAIN_OBJECT'
    ancestors.add(current)
    tasks.push({ kind: 'leave', source: current })
    for (let index = keys.length - 1; index >= 0; index--) tasks.push({ kind: 'object-property', source: current as Record<string, unknown>, key: keys[index] as string })
  }
  return undefined
}

const ENVELOPE_KEYS = new Set(['type', 'seq', 'time', 'data', 'surfaceOp', 'sourceEventSeqs', 'ignorable'])

/** The code of the first condition of upstream's envelope test that fails (it has no storage-tag rule). */
export function upstreamEnvelopeFault(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'ENV_NOT_OBJECT'
  const record = event as Record<string, unknown>
  for (const key in record) if (!ENVELOPE_KEYS.has(key)) return 'ENV_UNKNOWN_KEY'
  const { type, seq, time } = record
  if (typeof type !== 'string') return 'ENV_TYPE_INVALID'
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return 'ENV_SEQ_INVALID'
  if (typeof time !== 'number' || !Number.isSafeInteger(time)) return 'ENV_TIME_INVALID'
  if (record['data'] === undefined) return 'ENV_DATA_MISSING'
  if (record['ignorable'] !== undefined && record['ignorable'] !== true) return 'ENV_IGNORABLE_INVALID'
  return undefined
}
