import { mount } from 'svelte';
import App from './App.svelte';
import { guardWindow } from './lib/windowguard.ts';
import 'temml/dist/Temml-Local.css'; // MathML layout rules (lib/math.ts): a stylesheet, not inline styles
import './app.css';
import { reportError } from './lib/api/index.ts';
import { installErrorReporting } from './lib/errorreport.ts';

installErrorReporting(window, reportError);

guardWindow(window); // the window never leaves the app (lib/windowguard.ts)

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

export default mount(App, { target });
