// The page's own script: paying for a cart without a currency throws inside the app.
document.getElementById('pay').addEventListener('click', () => {
  window.shopApp.pay({ items: [{ price: 4.5, quantity: 2 }] });
});
