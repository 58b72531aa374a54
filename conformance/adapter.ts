// What the runner needs from an implementation under test: its metadata and the operations it has.
import type { OperationResult } from './expectations.ts'
import type { OperationName } from './vector-cases.ts'

export interface AdapterMeta {
  name: string
  version: string
  language: string
  profiles: string[]
}

export type Operation = (input: Record<string, unknown>) => OperationResult | Promise<OperationResult>

export interface Adapter {
  meta: AdapterMeta
  operations: Partial<Record<OperationName, Operation>>
}

/** Whether a value has the shape of an operation result; anything else is an adapter error. */
export function isOperationResult(value: unknown): value is OperationResult {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  if (record['ok'] === true) return 'value' in record
  if (record['ok'] !== false) return false
  const error = record['error']
  return typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>)['code'] === 'string'
}
