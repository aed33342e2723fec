// A tiny step runner standing for a library: the build's source map lists it in `ignoreList`.
export function runSteps(steps, input) {
  let value = input;
  for (const step of steps) value = applyStep(step, value);
  return value;
}

export function applyStep(step, value) {
  const next = step(value);
  if (next === undefined) return value;
  return next;
}
