// The shop's own code, the same in both entries: what a page does that the beacon must see.

/** The deployment's settings, from the page's <meta> tags (index.html). */
export const setting = (name) => document.querySelector(`meta[name="sitebeacon-${name}"]`).content;

export const startShop = () => {
  // A slow click handler: an interaction for INP, well above zero.
  const add = document.getElementById('add');
  add.addEventListener('click', () => {
    const end = performance.now() + 150;
    while (performance.now() < end);
    document.getElementById('cart').textContent = '1 item';
  });

  // A bug after start: an error thrown from a timer, uncaught.
  setTimeout(function renderCart() {
    throw new TypeError('the cart failed to render');
  }, 0);

  // A tracking pixel from another origin: the page's policy (img-src 'self') blocks it.
  const pixel = document.createElement('img');
  pixel.src = 'https://tracker.example/pixel.gif';
  document.body.append(pixel);

  // A banner inserted above the content after load, as ads and cookie banners are: a layout shift for CLS.
  addEventListener('load', () =>
    setTimeout(() => {
      const banner = document.createElement('div');
      banner.id = 'banner';
      banner.style.height = '120px';
      banner.textContent = 'Free delivery this week';
      document.body.prepend(banner);
    }, 300),
  );
};
