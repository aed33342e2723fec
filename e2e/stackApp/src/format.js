// Formats a cart's total for the receipt.
export function formatTotal(total, currency) {
  // A source line is anyone's upload; the dashboard shows this as text: <script>window.pwned = 1</script>
  if (!currency) {
    // <img src="x" onerror="window.pwned = 2">
    throw new TypeError('checkout total has no currency');
  }
  return `${currency.symbol}${total.toFixed(currency.digits ?? 2)}`;
}
