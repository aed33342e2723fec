/**
 * The value at the 0-based `rank` of `values` in ascending order, found by selection (introselect:
 * Hoare partitions around a median of three, sorting what is left when the partitions stop
 * shrinking), in O(n) where a sort (Float64Array.prototype.sort) is O(n log n): a p75 is taken on
 * every read of the dashboard's Web Vitals, over every sample of the range.
 * Reorders `values` in place; NaN-free input (stored metric values are numbers); -0 and 0 are
 * one value to it, as to SQL.
 *
 * @example
 * selectRank(Float64Array.of(5, 1, 4, 2, 3), 3) // 4
 */
export const selectRank = (values: Float64Array, rank: number): number => {
  let low = 0;
  let high = values.length - 1;
  // Adversarial orders cannot make it quadratic: past this many partitions the rest is sorted.
  let budget = 2 * Math.ceil(Math.log2(values.length + 1));
  while (high > low) {
    if (budget-- == 0) return values.subarray(low, high + 1).sort()[rank - low]!;
    const middle = (low + high) >> 1;
    // The median of the first, middle and last values, at `middle`.
    if (values[middle]! < values[low]!) swap(values, middle, low);
    if (values[high]! < values[low]!) swap(values, high, low);
    if (values[high]! < values[middle]!) swap(values, high, middle);
    const pivot = values[middle]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) swap(values, i++, j--);
    }
    // [low, j] <= pivot <= [i, high]; between them, values equal to the pivot.
    if (rank <= j) high = j;
    else if (rank >= i) low = i;
    else return values[rank]!;
  }
  return values[rank]!;
};

const swap = (values: Float64Array, a: number, b: number) => {
  const kept = values[a]!;
  values[a] = values[b]!;
  values[b] = kept;
};
