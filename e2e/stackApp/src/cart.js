import { formatTotal } from './format.js';

export function checkout(cart) {
  const total = cart.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const label = formatTotal(total, cart.currency);
  return label.trim();
}
