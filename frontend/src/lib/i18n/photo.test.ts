import { describe as group, expect, it } from 'vitest';
import { describe } from './messages.ts';

// The codes of photos and images added as documents, as Go sends them
// (backend/imagehead, backend/ingest/photo.go), in both languages.
group('messages of photos and images', () => {
  it('warns of a page read poorly, naming its pages and the lowest confidence', () => {
    const m = { code: 'ingest.ocr_poor', params: { pages: '1, 4', confidence: 32 } };
    expect(describe('en', m)).toBe(
      'OCR read page(s) 1, 4 poorly (confidence as low as 32 %): a blurred, dark or slanted photo? Answers from them may miss words.',
    );
    expect(describe('fr', m)).toContain('L’OCR a mal lu la ou les page(s) 1, 4 (confiance de 32 % au plus bas)');
  });
  it('refuses an image too large, a TIFF of too many frames and a HEIC photo', () => {
    const big = { code: 'image.pixels', params: { width: 100000, height: 100000, megapixels: 50 } };
    expect(describe('en', big)).toContain('100000 × 100000 pixels, at most 50 million pixels');
    expect(describe('fr', big)).toContain('100000 × 100000 pixels, au plus 50 millions de pixels');
    expect(describe('fr', { code: 'image.frames', params: { limit: 1000 } })).toBe('Ce TIFF contient plus de 1000 images : il n’a pas été lu.');
    expect(describe('en', { code: 'image.heic' })).toContain('save the photo as JPEG');
    expect(describe('fr', { code: 'image.heic' })).toContain('enregistrez la photo en JPEG');
  });
});
