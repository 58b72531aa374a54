// How many arrays and objects a record line builds when it is parsed, counted from its bytes without
// parsing it: a parser builds one for every `[` and `{` outside a string. A line of 64 MiB nested as
// deep as it goes built 33M arrays and took check 3.3 GB (about 100 bytes each), so check bounds the
// values of one line as it bounds its bytes, by a share of --max-line-bytes. audit, which holds a whole
// log, counts every line's members and elements too (its commas), against a limit of its own.

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const OPEN_BRACE = 0x7b
const COMMA = 0x2c

/** Each line may build one array or object per this many bytes of --max-line-bytes. */
export const BYTES_PER_VALUE = 64

/** At least this many, whatever --max-line-bytes says: a small limit still takes any ordinary line. */
export const FEWEST_MOST_VALUES = 65_536

/** The most arrays and objects check builds for one line (1,048,576 under the default limit of 64 MiB). */
export function mostLineValues(maxLineBytes: number): number {
  return Math.max(FEWEST_MOST_VALUES, Math.floor(maxLineBytes / BYTES_PER_VALUE))
}

/**
 * How many arrays and objects parsing `bytes` (one line of JSON text, or what passes for it) would
 * build, from its `[` and `{` outside strings, and with `members` also the members and elements after
 * the first of each (its commas outside strings), counted up to one more than `most` and no further.
 * UTF-8 never puts a quote, a backslash, a bracket or a comma inside a multi-byte character, so bytes
 * are read one by one.
 */
export function valuesUpTo(bytes: Uint8Array, most: number, members = false): number {
  let values = 0
  let inString = false
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at]!
    if (inString) {
      if (byte === BACKSLASH) at += 1
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if ((byte === OPEN_BRACKET || byte === OPEN_BRACE || (members && byte === COMMA)) && ++values > most) return values
  }
  return values
}

/** Whether parsing `bytes` would build more than `most` arrays and objects (a line no longer cannot, and is not scanned). */
export function buildsMoreValues(bytes: Uint8Array, most: number): boolean {
  return bytes.length > most && valuesUpTo(bytes, most) > most
}
