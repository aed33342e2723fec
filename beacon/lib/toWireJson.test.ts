import { expect, test } from 'vitest';
import { toWireJson } from './toWireJson';

test('what the browser did not give is left out, at every depth; error_message is always kept', () => {
  const report = {
    error_type: 'manual',
    error_message: '',
    error_name: '',
    stack: undefined,
    line: 0,
    source_url: '',
    cross_origin: false,
    causes: [{ error_message: '', stack: 'at f (https://shop.example/a.js:1:2)', aggregate: undefined }],
  };
  expect(JSON.parse(toWireJson(report))).toEqual({
    error_type: 'manual',
    error_message: '',
    causes: [{ error_message: '', stack: 'at f (https://shop.example/a.js:1:2)' }],
  });
});

test('every string loses the credentials and fragments of the URLs in it, nested ones too', () => {
  const body = toWireJson([
    {
      error_message: 'failed https://u:p@shop.example/x#token=1',
      page_url: 'https://shop.example/cart#access_token=abc',
      causes: [{ error_message: 'm', stack: 'at g (https://shop.example/b.js#v2:3:9)' }],
    },
    { 'csp-report': { 'document-uri': 'https://u@shop.example/#t', 'line-number': 0 } },
  ]);
  expect(body).not.toMatch(/token|u:p@|u@|#/);
  expect(JSON.parse(body)).toEqual([
    {
      error_message: 'failed https://shop.example/x',
      page_url: 'https://shop.example/cart',
      causes: [{ error_message: 'm', stack: 'at g (https://shop.example/b.js:3:9)' }],
    },
    { 'csp-report': { 'document-uri': 'https://shop.example/' } },
  ]);
});

test('keepEmpty (a performance session) keeps its zeros and still cleans its URLs', () => {
  const session = {
    session_id: 's',
    page_url: 'https://shop.example/#top',
    metrics: { CLS: { value: 0, delta: 0, navigationURL: 'https://shop.example/p#x' } },
  };
  expect(JSON.parse(toWireJson(session, true))).toEqual({
    session_id: 's',
    page_url: 'https://shop.example/',
    metrics: { CLS: { value: 0, delta: 0, navigationURL: 'https://shop.example/p' } },
  });
});
