// Page behaviour for the beacon's end-to-end tests: each button does one thing the beacon must see.
function checkout() {
  throw new TypeError('cart is empty');
}
const on = (id, handler) => document.getElementById(id)?.addEventListener('click', handler);

on('throw', () => checkout());
on('reject', () => {
  Promise.reject({ code: 'E_PAYMENT', retryable: false });
});
on('broken-image', () => {
  const image = document.createElement('img');
  image.src = '/missing.png?size=large#hero';
  document.body.append(image);
});
on('blocked-image', () => {
  const image = document.createElement('img');
  image.src = 'https://blocked.example/pixel.gif';
  document.body.append(image);
});
on('storm-distinct', () => {
  for (let i = 0; i < 10000; i++) reportError(new Error(`storm ${i}`));
  document.getElementById('storm-done').textContent = 'done';
});
on('storm-same', () => {
  for (let i = 0; i < 10000; i++) reportError(new Error('the same storm'));
  document.getElementById('storm-done').textContent = 'done';
});
on('shift', () => {
  // Moves the content below: a layout shift for CLS (not within 500 ms of input... the banner
  // appears later, as ads and cookie banners do).
  setTimeout(() => {
    const banner = document.createElement('div');
    banner.style.height = '200px';
    banner.textContent = 'late banner';
    document.body.prepend(banner);
  }, 700);
});
on('slow', () => {
  // A slow interaction handler: INP well above zero.
  const end = performance.now() + 120;
  while (performance.now() < end);
  document.getElementById('slow').textContent = 'clicked';
});
on('eval-throw', () => {
  // Code run by eval with a sourceURL that carries credentials and a fragment: Chromium's stack
  // shows that URL as it is written (the page needs 'unsafe-eval').
  eval("(function evalCheckout() { throw new TypeError('eval cart is empty'); })()\n//# sourceURL=http://user:pw@assets.example/cart.js#v=2");
});
