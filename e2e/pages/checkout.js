// A page script with a real stack: the button calls into a named function that throws.
function checkout() {
  throw new TypeError('cart is empty');
}
document.getElementById('checkout').addEventListener('click', function onCheckoutClick() {
  checkout();
});
