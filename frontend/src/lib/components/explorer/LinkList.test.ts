import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import LinkList from './LinkList.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const links = [
  { page: 2, uri: 'https://example.org/convex', bbox: [72, 95, 200, 107] },
  { page: 3, uri: 'mailto:prof@example.org', bbox: [72, 110, 200, 122] },
  { page: 3, uri: 'javascript:alert(1)', bbox: [72, 125, 200, 137] },
];

beforeEach(() => {
  api.openExternal.mockClear();
  locale.set('en');
});

describe('LinkList', () => {
  it('opens a web link in the browser and shows every other scheme as text only', async () => {
    render(LinkList, { links });
    await userEvent.click(screen.getByText('3 links to outside the document'));
    const web = screen.getByRole('link', { name: 'https://example.org/convex' });
    await userEvent.click(web);
    expect(api.openExternal).toHaveBeenCalledWith('https://example.org/convex');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    const mail = screen.getByText('mailto:prof@example.org');
    expect(mail.closest('a')).toBeNull();
    expect(mail.getAttribute('title')).toBe('Not a web address: shown as text, not opened');
    expect(screen.getByText('javascript:alert(1)').closest('a')).toBeNull();
  });

  it('says it in French', async () => {
    locale.set('fr');
    render(LinkList, { links: links.slice(0, 1) });
    expect(screen.getByText('1 lien vers l’extérieur du document')).toBeTruthy();
  });

  it('shows nothing for a document without links', () => {
    const { container } = render(LinkList, { links: [] });
    expect(container.querySelector('details')).toBeNull();
  });
});
