// A second writer of packed chunk rows, written from the text of spec chapter 19 (ROW-5 to ROW-7,
// JSONL-8) and not from reference/, so that P10b can hold the reference's encodeJsonl to the spec's
// bytes: an encoder whose output only its own decoder reads back would pass P10.
type Record_ = Record<string, unknown>

const ROW_TYPES: Readonly<Record<string, string>> = { 'text-delta': 'text-chunks', 'reasoning-delta': 'reasoning-chunks', 'tool-call-delta': 'tool-call-chunks' }

function isRecord(value: unknown): value is Record_ {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function hasExactly(value: Record_, members: readonly string[]): boolean {
  const keys = Object.keys(value)
  return keys.length === members.length && members.every(member => keys.includes(member))
}

function chunkOf(event: Record_): Record_ {
  return (event['data'] as Record_)['chunk'] as Record_
}

/** ROW-5: the kind (`chunk.type`) of a packable event; undefined for every other event. */
function packableKind(event: Record_): string | undefined {
  if (!hasExactly(event, ['type', 'seq', 'time', 'data']) || event['type'] !== 'assistant/chunk') return undefined
  if (!Number.isSafeInteger(event['seq']) || (event['seq'] as number) < 0 || !Number.isSafeInteger(event['time'])) return undefined
  const data = event['data']
  if (!isRecord(data) || !hasExactly(data, ['turn', 'step', 'chunk']) || typeof data['turn'] !== 'number' || typeof data['step'] !== 'number') return undefined
  const chunk = data['chunk']
  if (!isRecord(chunk) || typeof chunk['index'] !== 'number') return undefined
  const kind = chunk['type']
  if ((kind === 'text-delta' || kind === 'reasoning-delta') && hasExactly(chunk, ['type', 'index', 'text']) && typeof chunk['text'] === 'string') return kind
  const strings = (members: readonly string[]): boolean => members.every(member => typeof chunk[member] === 'string')
  if (kind === 'tool-call-delta' && hasExactly(chunk, ['type', 'index', 'id', 'argumentsDelta']) && strings(['id', 'argumentsDelta'])) return kind
  if (kind === 'tool-call-delta' && hasExactly(chunk, ['type', 'index', 'id', 'argumentsDelta', 'name']) && strings(['id', 'argumentsDelta', 'name'])) return kind
  return undefined
}

/** ROW-6: whether `next` continues `last` (the kinds are already equal). */
function continues(last: Record_, next: Record_): boolean {
  const [a, b] = [last['data'] as Record_, next['data'] as Record_]
  const [ca, cb] = [chunkOf(last), chunkOf(next)]
  return next['seq'] === (last['seq'] as number) + 1 && Number.isSafeInteger((next['time'] as number) - (last['time'] as number))
    && b['turn'] === a['turn'] && b['step'] === a['step'] && cb['index'] === ca['index']
    && (ca['type'] !== 'tool-call-delta' || (cb['id'] === ca['id'] && ('name' in ca) === ('name' in cb) && cb['name'] === ca['name']))
}

/** ROW-7: the row a run of one kind becomes. */
function rowOf(run: readonly Record_[]): Record_ {
  const first = run[0]!
  const chunk = chunkOf(first)
  const data: Record_ = { turn: (first['data'] as Record_)['turn'], step: (first['data'] as Record_)['step'], index: chunk['index'] }
  data['dt'] = run.slice(1).map((event, i) => (event['time'] as number) - (run[i]!['time'] as number))
  if (chunk['type'] === 'tool-call-delta') {
    data['id'] = chunk['id']
    if ('name' in chunk) data['name'] = chunk['name']
    data['args'] = run.map(event => chunkOf(event)['argumentsDelta'])
  } else data['texts'] = run.map(event => chunkOf(event)['text'])
  return { type: ROW_TYPES[chunk['type'] as string], seq0: first['seq'], time0: first['time'], data }
}

/** ROW-6: the records of one batch: closed runs of three or more as rows, everything else verbatim. */
export function batchRecords(batch: readonly Record_[]): Record_[] {
  const records: Record_[] = []
  let run: Record_[] = []
  const close = (): void => {
    records.push(...(run.length >= 3 ? [rowOf(run)] : run))
    run = []
  }
  for (const event of batch) {
    const kind = packableKind(event)
    const last = run.at(-1)
    if (kind !== undefined && last !== undefined && chunkOf(last)['type'] === kind && continues(last, event)) run.push(event)
    else {
      close()
      if (kind === undefined) records.push(event)
      else run = [event]
    }
  }
  close()
  return records
}
