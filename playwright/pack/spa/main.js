// An app's entry, as the README's "From npm" section writes it.
import { init, errors, csp, vitals } from 'sitebeacon';
import { setting, startShop } from './shop.js';

init({
  siteKey: setting('site-key'),
  ingestOrigin: setting('ingest-origin'),
  capture: [errors(), csp(), vitals()],
});
startShop();
