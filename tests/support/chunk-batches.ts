// A small log of text chunks, the fixture of the fuzz tests over encodeJsonl and decodeJsonl
// (tests/fuzz/chunk-order, chunk-deltas, packing-edges and artifact-text): the session header given to
// encodeJsonl, and turn 1's step 1 streaming one text chunk per letter from seq 2, each at time 10 + seq.

/** The header encodeJsonl is given. */
export const HEADER = { version: 0, id: 's', createdAt: 1 }

/** The text-delta chunk at `seq` of turn 1, step 1, block 0. */
export const textChunk = (seq: number, text: string): Record<string, unknown> =>
  ({ type: 'assistant/chunk', seq, time: 10 + seq, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text } } })

/** turn/start 1 and step/start 1 (seqs 0 and 1), then one chunk per text from seq 2. */
export const chunkRun = (texts: readonly string[]): Record<string, unknown>[] => [
  { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
  { type: 'step/start', seq: 1, time: 2, data: { turn: 1, step: 1 } },
  ...texts.map((text, index) => textChunk(index + 2, text)),
]
