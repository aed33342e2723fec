// The app's production build with rollup: each entry a bundle of its own, minified by terser.
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

export default ['main', 'attribution'].map((entry) => ({
  input: `${entry}.js`,
  output: { file: `dist/rollup/${entry}.js`, format: 'es' },
  plugins: [resolve({ browser: true }), terser()],
}));
