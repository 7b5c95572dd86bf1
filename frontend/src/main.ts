import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { reportError } from './lib/api/index.ts';
import { installErrorReporting } from './lib/errorreport.ts';

installErrorReporting(window, reportError);

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

export default mount(App, { target });
