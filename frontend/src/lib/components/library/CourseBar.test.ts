import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { dropPaths, emitProgress, progress, resetFakeApi, sampleDocument } from '../../../test/api/fake.ts';
import { CourseFiles } from '../../state/course.svelte.ts';
import { Library } from '../../state/library.svelte.ts';
import { Scope } from '../../state/scope.svelte.ts';
import { locale } from '../../state/locale.svelte.ts';
import LibraryPanel from './LibraryPanel.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

function setup() {
  const library = new Library();
  library.start();
  const course = new CourseFiles(library);
  render(LibraryPanel, { library, course, scope: new Scope() });
  return { library, course };
}

beforeEach(() => {
  resetFakeApi();
  locale.set('en');
});

describe('Add folder', () => {
  it('shows one line for the batch, the files skipped and the cap, and no row per PDF', async () => {
    setup();
    api.pickFolder.mockResolvedValue('/home/ana/term1');
    api.addFolder.mockResolvedValue({
      dir: '/home/ana/term1', pdfs: ['/home/ana/term1/a.pdf', '/home/ana/term1/w2/b.pdf'], found: 3,
      skipped: ['notes.txt', 'photo.png'], skipped_count: 2, jobs: ['j1', 'j2'], capped: true, max: 2,
      truncated: true, max_entries: 50000, deep: 2, max_depth: 16,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Add folder…' }));
    expect(await screen.findByText(/Adding the folder term1: 0 of 2 PDFs/)).toBeTruthy();
    expect(screen.getByText('2 other files skipped: notes.txt, photo.png')).toBeTruthy();
    expect(screen.getByText('Only the first 2 PDFs were added: the folder holds more. Add its subfolders one by one for the rest.')).toBeTruthy();
    expect(screen.getByText('Vika stopped looking through this folder after 50,000 files and folders: any PDFs beyond them were not added.')).toBeTruthy();
    expect(screen.getByText('2 folders nested more than 16 levels deep were not opened.')).toBeTruthy();

    emitProgress(progress({ job_id: 'j1', stage: 'extracting', file: 'a.pdf', done: 1, total: 3 }));
    emitProgress(progress({ job_id: 'j1', stage: 'done', file: 'a.pdf', doc: sampleDocument({ doc_id: 'd1', label: 'a.pdf' }) }));
    expect(await screen.findByText(/Adding the folder term1: 1 of 2 PDFs/)).toBeTruthy();
    expect(screen.queryByText('In progress')).toBeNull();
    emitProgress(progress({ job_id: 'j2', stage: 'failed', file: 'b.pdf', error: 'not a PDF', problem: { code: 'ingest.not_pdf' } }));
    expect(await screen.findByText(/Folder term1 added: 1 of 2 PDFs/)).toBeTruthy();
    expect(screen.getByText(/1 could not be added \(see its row\)/)).toBeTruthy();
    expect(screen.getByText('a.pdf')).toBeTruthy();
  });
});

describe('A folder dropped on the window', () => {
  it('has its own progress line beside a picked folder, counts the events that came first, and speaks French', async () => {
    locale.set('fr');
    const { library } = setup();
    api.pickFolder.mockResolvedValue('/home/ana/term1');
    api.addFolder.mockResolvedValue({
      dir: '/home/ana/term1', pdfs: ['/home/ana/term1/a.pdf'], found: 1, skipped: [], skipped_count: 0, jobs: ['j1'], capped: false, max: 300,
      truncated: false, max_entries: 50000, deep: 0, max_depth: 16,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Ajouter un dossier…' }));
    expect(await screen.findByText(/Ajout du dossier term1 : 0 PDF sur 1/)).toBeTruthy();

    api.addDropped.mockImplementation(async (paths) => {
      // The backend's events outrun its answer: one done, one failed, one still reading.
      emitProgress(progress({ job_id: 'k1', stage: 'done', file: 'c.pdf', doc: sampleDocument({ doc_id: 'dc', label: 'c.pdf' }) }));
      emitProgress(progress({ job_id: 'k2', stage: 'failed', file: 'd.pdf', error: 'not a PDF', problem: { code: 'ingest.not_pdf' } }));
      emitProgress(progress({ job_id: 'k3', stage: 'extracting', file: 'e.pdf', done: 1, total: 4 }));
      return {
        files: ['/home/ana/syllabus.pdf'], jobs: ['k0'],
        folders: [{
          dir: paths[1] ?? '', pdfs: ['c.pdf', 'd.pdf', 'e.pdf'].map((f) => `/home/ana/term2/${f}`), found: 3,
          skipped: ['notes.txt'], skipped_count: 1, jobs: ['k1', 'k2', 'k3'], capped: false, max: 300,
          truncated: false, max_entries: 50000, deep: 1, max_depth: 16,
        }],
      };
    });
    dropPaths(['/home/ana/syllabus.pdf', '/home/ana/term2']);
    expect(await screen.findByText(/Ajout du dossier term2 : 1 PDF sur 3/)).toBeTruthy();
    expect(screen.getByText(/1 n’a pas pu être ajouté \(voir sa ligne\)/)).toBeTruthy();
    expect(screen.getByText('1 autre fichier ignoré : notes.txt')).toBeTruthy();
    expect(screen.getByText('1 dossier imbriqué à plus de 16 niveaux n’a pas été ouvert.')).toBeTruthy();
    expect(screen.getByText(/Ajout du dossier term1 : 0 PDF sur 1/)).toBeTruthy();
    // The loose PDF has its row; of the folder's, only the failed one.
    expect(library.jobs.map((j) => j.id).sort()).toEqual(['k0', 'k2']);

    emitProgress(progress({ job_id: 'k3', stage: 'done', file: 'e.pdf', doc: sampleDocument({ doc_id: 'de', label: 'e.pdf' }) }));
    expect(await screen.findByText(/Dossier term2 ajouté : 2 PDF sur 3/)).toBeTruthy();
    expect(library.jobs.map((j) => j.id).sort()).toEqual(['k0', 'k2']);
  });
});

describe('Course files', () => {
  it('saves with the conversation when ticked, opens a course, and says why a tampered one is refused, in French too', async () => {
    api.documents.mockResolvedValue([sampleDocument({ doc_id: 'd1', label: 'a.pdf' })]);
    const { library } = setup();
    await library.load();
    api.saveCourse.mockResolvedValue('/home/ana/stats.vika');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'with the conversation' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save course…' }));
    expect(api.saveCourse).toHaveBeenCalledWith(true);
    expect(await screen.findByText('Course saved as stats.vika.')).toBeTruthy();

    // Opened in the background: its row shows its progress, then why it
    // was refused; the next one ends done and says so.
    api.pickCourse.mockResolvedValue('/home/ana/from-a-classmate.vika');
    api.openCourse.mockResolvedValue('job-c1');
    locale.set('fr');
    await userEvent.click(await screen.findByRole('button', { name: 'Ouvrir un cours…' }));
    emitProgress(progress({ job_id: 'job-c1', file: 'from-a-classmate.vika', stage: 'course', done: 1, total: 3 }));
    expect(await screen.findByText('Ouverture du cours…')).toBeTruthy();
    expect(screen.getByText('1 sur 3')).toBeTruthy();
    emitProgress(progress({ job_id: 'job-c1', file: 'from-a-classmate.vika', stage: 'failed', error: 'a PDF of the course file does not match its fingerprint: a.pdf', problem: { code: 'course.tampered' } }));
    expect(await screen.findByText(/Ce fichier de cours a été modifié après son enregistrement/)).toBeTruthy();
    expect(screen.queryByText(/Cours from-a-classmate.vika ouvert/)).toBeNull();

    api.pickCourse.mockResolvedValue('/home/ana/term.vika');
    api.openCourse.mockResolvedValue('job-c2');
    await userEvent.click(screen.getByRole('button', { name: 'Ouvrir un cours…' }));
    emitProgress(progress({ job_id: 'job-c2', file: 'term.vika', stage: 'done', done: 1, total: 1 }));
    expect(await screen.findByText('Cours term.vika ouvert.')).toBeTruthy();
  });
});

describe('Recent courses', () => {
  it('lists them while the library is empty, opens one, shows a missing one greyed, in French too', async () => {
    api.recentCourses.mockResolvedValue([
      { path: '/home/ana/stats.vika', name: 'stats.vika', missing: false },
      { path: '/media/usb/old.vika', name: 'old.vika', missing: true },
    ]);
    const { course } = setup();
    await course.loadRecent();
    expect(await screen.findByRole('heading', { name: 'Recent courses' })).toBeTruthy();
    const missing = screen.getByRole('button', { name: 'old.vika (not found)' }) as HTMLButtonElement;
    expect(missing.disabled).toBe(true);
    api.openCourse.mockResolvedValue('job-r1');
    await userEvent.click(screen.getByRole('button', { name: 'stats.vika' }));
    expect(api.openCourse).toHaveBeenCalledWith('/home/ana/stats.vika');
    expect(api.openCourse).toHaveBeenCalledTimes(1);
    emitProgress(progress({ job_id: 'job-r1', file: 'stats.vika', stage: 'done', done: 1, total: 1 }));
    expect(await screen.findByText('Course stats.vika opened.')).toBeTruthy();

    locale.set('fr');
    expect(await screen.findByRole('heading', { name: 'Cours récents' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'old.vika (introuvable)' })).toBeTruthy();
  });

  it('is not shown once the library holds documents', async () => {
    api.recentCourses.mockResolvedValue([{ path: '/home/ana/stats.vika', name: 'stats.vika', missing: false }]);
    api.documents.mockResolvedValue([sampleDocument({ doc_id: 'd1', label: 'a.pdf' })]);
    const { library, course } = setup();
    await library.load();
    await course.loadRecent();
    expect(await screen.findByRole('button', { name: 'Save course…' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Recent courses' })).toBeNull();
  });
});
