// The shop app the stack tests build (e2e/stackApp/buildShopApp.ts): pay() runs checkout through
// the vendored step runner, so that a stack holds the app's frames around a library's.
import { runSteps } from '../vendor/steps.js';
import { checkout } from './cart.js';
import { formatTotal } from './format.js';

export function pay(cart) {
  const receipt = runSteps([(order) => checkout(order).toUpperCase()], cart);
  return receipt.trim();
}

export function quote(cart) {
  return runSteps([(order) => formatTotal(order.total, order.currency)], cart);
}

export { checkout };
