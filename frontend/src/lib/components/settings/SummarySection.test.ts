import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../../test/api/fake.ts';
import { defaultSettings, resetAdminFake, sampleSummaryPlan } from '../../../test/api/admin.fake.ts';
import { resetFakeApi } from '../../../test/api/fake.ts';
import { locale } from '../../state/locale.svelte.ts';
import { SettingsState } from '../../state/settings.svelte.ts';
import SummarySection from './SummarySection.svelte';

vi.mock('../../api/index.ts', () => import('../../../test/api/fake.ts'));

const PLAN = sampleSummaryPlan({
  model: 'gemini/gemini-2.5-flash-lite',
  model_name: 'Gemini 2.5 Flash-Lite',
  documents: 2,
  requests: 412,
  over_cap: 7,
  input_tokens: 125300,
  output_tokens: 65920,
});

beforeEach(() => {
  resetFakeApi();
  resetAdminFake();
  api.summaryPlan.mockReset();
  api.summaryPlan.mockResolvedValue(PLAN);
  api.summarizeLibrary.mockReset();
  api.summarizeLibrary.mockResolvedValue(['job-1', 'job-2']);
  locale.set('en');
});

describe('SummarySection', () => {
  it('shows the cost before anything starts, turns the index on and summarises the documents here on request', async () => {
    const settings = new SettingsState();
    await settings.load();
    render(SummarySection, { settings });
    const box = screen.getByRole('checkbox', { name: /Summarise each passage with a language model/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(await screen.findByText(/takes 412 requests to Gemini 2\.5 Flash-Lite: about 125,300 tokens sent, at most 65,920 written/)).toBeTruthy();
    expect(screen.getByText('7 passages are left out by the cap.')).toBeTruthy();
    expect(screen.getByText(/The passages’ text goes to Google Gemini/)).toBeTruthy();
    expect(api.summarizeLibrary).not.toHaveBeenCalled();

    await userEvent.click(box);
    expect(api.setSettings).toHaveBeenLastCalledWith(expect.objectContaining({ summarize: true }));

    await userEvent.click(screen.getByRole('button', { name: 'Summarise the documents here now' }));
    expect(api.summarizeLibrary).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/each document shows its progress in the library/)).toBeTruthy();
  });

  it('counts the passages whose summary is kept, and applies them without a request to pay', async () => {
    api.summaryPlan.mockResolvedValue({ ...PLAN, requests: 0, over_cap: 0, kept: 130, input_tokens: 0, output_tokens: 0 });
    const settings = new SettingsState();
    await settings.load();
    render(SummarySection, { settings });
    expect(await screen.findByText('130 passages have a summary kept (remembered documents or a course file): no request for them.')).toBeTruthy();
    expect(screen.queryByText(/takes .* requests/)).toBeNull();
    expect(screen.queryByText(/summarised already, or too short/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Summarise the documents here now' }));
    expect(api.summarizeLibrary).toHaveBeenCalledTimes(1);
  });

  it('cannot be turned on without a model, and says why', async () => {
    api.summaryPlan.mockResolvedValue(sampleSummaryPlan());
    const settings = new SettingsState();
    await settings.load();
    render(SummarySection, { settings });
    expect(await screen.findByText(/Summarising passages needs a language model/)).toBeTruthy();
    expect((screen.getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
  });

  it('speaks French', async () => {
    locale.set('fr');
    api.settings.mockResolvedValue(defaultSettings({ locale: 'fr' }));
    const settings = new SettingsState();
    await settings.load();
    render(SummarySection, { settings });
    expect(screen.getByRole('checkbox', { name: /Résumer chaque passage avec un modèle de langue/ })).toBeTruthy();
    expect(await screen.findByText(/demande 412 requêtes à Gemini 2\.5 Flash-Lite : environ 125\s300 jetons envoyés, au plus 65\s920 écrits/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Résumer maintenant les documents présents' })).toBeTruthy();
  });

  it('says in French that kept summaries cost nothing', async () => {
    locale.set('fr');
    api.settings.mockResolvedValue(defaultSettings({ locale: 'fr' }));
    api.summaryPlan.mockResolvedValue({ ...PLAN, kept: 1 });
    const settings = new SettingsState();
    await settings.load();
    render(SummarySection, { settings });
    expect(await screen.findByText('1 passage a un résumé conservé (documents mémorisés ou fichier de cours) : aucune requête pour lui.')).toBeTruthy();
  });
});
