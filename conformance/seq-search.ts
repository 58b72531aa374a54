// Lookups in ascending lists of seqs by halving, so that asking once per replace, bracket or failed
// call (audit), or once per seq a shrinking cut renumbers (fuzz), costs the logarithm of the list.

/** The index of the first item whose key is greater than `seq` (the list's length when none is). */
export function indexAfter<T>(items: readonly T[], seq: number, keyOf: (item: T) => number): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (keyOf(items[middle]!) > seq) high = middle
    else low = middle + 1
  }
  return low
}

/** The first seq of ascending `seqs` greater than `seq`. */
export function firstSeqAfter(seqs: readonly number[], seq: number): number | undefined {
  return seqs[indexAfter(seqs, seq, item => item)]
}
