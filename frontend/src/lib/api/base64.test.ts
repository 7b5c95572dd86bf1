import { describe, expect, it } from 'vitest';
import { bytesToBase64, fileToBase64 } from './base64.ts';

describe('base64', () => {
  it('encodes like Go encoding/json encodes []byte', () => {
    expect(bytesToBase64(new Uint8Array([]))).toBe('');
    expect(bytesToBase64(new TextEncoder().encode('%PDF-1.7'))).toBe('JVBERi0xLjc=');
    expect(bytesToBase64(new Uint8Array([0, 255, 128]))).toBe('AP+A');
  });

  it('handles files larger than one chunk', async () => {
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 31) % 256);
    const encoded = await fileToBase64(new Blob([bytes]));
    const decoded = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    expect(decoded).toEqual(bytes);
  });
});
